/**
 * `npm run bench -- funding-memory [--calls N] [--no-write]`
 *
 * What the search's expansion stage holds in memory at the benchmark corpus's size (issue 34): the
 * vocabulary (the shipped EuroVoc concepts and the glossary's groups, with the label indexes built from
 * them) and the typo index (the words of the newest titles and the vocabulary's words), each measured
 * as the heap's growth after a full garbage collection, in a fresh process (so nothing was built
 * before the measure), on the corpus `bench -- funding` serves (bench/funding-corpus.ts). The caches of
 * what the index holds (db/funding/search-expand.ts) are bounded by their entry count, not measured here.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import { ensureCorpus } from './funding-corpus.ts';
import { fmt, loadSentence, machine, option, printAndWrite } from './load.ts';

interface ExpansionMemory {
  concepts: number;
  vocabularyBytes: number;
  typoWords: number;
  typoBytes: number;
  typoLoadMs: number;
  sqlite: string;
}

export async function run(args: string[]): Promise<void> {
  const calls = option(args, '--calls', 1_000_000);
  const corpus = ensureCorpus(calls, (line) => console.log(line));
  const loadBefore = loadavg()[0]!;
  const measured = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure', corpus.path], {
      encoding: 'utf8',
    }),
  ) as ExpansionMemory;
  const mib = (bytes: number) => `${fmt(bytes / 1_048_576, 1)} MiB`;
  const report = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine(measured.sqlite)}, on the ${calls.toLocaleString('en')}-call benchmark corpus; heap growth after a full collection, in a fresh process. ${loadSentence(loadBefore, loadavg()[0]!)}`,
    '',
    '| held by the expansion stage | size | heap |',
    '| --- | ---: | ---: |',
    `| the vocabulary: EuroVoc concepts and glossary groups, their files and label indexes | ${measured.concepts.toLocaleString('en')} concepts | ${mib(measured.vocabularyBytes)} |`,
    `| the typo index: words of the newest titles and the vocabulary's, by first letter (read in ${fmt(measured.typoLoadMs, 0)} ms on the first correction) | ${measured.typoWords.toLocaleString('en')} words | ${mib(measured.typoBytes)} |`,
  ].join('\n');
  printAndWrite(
    args,
    'funding-memory',
    '## Funding search: memory of the expansion stage (npm run bench -- funding-memory)',
    report,
  );
}

/** In the fresh process: the heap before and after building each part. */
async function measure(databasePath: string): Promise<ExpansionMemory> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const before = heap();
  // Imported only now, so that the vocabulary files' parse counts with what is built from them.
  const { shippedVocabulary, typoWords } = await import('../lib/funding/vocabulary.ts');
  const vocabulary = shippedVocabulary();
  const withVocabulary = heap();
  const { typoIndex } = await import('../db/funding/typo-index.ts');
  const db = new Database(databasePath, { readonly: true });
  try {
    const typos = typoIndex(db, typoWords(vocabulary));
    const started = performance.now();
    typos.near('discapacidd'); // the first correction reads the titles
    const typoLoadMs = performance.now() - started;
    const withTypos = heap();
    return {
      concepts: vocabulary.concepts.length,
      vocabularyBytes: withVocabulary - before,
      typoWords: typos.size().words,
      typoBytes: withTypos - withVocabulary,
      typoLoadMs,
      sqlite: db.prepare('SELECT sqlite_version()').pluck().get() as string,
    };
  } finally {
    db.close();
  }
}

if (process.argv[2] === '--measure') console.log(JSON.stringify(await measure(process.argv[3]!)));

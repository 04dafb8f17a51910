/**
 * What the search's expansion stage holds in memory at the benchmark corpus's size (issue 34): the
 * vocabulary (the shipped EuroVoc concepts and the glossary's groups, with the label index built from
 * them) and the typo index (the words of the newest titles and the vocabulary's words), each measured
 * as the heap's growth after a full garbage collection, in this process, on the corpus the run serves.
 * The caches of what the index holds (db/funding/search-expand.ts) are bounded by EXPANSION_CACHE_ENTRIES.
 */
import Database from 'better-sqlite3';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface ExpansionMemory {
  concepts: number;
  vocabularyBytes: number;
  typoWords: number;
  typoBytes: number;
  typoLoadMs: number;
}

export async function expansionMemory(databasePath: string): Promise<ExpansionMemory> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const before = heap();
  // Imported here so that the vocabulary files' parse is counted with what is built from them.
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
    };
  } finally {
    db.close();
  }
}

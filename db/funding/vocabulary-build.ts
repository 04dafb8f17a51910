/**
 * `funding vocabulary`: data/funding/eurovoc/vocabulary.json, the EuroVoc concepts a search expands
 * with (lib/funding/vocabulary.ts), built from the shipped EuroVoc extract and a corpus: a concept is
 * kept when one of its labels occurs in the corpus's full-text index, searched as if typed (every
 * content word in one call: "bienestar de los animales" is found where calls say "bienestar animal"). The same files and
 * corpus give the same output, byte for byte (tests/db/funding/vocabulary-build.test.ts rebuilds the
 * shipped file from the demo corpus).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../connection.ts';
import { preparedSql } from '../statements.ts';
import { compileWords } from '../../lib/funding/search-query.ts';
import { eurovocConcepts, labelWords, type Concept } from '../../lib/funding/vocabulary.ts';

export const EUROVOC_DIR = join(import.meta.dirname, '..', '..', 'data', 'funding', 'eurovoc');
const INPUTS = ['eurovoc-en-es.tsv', 'eurovoc-en-pref-supplement.tsv'] as const;

export interface VocabularyFile {
  description: string;
  credit: string;
  built_from: Record<string, string>;
  counts: { concepts_in_eurovoc: number; concepts_kept: number; opposites_dropped: number };
  concepts: Concept[];
}

/** The file's text as it is shipped (one space of indent, a final newline). */
export const vocabularyText = (file: VocabularyFile): string => `${JSON.stringify(file, null, 1)}\n`;

export function buildVocabularyFile(db: Db, dir = EUROVOC_DIR): VocabularyFile {
  const [tsv, supplement] = INPUTS.map((f) => readFileSync(join(dir, f), 'utf8')) as [string, string];
  const { concepts, dropped } = eurovocConcepts(tsv, supplement);
  const probe = preparedSql(db, 'SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH ? LIMIT 1').pluck();
  const occurs = (label: string) => {
    const ws = labelWords(label);
    return ws !== null && probe.get(compileWords(ws, 'all')) !== undefined;
  };
  const kept = concepts.filter((c) => [...c.en, ...c.es].some(occurs));
  return {
    description:
      'EuroVoc concepts a funding search expands with (lib/funding/vocabulary.ts): those with a label that occurs in the demo corpus; labels kept by the rule of docs/decisions.md (opposites dropped). Built by `funding vocabulary` from the files named in built_from; do not edit by hand.',
    credit:
      'Contains EuroVoc thesaurus labels (English 2021 release; Spanish 2023–24 release), © European Union, Publications Office of the European Union, http://publications.europa.eu/resource/dataset/eurovoc. Reused under the European Commission’s reuse policy (Decision 2011/833/EU; CC BY 4.0). Changes: labels extracted into one row per concept and language; whitespace normalised; opposites left out; only concepts found in the corpus.',
    built_from: Object.fromEntries(
      INPUTS.map((f) => [
        f,
        `sha256:${createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex')}`,
      ]),
    ),
    counts: { concepts_in_eurovoc: concepts.length, concepts_kept: kept.length, opposites_dropped: dropped.length },
    concepts: kept,
  };
}

/**
 * `funding vocabulary`: rebuilds the search's EuroVoc vocabulary from the corpus (db/funding/vocabulary-build.ts).
 * `funding optimize-index`: merges the funding full-text index into one segment, after a bulk load or
 * a backfill (db/funding/search-index.ts says why searches need it and how it merges). Takes about a
 * minute of one core per million calls, in short write transactions.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optimizeSearchIndex, type IndexOptimization } from '../db/funding/search-index.ts';
import { buildVocabularyFile, EUROVOC_DIR, vocabularyText } from '../db/funding/vocabulary-build.ts';
import type { Command } from './command.ts';

export const fundingIndexCommands: Command[] = [
  {
    words: ['funding', 'optimize-index'],
    summary: 'Merge the funding full-text index into one segment (after a bulk load or backfill: faster searches)',
    usage: 'funding optimize-index',
    options: {},
    run(ctx) {
      return { ...optimizeSearchIndex(ctx.openDb()) };
    },
    text(result) {
      const r = result as unknown as IndexOptimization;
      return `full-text index: ${r.segmentsBefore} → ${r.segmentsAfter} segments, in ${(r.ms / 1000).toFixed(1)} s`;
    },
  },
  {
    words: ['funding', 'vocabulary'],
    summary:
      'Build the EuroVoc vocabulary searches expand with from the shipped EuroVoc files and this database’s corpus (docs/decisions.md, issue 34)',
    usage: 'funding vocabulary [--out data/funding/eurovoc/vocabulary.json]',
    options: { out: { type: 'string' } },
    run(ctx, values) {
      const out = typeof values.out === 'string' ? values.out : join(EUROVOC_DIR, 'vocabulary.json');
      const file = buildVocabularyFile(ctx.openDb());
      writeFileSync(out, vocabularyText(file));
      return { out, ...file.counts };
    },
    text(result) {
      return `${String(result.concepts_kept)} of ${String(result.concepts_in_eurovoc)} EuroVoc concepts occur in the corpus; written to ${String(result.out)}`;
    },
  },
];

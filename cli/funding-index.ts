/**
 * `funding optimize-index`: merges the funding full-text index into one segment, after a bulk load or
 * a backfill (db/funding/search-index.ts says why searches need it and how it merges). Takes about a
 * minute of one core per million calls, in short write transactions.
 */
import { optimizeSearchIndex, type IndexOptimization } from '../db/funding/search-index.ts';
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
];

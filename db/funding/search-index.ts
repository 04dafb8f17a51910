/**
 * The full-text index merged into one segment (FTS5 'optimize').
 *
 * FTS5 writes an index in segments and merges them as it goes (automerge), leaving a bulk-loaded
 * million calls in about two dozen. Every term of a query is then looked up and merged in every
 * segment, and a search that asks the index about one row (the walk of a sorted search, ./search.ts)
 * pays that on each row it walks: on the benchmark corpus such a seek took 0.2–1 ms with 24 segments
 * and 0.01–0.05 ms with one (BENCHMARKS.md, "Issue 13: the mix's tail"). Run after a bulk load or a
 * backfill (`funding optimize-index`); the regular sync's small imports leave few new segments.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

export interface IndexOptimization {
  segmentsBefore: number;
  segmentsAfter: number;
  ms: number;
}

const statements = statementsFor((db) => ({
  segments: db.prepare('SELECT count(DISTINCT segid) FROM funding_calls_fts_idx').pluck(),
}));

const segments = (db: Db) => statements(db).segments.get() as number;

export function optimizeSearchIndex(db: Db): IndexOptimization {
  const segmentsBefore = segments(db);
  const started = process.hrtime.bigint();
  if (segmentsBefore > 1) db.exec("INSERT INTO funding_calls_fts(funding_calls_fts) VALUES('optimize')");
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { segmentsBefore, segmentsAfter: segments(db), ms };
}

/**
 * The full-text index merged into one segment.
 *
 * FTS5 writes an index in segments and merges them as it goes (automerge), leaving a bulk-loaded
 * million calls in about two dozen. Every term of a query is then looked up and merged in every
 * segment, and a search that asks the index about one row (the walk of a sorted search, ./search.ts)
 * pays that on each row it walks: on the benchmark corpus such a seek took 0.2–1 ms with 24 segments
 * and 0.01–0.05 ms with one (BENCHMARKS.md, "Issue 13: the mix's tail"). `funding optimize-index`
 * merges whatever there is; `funding import` and the sync call `compactSearchIndex`, which merges once
 * imports have left more than MAX_SEGMENTS segments, so a corpus kept by syncs stays fast unattended.
 *
 * Both merge in steps of MERGE_STEP_PAGES pages, each its own write transaction, so another writer
 * (an order, a key) waits for one step, not for the whole merge. On 150,000 calls (11 segments) the
 * steps took 3.7 s against 4.5 s for FTS5's one-transaction 'optimize'.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

export interface IndexOptimization {
  segmentsBefore: number;
  segmentsAfter: number;
  ms: number;
  steps: number;
}

/** More segments than this after an import, and `compactSearchIndex` merges them. */
export const MAX_SEGMENTS = 8;
/** Pages one merge step writes (of about 4 KB): tens of milliseconds of one write transaction. */
const MERGE_STEP_PAGES = 1000;

const statements = statementsFor((db) => ({
  segments: db.prepare('SELECT count(DISTINCT segid) FROM funding_calls_fts_idx').pluck(),
  // A negative page count merges every segment, whatever its level (FTS5 'merge' command).
  merge: db.prepare("INSERT INTO funding_calls_fts(funding_calls_fts, rank) VALUES('merge', ?)"),
  totalChanges: db.prepare('SELECT total_changes()').pluck(),
}));

const segments = (db: Db) => statements(db).segments.get() as number;

/**
 * Merges the index into one segment when it has more than `maxSegments`; null when it has no more.
 * FTS5 says a step did no work when it changed fewer than two rows (total_changes): the index is then
 * one segment.
 */
export function compactSearchIndex(
  db: Db,
  maxSegments = MAX_SEGMENTS,
  stepPages = MERGE_STEP_PAGES,
): IndexOptimization | null {
  const segmentsBefore = segments(db);
  if (segmentsBefore <= maxSegments) return null;
  const { merge, totalChanges } = statements(db);
  const started = process.hrtime.bigint();
  let steps = 0;
  for (;;) {
    const before = totalChanges.get() as number;
    merge.run(-stepPages);
    steps++;
    if ((totalChanges.get() as number) - before < 2) break;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { segmentsBefore, segmentsAfter: segments(db), ms, steps };
}

/** `funding optimize-index`: the index merged into one segment, whatever its count. */
export function optimizeSearchIndex(db: Db): IndexOptimization {
  const n = segments(db);
  return compactSearchIndex(db, 1) ?? { segmentsBefore: n, segmentsAfter: n, ms: 0, steps: 0 };
}

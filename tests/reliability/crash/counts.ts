/**
 * "Daily counts are not reset", made precise for a SIGKILL. The server counts in memory and writes
 * the counts behind about once a second (db/write-behind.ts; docs/decisions.md accepts losing the
 * last second's counts in a hard crash). So after the restart each bucket's persisted count must be
 *  - at least what was persisted before the kill (nothing goes back), and
 *  - at least every count acknowledged early enough that a write-behind must have committed it.
 *
 * "Early enough": the write-behind needs SQLite's write lock. While another process holds it (the
 * `funding import` running beside the server writes its whole file in one transaction), the server
 * waits for the lock (busy_timeout) and cannot commit, so counts acknowledged then can be lost however
 * old they are when the kill comes. A count acknowledged at `a` is therefore due once a stretch of
 * `lagMs` with no import alive has passed between `a` and the kill.
 */
import type { CountAck } from './load.ts';

export interface Interval {
  from: number;
  to: number;
}

export interface CountCheck {
  violations: string[];
  /** Age at the kill of the oldest acknowledged count that was lost (0 when none was). */
  lagMs: number;
}

/** True when [from, to] holds a stretch of `lagMs` outside every interval of `busy`. */
export function hasFreeStretch(from: number, to: number, busy: Interval[], lagMs: number): boolean {
  let cursor = from;
  for (const b of [...busy].sort((x, y) => x.from - y.from)) {
    if (b.to <= cursor) continue;
    if (b.from >= to) break;
    if (b.from - cursor >= lagMs) return true;
    cursor = Math.max(cursor, b.to);
  }
  return to - cursor >= lagMs;
}

export function checkCounts(input: {
  bucket: string;
  acked: CountAck[];
  persistedBefore: number;
  persistedAfter: number;
  killedAt: number;
  otherWriters: Interval[];
  lagMs: number;
}): CountCheck {
  const { bucket, acked, persistedBefore, persistedAfter, killedAt, otherWriters, lagMs } = input;
  const violations: string[] = [];
  if (persistedAfter < persistedBefore)
    violations.push(
      `${bucket} was persisted at ${persistedBefore} before the kill, ${persistedAfter} after: the count went back`,
    );
  const due = acked.filter((c) => hasFreeStretch(c.at, killedAt, otherWriters, lagMs));
  const dueCount = Math.max(0, ...due.map((c) => c.count));
  if (persistedAfter < dueCount) {
    const oldest = due.find((c) => c.count > persistedAfter)!;
    violations.push(
      `${bucket} persisted ${persistedAfter} after the restart, but ${dueCount} had been acknowledged (count ${oldest.count} ${killedAt - oldest.at} ms before the kill)`,
    );
  }
  const lost = acked.filter((c) => c.count > persistedAfter);
  return { violations, lagMs: lost.length ? killedAt - Math.min(...lost.map((c) => c.at)) : 0 };
}

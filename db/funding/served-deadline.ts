/**
 * Moves the served deadline on when a cut-off passes. A call with several cut-offs serves the next one
 * still open (lib/funding/status.ts currentCutoff); the importer stores it in deadline/deadline_time, and
 * the triggers keep served_closes_at, the key sort=deadline and the deadline filters read, in step with
 * them. When that cut-off closes, the stored one is stale: this rewrites it, before a search reads.
 *
 * The check is one lookup in a partial index over the calls that serve a cut-off other than their last
 * (few), so searches run it every time.
 */
import type { Db } from '../connection.ts';
import { currentCutoff } from '../../lib/funding/status.ts';
import type { Cutoff } from '../../lib/funding/records.ts';
import { closesAt } from '../../lib/funding/zoned-time.ts';
import { statementsFor } from '../statements.ts';

const statements = statementsFor((db) => ({
  stale: db.prepare(`SELECT seq, cutoffs, time_zone FROM funding_calls
    WHERE served_closes_at < closes_at AND served_closes_at <= ?`),
  anyStale: db
    .prepare('SELECT 1 FROM funding_calls WHERE served_closes_at < closes_at AND served_closes_at <= ? LIMIT 1')
    .pluck(),
  update: db.prepare('UPDATE funding_calls SET deadline = ?, deadline_time = ? WHERE seq = ?'),
}));

export function servedDeadlines(db: Db) {
  const { stale, anyStale, update } = statements(db);
  const refresh = db.transaction((now: number) => {
    let moved = 0;
    for (const row of stale.all(now) as Array<{ seq: number; cutoffs: string; time_zone: string }>) {
      const next = currentCutoff(JSON.parse(row.cutoffs) as Cutoff[], now, (c) => closesAt(c, row.time_zone));
      if (next) moved += update.run(next.date, next.time, row.seq).changes;
    }
    return moved;
  });

  /** Brings every served deadline up to `now`; returns how many calls moved on (usually 0, at once). */
  return (now: number): number => (anyStale.get(now) === undefined ? 0 : refresh.immediate(now));
}

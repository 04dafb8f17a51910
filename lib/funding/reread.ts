/**
 * When the sync reads an open or forthcoming BDNS call's detail again. A BDNS list entry carries no
 * application dates, so an extended deadline changes only the detail, and the list-driven sync
 * (db/funding/sync/bdns.ts) never sees it. The details of calls that may still change are re-read on
 * this schedule, sooner as the deadline nears:
 *
 *   interval = clamp(time left before the deadline / 2, 6 hours, 7 days)
 *
 * 20 days left: weekly; 6 days: every 3 days; 2 days: daily; under 12 hours: every 6 hours. Once the
 * deadline has passed, the call is read once more within AFTER_CLOSE_MS (an extension published in its
 * last hours shows then, and the call reads open again). A call with no deadline the service knows
 * (undated, or a period it could not compute) is re-read every two weeks while it reads open (90 days
 * after publication, lib/funding/status.ts), since it may gain dates. The most urgent come first.
 *
 * What it costs, and what it catches, is worked out in docs/operations.md ("What a sync re-reads");
 * tests/lib/funding/reread.test.ts replays a call's whole window against a sync every 6 hours.
 */

const HOUR = 3_600_000;
export const REREAD = {
  minMs: 6 * HOUR,
  maxMs: 7 * 24 * HOUR,
  fraction: 1 / 2,
  undatedMs: 14 * 24 * HOUR,
  afterCloseMs: 2 * 24 * HOUR,
} as const;

export interface RereadCandidate {
  /** UTC ms the last cut-off closes; null when no deadline is known. */
  closes_at: number | null;
  /** UTC ms the sync last read the detail; null when it never did (an imported file, say). */
  read_at: number | null;
}

/** How long the detail may go unread at `now`; null: not re-read any more (closed for good). */
export function rereadInterval(c: RereadCandidate, now: number): number | null {
  if (c.closes_at === null) return REREAD.undatedMs;
  const left = c.closes_at - now;
  if (left > 0) return Math.min(REREAD.maxMs, Math.max(REREAD.minMs, left * REREAD.fraction));
  // Closed: one read after the close, within the grace period, if none was made since.
  if (-left <= REREAD.afterCloseMs && (c.read_at === null || c.read_at < c.closes_at)) return 0;
  return null;
}

/** Whether the detail is due for a read at `now`. */
export function rereadDue(c: RereadCandidate, now: number): boolean {
  const interval = rereadInterval(c, now);
  if (interval === null) return false;
  return c.read_at === null || now - c.read_at >= interval;
}

/** Most urgent first: the nearest deadline (a passed one first of all), then calls without one. */
export function byUrgency(a: RereadCandidate, b: RereadCandidate): number {
  const ka = a.closes_at ?? Number.MAX_SAFE_INTEGER;
  const kb = b.closes_at ?? Number.MAX_SAFE_INTEGER;
  return ka - kb;
}

/**
 * The per-minute limits as GCRA (the generic cell rate algorithm, RFC-less but standard since ATM
 * networks; the same as a leaky bucket "as a meter"). Pure: time comes in as a parameter.
 *
 * A limit of L per window W lets a client send L at once, then one more every W / L: the allowance
 * refills continuously instead of all at once when a UTC minute rolls. So a refused client waits for
 * one slot, `W / L` (half a second for 120 a minute), not until the minute ends (`Retry-After: 59`
 * from a fixed window), and no burst of 2 L straddling a minute boundary gets through.
 *
 * The whole state of a bucket is one number, its theoretical arrival time (TAT): the moment the
 * bucket would be full again. That makes it cheap to keep in memory, in SQLite or in Redis with an
 * atomic script (db/counters/redis.ts runs this same arithmetic in Lua, on the same integers).
 *
 * Integers throughout: time in microseconds, the interval rounded down to a whole microsecond, so
 * every store (a JS number, a SQLite INTEGER, a Lua double) computes exactly the same answers and a
 * burst of L never loses its last request to rounding. The rounding lets at most L in every W plus
 * less than a microsecond per request: unmeasurable.
 */

export interface GcraResult {
  allowed: boolean;
  /** The TAT to store, in µs since the epoch (at or before now the bucket is full; unchanged when refused: a refused request spends nothing). */
  tatUs: number;
  /** Requests that would be allowed right now after this one, at once. */
  remaining: number;
  /** Whole seconds (rounded up) until the allowance is whole again: X-RateLimit-Reset. */
  resetSeconds: number;
  /** When refused, whole seconds (rounded up, at least 1) until one request is allowed: Retry-After. */
  retryAfterSeconds: number;
}

export const intervalUs = (limit: number, windowMs: number): number =>
  Math.max(1, Math.floor((windowMs * 1000) / limit));

/**
 * A TAT more than a window ahead of now cannot happen while time moves forward: the clock went back.
 * By less than a window (an NTP step), the bucket counts as empty: one slot away, never a long wait.
 * By more (the clock corrected by hours, a test's clock set back), the bucket's history belongs to
 * another time and it starts afresh, as a new fixed window would.
 */
export function sane(tatUs: number, nowUs: number, windowUs: number): number {
  if (tatUs - nowUs <= windowUs) return tatUs;
  return tatUs - nowUs <= 2 * windowUs ? nowUs + windowUs : 0;
}

/** One request against a bucket whose stored TAT is `tatUs` (0 for a bucket never seen). */
export function gcra(tatUs: number, nowMs: number, limit: number, windowMs: number): GcraResult {
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a finite number of milliseconds');
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('a limit is a whole number of at least 1');
  const now = Math.floor(nowMs * 1000);
  const window = windowMs * 1000;
  const interval = intervalUs(limit, windowMs);
  const base = Math.max(sane(tatUs, now, window), now);
  const next = base + interval;
  const allowed = next - now <= window;
  const tat = allowed ? next : base;
  return {
    allowed,
    tatUs: tat,
    remaining: Math.max(0, Math.floor((window - (tat - now)) / interval)),
    resetSeconds: Math.ceil((tat - now) / 1_000_000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((next - window - now) / 1_000_000)),
  };
}

/** The state of a bucket without spending from it (a request refused by another limit). */
export function gcraPeek(
  tatUs: number,
  nowMs: number,
  limit: number,
  windowMs: number,
): { remaining: number; resetSeconds: number } {
  const now = Math.floor(nowMs * 1000);
  const owed = Math.max(0, sane(tatUs, now, windowMs * 1000) - now);
  return {
    remaining: Math.max(0, Math.floor((windowMs * 1000 - owed) / intervalUs(limit, windowMs))),
    resetSeconds: Math.ceil(owed / 1_000_000),
  };
}

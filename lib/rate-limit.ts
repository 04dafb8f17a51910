/**
 * Counting requests against per-minute and per-day limits, per bucket (a key, an account or a client
 * address, namespaced by service).
 *
 * Per-minute limits are GCRA (lib/gcra.ts): L a minute means a burst of L, then one every 60 s / L,
 * so a refused client is told to wait for one slot (a second or so), not for the end of a UTC minute.
 * Their state (one number per bucket) lives in memory only (SPEC allows it).
 *
 * Per-day quotas stay fixed UTC days (SPEC "Rate limits and quotas"). Day counts live in memory too,
 * loaded once per bucket and day from the store and written behind by db/write-behind.ts, so no
 * request waits on a disk write and a restart keeps the day's count.
 *
 * A refused request does not consume allowance: a client that waits Retry-After always gets in.
 *
 * `Limiter` is what the routes use: this class answers at once; the cluster primary (over IPC) and
 * Redis (several machines) answer with a promise (db/counters/ipc.ts, db/counters/redis.ts).
 */
import { gcra, gcraPeek, intervalUs } from './gcra.ts';
import { utcDay } from './quota-window.ts';

export interface Limits {
  perMinute: number | null;
  perDay: number | null;
}

export interface WindowState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface Decision {
  allowed: boolean;
  /** Which limit refused the request: 'day' wins, since waiting a minute would not help. */
  refusedBy: 'minute' | 'day' | null;
  /** When refused: whole seconds until a retry is allowed (the Retry-After header); 0 when allowed. */
  retryAfterSeconds: number;
  minute: WindowState | null;
  day: WindowState | null;
}

export interface DayCount {
  bucket: string;
  day: string;
  count: number;
}

export interface Limiter {
  take(bucket: string, limits: Limits, now: number): Decision | Promise<Decision>;
  /**
   * Gives back one request taken from the bucket at `now`: a request refused unserved after it was
   * counted (a 503) costs the client nothing (issue 28). The minute's TAT moves back one interval (the
   * exact inverse of the take, whatever came between), the day's count down by one.
   */
  refund(bucket: string, limits: Limits, now: number): void | Promise<void>;
}

export const MINUTE_MS = 60_000;

/**
 * The decision for one request given a bucket's stored minute TAT and day count; pure, shared by
 * every store that keeps the state (memory here, the cluster primary, the Redis script's mirror in
 * tests). Returns what to store back: `tatUs` and `dayCount` (unchanged when refused).
 */
export function decide(
  limits: Limits,
  tatUs: number,
  dayCount: number,
  now: number,
): Decision & { tatUs: number; dayCount: number } {
  const dayWindow = limits.perDay === null ? null : utcDay(now);
  const dayFull = limits.perDay !== null && dayCount >= limits.perDay;
  const minute = limits.perMinute === null ? null : gcra(tatUs, now, limits.perMinute, MINUTE_MS);
  const minuteFull = minute !== null && !minute.allowed;
  const allowed = !dayFull && !minuteFull;
  // Refused by the day, the minute spends nothing: its headers show it as it stands.
  const shown =
    minute === null ? null : dayFull && minute.allowed ? gcraPeek(tatUs, now, limits.perMinute!, MINUTE_MS) : minute;
  const count = allowed && limits.perDay !== null ? dayCount + 1 : dayCount;
  return {
    allowed,
    refusedBy: dayFull ? 'day' : minuteFull ? 'minute' : null,
    retryAfterSeconds: dayFull ? dayWindow!.resetSeconds : minuteFull ? minute.retryAfterSeconds : 0,
    minute:
      shown === null
        ? null
        : { limit: limits.perMinute!, remaining: shown.remaining, resetSeconds: shown.resetSeconds },
    day:
      dayWindow === null
        ? null
        : {
            limit: limits.perDay!,
            remaining: Math.max(0, limits.perDay! - count),
            resetSeconds: dayWindow.resetSeconds,
          },
    tatUs: allowed && minute !== null ? minute.tatUs : tatUs,
    dayCount: count,
  };
}

export class RateLimiter implements Limiter {
  /** Per-minute GCRA state: the bucket's TAT in µs. */
  private readonly minutes = new Map<string, number>();
  private readonly days = new Map<string, { day: string; count: number }>();
  private readonly dirty = new Set<string>();

  /** `loadDay` reads a persisted count; it is called once per bucket per day. */
  constructor(private readonly loadDay: (bucket: string, day: string) => number) {}

  take(bucket: string, limits: Limits, now: number): Decision {
    let day = this.days.get(bucket);
    if (limits.perDay !== null) {
      const dayKey = utcDay(now).key;
      if (!day || day.day !== dayKey) {
        day = { day: dayKey, count: this.loadDay(bucket, dayKey) };
        this.days.set(bucket, day);
      }
    }
    const { tatUs, dayCount, ...decision } = decide(limits, this.minutes.get(bucket) ?? 0, day?.count ?? 0, now);
    if (decision.allowed) {
      if (limits.perMinute !== null) this.minutes.set(bucket, tatUs);
      if (limits.perDay !== null) {
        day!.count = dayCount;
        this.dirty.add(bucket);
      }
    }
    return decision;
  }

  refund(bucket: string, limits: Limits, now: number): void {
    const tat = this.minutes.get(bucket);
    if (limits.perMinute !== null && tat !== undefined)
      this.minutes.set(bucket, tat - intervalUs(limits.perMinute, MINUTE_MS));
    const day = this.days.get(bucket);
    if (limits.perDay !== null && day && day.day === utcDay(now).key && day.count > 0) {
      day.count--;
      // Written behind like a take; the stored count only ever rises (db/write-behind.ts), so a count
      // given back after its day was written stays in memory: a restart the same day reads the higher one.
      this.dirty.add(bucket);
    }
  }

  /** Day counts changed since the last call, for the write-behind. */
  takeDirty(): DayCount[] {
    const out: DayCount[] = [];
    for (const bucket of this.dirty) {
      const day = this.days.get(bucket);
      if (day) out.push({ bucket, day: day.day, count: day.count });
    }
    this.dirty.clear();
    return out;
  }

  /** Forgets full buckets and rolled days, so memory stays bounded by recent clients. */
  prune(now: number): void {
    const nowUs = now * 1000;
    const dayKey = utcDay(now).key;
    for (const [bucket, tat] of this.minutes) if (tat <= nowUs) this.minutes.delete(bucket); // full again: same as never seen
    for (const [bucket, d] of this.days) if (d.day !== dayKey && !this.dirty.has(bucket)) this.days.delete(bucket);
  }
}

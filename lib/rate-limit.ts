/**
 * Counting requests against per-minute and per-day limits, per bucket (a key, an account or a client
 * address, namespaced by service). Minute windows live in memory only (SPEC allows it). Day counts
 * live in memory too, loaded once per bucket and day from the store and written behind by
 * db/write-behind.ts, so no request waits on a disk write and a restart keeps the day's count.
 *
 * A refused request does not consume allowance: a client that waits Retry-After always gets in.
 */
import { utcDay, utcMinute } from './quota-window.ts';

export interface Limits { perMinute: number | null; perDay: number | null }

export interface WindowState { limit: number; remaining: number; resetSeconds: number }

export interface Decision {
  allowed: boolean;
  /** Which limit refused the request: 'day' wins, since waiting a minute would not help. */
  refusedBy: 'minute' | 'day' | null;
  minute: WindowState | null;
  day: WindowState | null;
}

export interface DayCount { bucket: string; day: string; count: number }

export class RateLimiter {
  private readonly minutes = new Map<string, { window: string; count: number }>();
  private readonly days = new Map<string, { day: string; count: number }>();
  private readonly dirty = new Set<string>();

  /** `loadDay` reads a persisted count; it is called once per bucket per day. */
  constructor(private readonly loadDay: (bucket: string, day: string) => number) {}

  take(bucket: string, limits: Limits, now: number): Decision {
    const minuteWindow = utcMinute(now);
    const dayWindow = utcDay(now);

    let minute = this.minutes.get(bucket);
    if (!minute || minute.window !== minuteWindow.key) {
      minute = { window: minuteWindow.key, count: 0 };
      this.minutes.set(bucket, minute);
    }
    let day = this.days.get(bucket);
    if (limits.perDay !== null && (!day || day.day !== dayWindow.key)) {
      day = { day: dayWindow.key, count: this.loadDay(bucket, dayWindow.key) };
      this.days.set(bucket, day);
    }

    const dayFull = limits.perDay !== null && day!.count >= limits.perDay;
    const minuteFull = limits.perMinute !== null && minute.count >= limits.perMinute;
    const allowed = !dayFull && !minuteFull;
    if (allowed) {
      minute.count++;
      if (limits.perDay !== null) {
        day!.count++;
        this.dirty.add(bucket);
      }
    }
    return {
      allowed,
      refusedBy: dayFull ? 'day' : minuteFull ? 'minute' : null,
      minute: limits.perMinute === null ? null : {
        limit: limits.perMinute,
        remaining: Math.max(0, limits.perMinute - minute.count),
        resetSeconds: minuteWindow.resetSeconds,
      },
      day: limits.perDay === null ? null : {
        limit: limits.perDay,
        remaining: Math.max(0, limits.perDay - day!.count),
        resetSeconds: dayWindow.resetSeconds,
      },
    };
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

  /** Forgets windows that have rolled, so memory stays bounded by recent clients. */
  prune(now: number): void {
    const minuteKey = utcMinute(now).key;
    const dayKey = utcDay(now).key;
    for (const [bucket, m] of this.minutes) if (m.window !== minuteKey) this.minutes.delete(bucket);
    for (const [bucket, d] of this.days) if (d.day !== dayKey && !this.dirty.has(bucket)) this.days.delete(bucket);
  }
}

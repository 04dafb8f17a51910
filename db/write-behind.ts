/**
 * Writes that must survive a restart but must not slow a request: daily quota counts and keys'
 * last-used times. Requests only touch memory; this flushes both in one transaction about once a
 * second, and once more at shutdown. A hard crash can lose at most the last interval's counts
 * (docs/decisions.md), never a key, an order or anything a response acknowledged.
 */
import type { Db } from './connection.ts';
import type { DayCount, RateLimiter } from '../lib/rate-limit.ts';
import { statementsFor } from './statements.ts';

const statements = statementsFor((db) => ({
  load: db.prepare('SELECT count FROM quota_daily WHERE bucket = ? AND day = ?').pluck(),
  saveCount: db.prepare(`INSERT INTO quota_daily (bucket, day, count) VALUES (?, ?, ?)
      ON CONFLICT (bucket, day) DO UPDATE SET count = max(count, excluded.count)`),
  saveUse: db.prepare(
    'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
  ),
}));

/**
 * For RateLimiter: the persisted count of a bucket's day (0 when none). Apart from WriteBehind so that
 * the limiter (which reads counts) is built first and WriteBehind (which flushes them) takes it.
 */
export function persistedDayCount(db: Db): (bucket: string, day: string) => number {
  const load = statements(db).load;
  return (bucket, day) => (load.get(bucket, day) as number | undefined) ?? 0;
}

export class WriteBehind {
  private readonly keyUses = new Map<number, number>();
  /** Counts taken from the limiter and not yet committed (a failed flush keeps them for the next). */
  private readonly pendingCounts = new Map<string, DayCount>();
  private timer: NodeJS.Timeout | undefined;
  private readonly saveCount;
  private readonly saveUse;

  constructor(
    private readonly db: Db,
    /** The in-process limiter whose day counts to write (none when they live in Redis). */
    private readonly limiter: RateLimiter | null,
    private readonly clock: () => number,
    /** Told when a timed flush fails (logged as a warning; the counts are retried). */
    private readonly onFlushError: (err: unknown) => void = () => {},
  ) {
    this.saveCount = statements(db).saveCount;
    this.saveUse = statements(db).saveUse;
  }

  noteKeyUse(keyId: number, now: number): void {
    this.keyUses.set(keyId, now);
  }

  /**
   * Writes the counts and key uses gathered since the last commit. If the transaction fails (another
   * process, such as a long `funding import`, holds the write lock past busy_timeout), it throws and
   * nothing is lost: what was gathered stays queued for the next flush.
   */
  flush(): void {
    if (!this.db.open) return; // closed under us (tests of /readyz): nothing can be written
    for (const c of this.limiter?.takeDirty() ?? []) this.pendingCounts.set(`${c.bucket}\u0000${c.day}`, c); // the latest count is the highest
    if (this.pendingCounts.size === 0 && this.keyUses.size === 0) return;
    const counts = [...this.pendingCounts.values()];
    const uses = [...this.keyUses];
    this.db
      .transaction(() => {
        for (const c of counts) this.saveCount.run(c.bucket, c.day, c.count);
        for (const [id, at] of uses) this.saveUse.run(at, id, at);
      })
      .immediate();
    // Synchronous since the copies were taken: nothing was added in between.
    this.pendingCounts.clear();
    this.keyUses.clear();
    this.limiter?.prune(this.clock());
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => {
      // A throw here would be an uncaught exception and end the process (SQLITE_BUSY did, under a
      // long import): the next tick tries again with everything still queued.
      try {
        this.flush();
      } catch (err) {
        this.onFlushError(err); // retried at the next tick
      }
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/**
 * Writes that must survive a restart but must not slow a request: daily quota counts and keys'
 * last-used times. Requests only touch memory; this flushes both in one transaction about once a
 * second, and once more at shutdown. A hard crash can lose at most the last interval's counts
 * (docs/decisions.md), never a key, an order or anything a response acknowledged.
 */
import type { Db } from './connection.ts';
import type { RateLimiter } from '../lib/rate-limit.ts';

export class WriteBehind {
  private readonly keyUses = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly saveCount;
  private readonly saveUse;
  private readonly loadCount;

  constructor(private readonly db: Db, private readonly limiter: () => RateLimiter, private readonly clock: () => number) {
    this.saveCount = db.prepare(`INSERT INTO quota_daily (bucket, day, count) VALUES (?, ?, ?)
      ON CONFLICT (bucket, day) DO UPDATE SET count = max(count, excluded.count)`);
    this.saveUse = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)');
    this.loadCount = db.prepare('SELECT count FROM quota_daily WHERE bucket = ? AND day = ?').pluck();
  }

  /** For RateLimiter: the persisted count of a bucket's day (0 when none). */
  readonly loadDay = (bucket: string, day: string): number => (this.loadCount.get(bucket, day) as number | undefined) ?? 0;

  noteKeyUse(keyId: number, now: number): void {
    this.keyUses.set(keyId, now);
  }

  flush(): void {
    if (!this.db.open) return; // closed under us (tests of /readyz): nothing can be written
    const counts = this.limiter().takeDirty();
    const uses = [...this.keyUses];
    this.keyUses.clear();
    if (counts.length === 0 && uses.length === 0) return;
    this.db.transaction(() => {
      for (const c of counts) this.saveCount.run(c.bucket, c.day, c.count);
      for (const [id, at] of uses) this.saveUse.run(at, id, at);
    }).immediate();
    this.limiter().prune(this.clock());
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

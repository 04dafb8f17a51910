/**
 * The shared counters in Redis (REDIS_URL), for several trio processes or machines: per-minute
 * limits (GCRA) and per-day quotas (UTC days), each request one atomic Lua script, so the limits are
 * exact however many processes take from a bucket at once.
 *
 * The script runs the same integer arithmetic as lib/gcra.ts and the day count of lib/rate-limit.ts,
 * decides, stores, and returns the bucket's state *before* the request; the reply's headers are then
 * computed here by `decide()` from that state, so Redis and the in-process limiter answer the same
 * numbers for the same history (tests/scaling/redis.test.ts checks it).
 *
 * Unreachable Redis is never "unlimited": no offline queue, one short timeout, and the request is
 * refused with 503 (LimiterUnavailableError → limiterUnavailable()).
 *
 * Keys: `trio:m:<bucket>` holds a minute TAT (µs; expires once the bucket is full again),
 * `trio:d:<bucket>:<YYYY-MM-DD>` a day's count (expires a day after its day ends).
 */
import { Redis } from 'ioredis';
import { decide, MINUTE_MS, type Decision, type Limiter, type Limits } from '../../lib/rate-limit.ts';
import { utcDay } from '../../lib/quota-window.ts';
import { LimiterUnavailableError } from '../../lib/http/limiter-unavailable.ts';

// KEYS[1] minute key, KEYS[2] day key. ARGV: now (ms), per minute (0: none), per day (0: none),
// minute window (ms), day key lifetime (s: a day after its day ends, by the caller's clock, so a
// skew between this clock and Redis's changes nothing). Returns { TAT before (string, µs), day count before }.
const TAKE = `
local nowMs = tonumber(ARGV[1])
local perMinute = tonumber(ARGV[2])
local perDay = tonumber(ARGV[3])
local windowMs = tonumber(ARGV[4])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')
local allowed = true
if perDay > 0 and day >= perDay then allowed = false end
local now = math.floor(nowMs * 1000)
local nextTat = tat
if perMinute > 0 then
  local window = windowMs * 1000
  -- the clock went back (lib/gcra.ts sane()): by less than a window, empty; by more, afresh
  if tat - now > 2 * window then tat = 0 elseif tat - now > window then tat = now + window end
  local interval = math.max(1, math.floor(window / perMinute))
  nextTat = math.max(tat, now) + interval
  if nextTat - now > window then allowed = false end
end
if allowed then
  if perMinute > 0 then
    redis.call('SET', KEYS[1], string.format('%.0f', nextTat), 'PX', math.floor((nextTat - now) / 1000) + 1000)
  end
  if perDay > 0 then
    redis.call('INCR', KEYS[2])
    redis.call('EXPIRE', KEYS[2], ARGV[5])
  end
end
return { string.format('%.0f', tat), day }
`;

type TakeCommand = (
  minuteKey: string,
  dayKey: string,
  now: number,
  perMinute: number,
  perDay: number,
  windowMs: number,
  expireAt: number,
) => Promise<[string, number]>;

export class RedisLimiter implements Limiter {
  readonly redis: Redis & { trioTake: TakeCommand };

  constructor(
    url: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    const redis = new Redis(url, {
      enableOfflineQueue: false, // a command while disconnected fails at once instead of waiting
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      connectTimeout: 2000,
      lazyConnect: false,
      // Keep reconnecting in the background (at most every 2 s): requests are 503 meanwhile.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    redis.on('error', (err) => this.onError(err));
    redis.defineCommand('trioTake', { numberOfKeys: 2, lua: TAKE });
    this.redis = redis as Redis & { trioTake: TakeCommand };
  }

  /** Resolves once connected (or rejects after `timeoutMs`): the server does not start without its counters. */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => (cleanup(), reject(new Error(`Redis at REDIS_URL did not answer within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const onReady = () => (cleanup(), resolve());
      const cleanup = () => (clearTimeout(timer), this.redis.off('ready', onReady));
      this.redis.on('ready', onReady);
    });
  }

  async take(bucket: string, limits: Limits, now: number): Promise<Decision> {
    const day = utcDay(now);
    let before: [string, number];
    try {
      before = await this.redis.trioTake(
        `trio:m:${bucket}`,
        `trio:d:${bucket}:${day.key}`,
        now,
        limits.perMinute ?? 0,
        limits.perDay ?? 0,
        MINUTE_MS,
        Math.ceil((day.endMs - now) / 1000) + 86_400,
      );
    } catch (err) {
      throw new LimiterUnavailableError(`Redis did not answer: ${(err as Error).message}`, { cause: err });
    }
    const { tatUs: _tat, dayCount: _count, ...decision } = decide(limits, Number(before[0]), Number(before[1]), now);
    return decision;
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

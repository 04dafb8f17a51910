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
 * Unreachable Redis is never "unlimited": no offline queue, and a request whose count has no answer
 * within ANSWER_TIMEOUT_MS is refused with 503 (LimiterUnavailableError → limiterUnavailable()).
 * Redis is then down (`health`, lib/http/dependency.ts): requests are refused at once without being
 * sent, and a PING is kept waiting until Redis answers again, which brings it back up (within the
 * probe's interval of Redis returning). A frozen Redis (SIGSTOP, a long fork, a network stall) still
 * holds the counts sent before it was found down, and runs them when it wakes: each such late count
 * that took from a bucket is given back at once (the refund script), so a request refused during the
 * outage never costs its client any of the next minute's or day's allowance (issue 28).
 *
 * Keys: `trio:m:<bucket>` holds a minute TAT (µs; expires once the bucket is full again),
 * `trio:d:<bucket>:<YYYY-MM-DD>` a day's count (expires a day after its day ends).
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { decide, MINUTE_MS, type Decision, type Limiter, type Limits } from '../../lib/rate-limit.ts';
import { intervalUs } from '../../lib/gcra.ts';
import { utcDay } from '../../lib/quota-window.ts';
import { LimiterUnavailableError } from '../../lib/http/limiter-unavailable.ts';
import { Dependency, describeError } from '../../lib/http/dependency.ts';
import { createLogger } from '../../lib/http/log.ts';

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

// The inverse of one allowed take (RateLimiter.refund's arithmetic). KEYS as TAKE's; ARGV: the minute
// interval (µs; 0: no minute limit), 1 if the bucket has a day limit. A key that expired meanwhile
// needs nothing: an expired TAT is a full bucket, an expired day is over.
const REFUND = `
local interval = tonumber(ARGV[1])
if interval > 0 then
  local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
  local ttl = redis.call('PTTL', KEYS[1])
  if tat > 0 and ttl > 0 then redis.call('SET', KEYS[1], string.format('%.0f', tat - interval), 'PX', ttl) end
end
if ARGV[2] == '1' and tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
return 1
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

type RefundCommand = (minuteKey: string, dayKey: string, intervalUs: number, perDay: 0 | 1) => Promise<number>;

/** How long a count may wait for its answer before its request is refused (and Redis marked down). */
const ANSWER_TIMEOUT_MS = 1000;

interface Waiting {
  at: number;
  reject: (err: unknown) => void;
  /** Its request was refused for want of an answer: a late answer that took is given back. */
  late: boolean;
}

export interface RedisLimiterOptions {
  log?: Logger;
  /** While Redis is down, how often a 'dependency still down' line is logged. */
  stillDownEveryMs?: number;
}

export class RedisLimiter implements Limiter {
  readonly redis: Redis & { trioTake: TakeCommand; trioRefund: RefundCommand };
  /** Up or down, as the counts found it: /readyz, /metrics and the outage log lines read it. */
  readonly health: Dependency;
  private readonly waiting = new Set<Waiting>();
  private readonly sweeper: NodeJS.Timeout;
  private lastError = 'not connected';

  constructor(url: string, options: RedisLimiterOptions = {}) {
    const redis = new Redis(url, {
      enableOfflineQueue: false, // a command while disconnected fails at once instead of waiting
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      lazyConnect: false,
      // Keep reconnecting in the background (at most every 2 s): requests are 503 meanwhile.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    redis.defineCommand('trioTake', { numberOfKeys: 2, lua: TAKE });
    redis.defineCommand('trioRefund', { numberOfKeys: 2, lua: REFUND });
    this.redis = redis as RedisLimiter['redis'];
    this.health = new Dependency({
      name: 'redis',
      effect:
        'every API request is refused with 503 (never served without its limit, never counted) until Redis answers again; check the Redis server at REDIS_URL',
      log: options.log ?? createLogger('silent'),
      // Answers when Redis does: a PING waits through a freeze, fails at once while disconnected.
      probe: () =>
        this.redis.ping().catch(() => {
          throw new Error(this.lastError);
        }),
      probeEveryMs: 250,
      ...(options.stillDownEveryMs ? { stillDownEveryMs: options.stillDownEveryMs } : {}),
    });
    redis.on('error', (err) => {
      this.lastError = describeError(err);
      this.health.fail(this.lastError);
    });
    redis.on('close', () => this.health.fail(`connection closed (${this.lastError})`));
    // A count with no answer in time: its request is refused, and Redis is down until it answers.
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const w of this.waiting) {
        if (now - w.at <= ANSWER_TIMEOUT_MS) continue;
        this.waiting.delete(w);
        w.late = true;
        this.health.fail(`no answer within ${ANSWER_TIMEOUT_MS} ms (Redis frozen, overloaded or cut off)`);
        w.reject(new LimiterUnavailableError('redis', `Redis did not answer within ${ANSWER_TIMEOUT_MS} ms`));
      }
    }, 100);
    this.sweeper.unref();
  }

  /** Resolves once connected (or rejects after `timeoutMs`): the server does not start without its counters. */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.redis.status !== 'ready') await this.connected(timeoutMs);
    this.health.recovered(); // failed attempts before the first connection are not an outage
  }

  private connected(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => (cleanup(), reject(new Error(`Redis at REDIS_URL did not answer within ${timeoutMs} ms`))),
        timeoutMs,
      );
      const onReady = () => (cleanup(), resolve());
      const cleanup = () => (clearTimeout(timer), this.redis.off('ready', onReady));
      this.redis.on('ready', onReady);
    });
  }

  take(bucket: string, limits: Limits, now: number): Promise<Decision> {
    if (!this.health.up)
      return Promise.reject(new LimiterUnavailableError('redis', `Redis is down: ${this.health.state().cause}`));
    const day = utcDay(now);
    const minuteKey = `trio:m:${bucket}`;
    const dayKey = `trio:d:${bucket}:${day.key}`;
    return new Promise((resolve, reject) => {
      const w: Waiting = { at: Date.now(), reject, late: false };
      this.waiting.add(w);
      this.redis
        .trioTake(
          minuteKey,
          dayKey,
          now,
          limits.perMinute ?? 0,
          limits.perDay ?? 0,
          MINUTE_MS,
          Math.ceil((day.endMs - now) / 1000) + 86_400,
        )
        .then(
          (before) => {
            const {
              tatUs: _tat,
              dayCount: _count,
              ...decision
            } = decide(limits, Number(before[0]), Number(before[1]), now);
            if (!w.late) {
              this.waiting.delete(w);
              resolve(decision);
            } else if (decision.allowed) this.giveBack(minuteKey, dayKey, limits); // ran after its request was refused
          },
          (err: unknown) => {
            if (w.late) return;
            this.waiting.delete(w);
            this.health.fail(describeError(err));
            reject(new LimiterUnavailableError('redis', `Redis did not answer: ${describeError(err)}`, { cause: err }));
          },
        );
    });
  }

  refund(bucket: string, limits: Limits, now: number): Promise<void> {
    return this.giveBack(`trio:m:${bucket}`, `trio:d:${bucket}:${utcDay(now).key}`, limits);
  }

  private async giveBack(minuteKey: string, dayKey: string, limits: Limits): Promise<void> {
    const interval = limits.perMinute === null ? 0 : intervalUs(limits.perMinute, MINUTE_MS);
    await this.redis.trioRefund(minuteKey, dayKey, interval, limits.perDay === null ? 0 : 1).catch(() => {
      // Redis went away again before the count came back: it stays taken (docs/operations.md).
    });
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.health.stop();
    // QUIT waits for an answer a frozen Redis never sends: give it a moment, then cut the connection.
    const quit = this.redis.quit().catch(() => undefined);
    const timer = new Promise((resolve) => setTimeout(resolve, 500).unref());
    await Promise.race([quit, timer]);
    this.redis.disconnect();
  }
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from '../../lib/rate-limit.ts';

const T = Date.parse('2026-11-22T23:59:00Z');

test('per-minute limit: the 61st call at once is refused and told to wait one slot (1 s), not the rest of the minute', () => {
  const limiter = new RateLimiter(() => 0);
  const limits = { perMinute: 60, perDay: null };
  for (let i = 0; i < 60; i++) assert.equal(limiter.take('ip:a', limits, T + i).allowed, true);
  const refused = limiter.take('ip:a', limits, T + 100);
  assert.equal(refused.allowed, false);
  assert.equal(refused.refusedBy, 'minute');
  assert.equal(refused.minute?.remaining, 0);
  assert.equal(refused.minute?.resetSeconds, 60, 'the allowance is whole again 60 s after the burst');
  assert.equal(refused.retryAfterSeconds, 1, 'one slot of 60 s / 60 frees in under a second');
  assert.equal(refused.day, null);
  assert.equal(limiter.take('ip:a', limits, T + 1000).allowed, true, 'after Retry-After, one more');
  assert.equal(limiter.take('ip:a', limits, T + 1000).allowed, false, 'and only one');
  assert.equal(limiter.take('ip:b', limits, T).allowed, true, 'another bucket is unaffected');
  assert.equal(limiter.take('ip:a', limits, T + 60_000).allowed, true, 'next minute');
});

test('per-day limit: counts persisted counts, refuses past the allowance, wins over the minute limit', () => {
  const limiter = new RateLimiter((bucket, day) => (bucket === 'key:1' && day === '2026-11-22' ? 998 : 0));
  const limits = { perMinute: 120, perDay: 1000 };
  const first = limiter.take('key:1', limits, T);
  assert.equal(first.allowed, true);
  assert.equal(first.day?.remaining, 1, 'this one counted');
  assert.equal(limiter.take('key:1', limits, T).allowed, true);
  const refused = limiter.take('key:1', limits, T);
  assert.equal(refused.refusedBy, 'day');
  assert.equal(refused.day?.resetSeconds, 60);
  assert.equal(refused.retryAfterSeconds, 60, 'a day refusal waits for 00:00 UTC');
  assert.equal(refused.minute?.remaining, 118, 'refused by the day: the minute spent nothing on it');
  // After midnight UTC the day is new.
  assert.equal(limiter.take('key:1', limits, T + 60_000).allowed, true);
});

test('refused calls consume nothing, and dirty counts are handed out once', () => {
  const limiter = new RateLimiter(() => 0);
  const limits = { perMinute: 1, perDay: 10 };
  limiter.take('k', limits, T);
  limiter.take('k', limits, T);
  assert.deepEqual(limiter.takeDirty(), [{ bucket: 'k', day: '2026-11-22', count: 1 }]);
  assert.deepEqual(limiter.takeDirty(), []);
});

test('prune forgets rolled windows only', () => {
  const loads: string[] = [];
  const limiter = new RateLimiter((bucket, day) => (loads.push(`${bucket}@${day}`), 0));
  const limits = { perMinute: 5, perDay: 5 };
  limiter.take('k', limits, T);
  limiter.takeDirty();
  limiter.prune(T + 120_000);
  limiter.take('k', limits, T + 120_000);
  assert.deepEqual(loads, ['k@2026-11-22', 'k@2026-11-23']);
});

test('a request refused by the minute does not spend the day, and the reverse', () => {
  const limiter = new RateLimiter(() => 0);
  const limits = { perMinute: 2, perDay: 3 };
  const answers = [0, 0, 0, 30_000, 30_000, 60_000].map((at) => limiter.take('k', limits, T - 120_000 + at));
  assert.deepEqual(
    answers.map((a) => a.refusedBy),
    [null, null, 'minute', null, 'day', 'day'],
  );
  assert.deepEqual(
    answers.map((a) => a.day?.remaining),
    [2, 1, 1, 0, 0, 0],
  );
  assert.deepEqual(limiter.takeDirty(), [{ bucket: 'k', day: '2026-11-22', count: 3 }]);
});

test('a refund gives back one take: what follows is what a history without that request answers', () => {
  const strip = (d: ReturnType<RateLimiter['take']>) => [d.allowed, d.minute?.remaining, d.day?.remaining];
  const cases: Array<{ name: string; limits: { perMinute: number | null; perDay: number | null }; at: number[] }> = [
    { name: 'minute burst', limits: { perMinute: 60, perDay: null }, at: Array.from({ length: 70 }, (_, i) => T + i) },
    {
      name: 'minute spread',
      limits: { perMinute: 6, perDay: null },
      at: Array.from({ length: 20 }, (_, i) => T + i * 3000),
    },
    { name: 'day', limits: { perMinute: null, perDay: 5 }, at: Array.from({ length: 8 }, (_, i) => T + i) },
    { name: 'both', limits: { perMinute: 3, perDay: 4 }, at: Array.from({ length: 12 }, (_, i) => T + i * 7000) },
  ];
  for (const { name, limits, at } of cases) {
    for (let refunded = 0; refunded < 3; refunded++) {
      const withRefund = new RateLimiter(() => 0);
      const without = new RateLimiter(() => 0);
      at.forEach((now, i) => {
        const got = strip(withRefund.take('b', limits, now));
        if (i === refunded) {
          assert.equal(got[0], true, `${name}: the refunded request had been allowed`);
          withRefund.refund('b', limits, now);
          return;
        }
        assert.deepEqual(got, strip(without.take('b', limits, now)), `${name}, refund of #${refunded}, request ${i}`);
      });
    }
  }
});

test('a refund after the day rolled, or of a bucket never seen, changes nothing', () => {
  const limiter = new RateLimiter(() => 0);
  const limits = { perMinute: null, perDay: 2 };
  limiter.take('k', limits, T);
  limiter.takeDirty();
  limiter.refund('k', limits, T + 120_000); // the next UTC day: yesterday's count stays
  limiter.refund('never', limits, T);
  assert.deepEqual(limiter.takeDirty(), []);
  assert.equal(limiter.take('k', limits, T).day?.remaining, 0, "yesterday's count is still 1 (now 2)");
});

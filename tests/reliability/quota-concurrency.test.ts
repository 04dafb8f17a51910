/**
 * Quotas under concurrency (issue 8): hundreds of requests at once, each on its own socket, against
 * each service's limits. Exactly the allowance is served and the rest refused with 429, Retry-After
 * and the documented headers; each allowed request sees a distinct "remaining" (no two requests took
 * the same unit); buckets of different addresses and keys do not leak into each other; and a daily
 * count is kept across a graceful restart, even one that begins while a burst is still in flight.
 *
 * Daily allowances too large to spend over HTTP in a test (10,000 and 25,000) are pre-spent through
 * the server's own limiter, as tests/e2e/impact/quota.test.ts does; the last part is spent over HTTP.
 * The server trusts loopback as a proxy so that X-Forwarded-For can present other client addresses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setSubscription } from '../../db/accounts.ts';
import { documentedLimits } from '../../lib/limits.ts';
import { accountWithKey } from '../helpers/keys.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { burst, tally, type Answer } from './abuse/parallel.ts';
import { bySize, recordFigures } from './size.ts';

const LIMITS = documentedLimits();
const PARALLEL = bySize(500, 2_000);
// A hang fails its suite by name instead of stalling the run.
const SUITE_TIMEOUT_MS = bySize(120_000, 300_000);

let server: TestServer;
const figures: Record<string, unknown> = { parallel: PARALLEL };
before(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
});
after(async () => {
  recordFigures('quota-concurrency', figures);
  await server?.cleanup();
});

/** Each test on a day and minute of its own, so that no bucket carries over from another test. */
let day = 0;
function freshDay(): void {
  day++;
  server.clock.set(`2026-12-${String(day).padStart(2, '0')}T20:00:00.250Z`);
}
const untilMidnight = () =>
  Math.ceil((Date.parse(new Date(server.clock.ms).toISOString().slice(0, 10)) + 86_400_000 - server.clock.ms) / 1000);
const nextMinute = () =>
  server.clock.set(new Date(Math.floor(server.clock.ms / 60_000) * 60_000 + 60_000).toISOString());

/** Times a burst for the figures. */
async function timed(name: string, run: () => Promise<Answer[]>): Promise<Answer[]> {
  const started = performance.now();
  const answers = await run();
  figures[name] = { requests: answers.length, ms: Math.round(performance.now() - started), statuses: tally(answers) };
  return answers;
}

/**
 * Exactly `allowed` 200s and the rest 429; the 200s' remaining counts are left-1 … left-allowed, each
 * once (`left`: what the bucket had before the burst).
 */
function assertExactly(
  answers: Answer[],
  allowed: number,
  left: number,
  remainingHeader: string,
): { ok: Answer[]; refused: Answer[] } {
  assert.deepEqual(tally(answers), { 200: allowed, 429: answers.length - allowed });
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  const remaining = ok.map((a) => Number(a.headers[remainingHeader])).sort((a, b) => a - b);
  assert.deepEqual(
    remaining,
    Array.from({ length: allowed }, (_, i) => left - allowed + i),
    'every allowed request took its own unit',
  );
  for (const r of refused) assert.equal(r.headers[remainingHeader], '0');
  return { ok, refused };
}

describe('one address, anonymous', { timeout: SUITE_TIMEOUT_MS }, () => {
  test(`impact: ${PARALLEL} at once against 100 a day → exactly 100 served, the rest 429 until midnight`, async () => {
    freshDay();
    const answers = await timed('impactAnonymous', () => burst(server.url, '/impact/v1/scenarios', PARALLEL));
    const { refused } = assertExactly(answers, 100, 100, 'x-ratelimit-remaining');
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], String(untilMidnight()));
      assert.equal(r.headers['x-ratelimit-limit'], '100');
      assert.equal(r.headers['x-ratelimit-reset'], String(untilMidnight()));
      const body = JSON.parse(r.body);
      assert.deepEqual(Object.keys(body.error), ['status', 'code', 'detail']);
      assert.equal(body.error.code, 'rate_limited');
    }
  });

  test(`funding: ${PARALLEL} at once against 60 a minute → exactly 60, the rest 429 until a slot frees`, async () => {
    freshDay();
    const answers = await timed('fundingAnonymous', () => burst(server.url, '/funding/v1/sources', PARALLEL));
    const { ok, refused } = assertExactly(answers, LIMITS.funding.anonymous.perMinute!, 60, 'x-ratelimit-remaining');
    for (const a of [...ok, ...refused]) {
      assert.equal(a.headers['x-api-tier'], 'anonymous');
      assert.equal(a.headers['x-ratelimit-limit'], '60');
      assert.equal(a.headers['x-quota-limit'], undefined, 'no daily quota for anonymous callers');
    }
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '1', 'one GCRA slot (60 s / 60), not the rest of the minute');
      assert.deepEqual(JSON.parse(r.body), { error: 'rate_limited', message: JSON.parse(r.body).message });
    }
    nextMinute();
    assert.equal((await server.get('/funding/v1/sources')).status, 200, 'the next minute is open again');
  });

  test(`human: ${PARALLEL} at once against 60 a minute → exactly 60`, async () => {
    freshDay();
    const answers = await timed('humanAnonymous', () => burst(server.url, '/human/v1/capabilities', PARALLEL));
    const { refused } = assertExactly(answers, 60, 60, 'x-ratelimit-remaining');
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '1', 'one GCRA slot (60 s / 60)');
      assert.equal(JSON.parse(r.body).error.code, 'rate_limited');
    }
  });
});

describe('keyed buckets', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('impact key: the last 100 of 10,000 a day, then 429', async () => {
    freshDay();
    const { key, row } = accountWithKey(server.app.db, 'impact', server.clock.ms);
    for (let i = 0; i < 9_900; i++)
      server.app.ctx.limiter.take(`impact:key:${row.id}`, LIMITS.impact.key, server.clock.ms);
    const answers = await timed('impactKey', () =>
      burst(server.url, '/impact/v1/scenarios', PARALLEL, { headers: () => ({ authorization: `Bearer ${key}` }) }),
    );
    const { refused } = assertExactly(answers, 100, 100, 'x-ratelimit-remaining');
    for (const r of refused) assert.equal(r.headers['retry-after'], String(untilMidnight()));
    assert.equal((await server.get('/impact/v1/scenarios')).status, 200, 'the address keeps its own allowance');
  });

  test(`human key: ${PARALLEL} at once against 120 a minute → exactly 120; REST and the bucket agree`, async () => {
    freshDay();
    const { key } = accountWithKey(server.app.db, 'human', server.clock.ms, { environment: 'test' });
    const answers = await timed('humanKey', () =>
      burst(server.url, '/human/v1/balance', PARALLEL, { headers: () => ({ authorization: `Bearer ${key}` }) }),
    );
    const { refused } = assertExactly(answers, 120, 120, 'x-ratelimit-remaining');
    for (const r of refused) assert.deepEqual(Object.keys(JSON.parse(r.body).error), ['code', 'message']);
    nextMinute();
    assert.equal((await server.get('/human/v1/balance', { authorization: `Bearer ${key}` })).status, 200);
  });

  test('funding basic: 120 a minute across two keys of one account (counted per account)', async () => {
    freshDay();
    const first = accountWithKey(server.app.db, 'funding', server.clock.ms);
    const { createKey } = await import('../../db/accounts.ts');
    const second = createKey(
      server.app.db,
      { accountId: first.account.id, service: 'funding', name: 'second' },
      server.clock.ms,
    ).key;
    const answers = await timed('fundingBasicMinute', () =>
      burst(server.url, '/funding/v1/sources', PARALLEL, {
        headers: (i) => ({ 'x-api-key': i % 2 ? second : first.key }),
      }),
    );
    const { ok, refused } = assertExactly(answers, 120, 120, 'x-ratelimit-remaining');
    for (const a of ok) assert.equal(a.headers['x-api-tier'], 'basic');
    for (const r of refused) assert.equal(JSON.parse(r.body).error, 'rate_limited');
    // The day counted every served request once: 1,000 − 120 left.
    const quotaLeft = ok.map((a) => Number(a.headers['x-quota-remaining'])).sort((a, b) => a - b);
    assert.deepEqual(
      quotaLeft,
      Array.from({ length: 120 }, (_, i) => 1_000 - 120 + i),
    );
  });

  for (const tier of ['basic', 'pro'] as const) {
    test(`funding ${tier}: the end of the day's quota under a burst → exactly what is left, then quota_exceeded`, async () => {
      freshDay();
      const { account, key } = accountWithKey(server.app.db, 'funding', server.clock.ms);
      if (tier === 'pro') setSubscription(server.app.db, account.id, 'pro', server.clock.ms);
      const perDay = LIMITS.funding[tier].perDay!;
      // Pre-spend all but 50 of the day (the minute count this leaves behind is rolled over below).
      for (let i = 0; i < perDay - 50; i++)
        server.app.ctx.limiter.take(`funding:account:${account.id}`, { perMinute: null, perDay }, server.clock.ms);
      nextMinute();
      const answers = await timed(`funding${tier}Day`, () =>
        burst(server.url, '/funding/v1/sources', PARALLEL, { headers: () => ({ 'x-api-key': key }) }),
      );
      const { ok, refused } = assertExactly(answers, 50, 50, 'x-quota-remaining');
      for (const a of ok) assert.equal(a.headers['x-api-tier'], tier);
      for (const r of refused) {
        assert.equal(JSON.parse(r.body).error, 'quota_exceeded', 'the day, not the minute, refuses');
        assert.equal(r.headers['retry-after'], String(untilMidnight()));
        assert.equal(r.headers['x-quota-limit'], String(perDay));
      }
    });
  }
});

describe('buckets do not leak into each other under concurrency', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('five addresses (X-Forwarded-For through a trusted proxy), interleaved: exactly 100 each', async () => {
    freshDay();
    const addresses = ['198.51.100.1', '198.51.100.2', '203.0.113.7', '2001:db8:1::1', '2001:db8:2::1'];
    const perAddress = Math.max(150, Math.ceil(PARALLEL / addresses.length));
    const answers = await timed('fiveAddresses', () =>
      burst(server.url, '/impact/v1/scenarios', perAddress * addresses.length, {
        headers: (i) => ({ 'x-forwarded-for': addresses[i % addresses.length]! }),
      }),
    );
    for (const [n, address] of addresses.entries()) {
      const mine = answers.filter((_, i) => i % addresses.length === n);
      assertExactly(mine, 100, 100, 'x-ratelimit-remaining');
      assert.ok(mine.length > 100, address);
    }
    // Addresses in one IPv6 /64 are one client: together they get 100.
    const sameBlock = await burst(server.url, '/impact/v1/scenarios', 150, {
      headers: (i) => ({ 'x-forwarded-for': `2001:db8:3::${(i % 7) + 1}` }),
    });
    assertExactly(sameBlock, 100, 100, 'x-ratelimit-remaining');
    // And the proxy's own address was never counted.
    assert.equal((await server.get('/impact/v1/scenarios')).headers.get('x-ratelimit-remaining'), '99');
  });

  test('three human keys and the anonymous address, interleaved: each bucket exactly its own limit', async () => {
    freshDay();
    const keys = [0, 1, 2].map(
      () => accountWithKey(server.app.db, 'human', server.clock.ms, { environment: 'test' }).key,
    );
    const lanes = keys.length + 1;
    const answers = await timed('humanLanes', () =>
      burst(server.url, '/human/v1/capabilities', 200 * lanes, {
        headers: (i): Record<string, string> =>
          i % lanes < keys.length
            ? { authorization: `Bearer ${keys[i % lanes]}` }
            : { 'x-forwarded-for': '192.0.2.44' },
      }),
    );
    for (let lane = 0; lane < lanes; lane++) {
      const mine = answers.filter((_, i) => i % lanes === lane);
      const limit = lane < keys.length ? 120 : 60;
      assertExactly(mine, limit, limit, 'x-ratelimit-remaining');
    }
  });
});

describe('counts kept across a restart', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('an address spends 37, the server restarts, the count continues from 37', async () => {
    freshDay();
    const spent = await burst(server.url, '/impact/v1/scenarios', 37, {
      headers: () => ({ 'x-forwarded-for': '198.51.100.37' }),
    });
    assert.deepEqual(tally(spent), { 200: 37 });
    await server.restart({ TRUST_PROXY: 'loopback' });
    const next = await server.get('/impact/v1/scenarios', { 'x-forwarded-for': '198.51.100.37' });
    assert.equal(next.headers.get('x-ratelimit-remaining'), String(100 - 37 - 1));
  });

  test('a graceful restart right after a burst loses nothing (funding basic day count)', async () => {
    freshDay();
    const { key } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    const answers = await burst(server.url, '/funding/v1/sources', PARALLEL, { headers: () => ({ 'x-api-key': key }) });
    assert.equal(tally(answers)[200], 120);
    // No pause: the write-behind has not run yet (it flushes about once a second); the stop must flush.
    await server.restart({ TRUST_PROXY: 'loopback' });
    nextMinute();
    const next = await server.get('/funding/v1/sources', { 'x-api-key': key });
    assert.equal(next.headers.get('x-quota-remaining'), String(1_000 - 120 - 1));
  });

  test('a graceful restart begun while a burst is in flight: every answered request is counted, no more', async () => {
    freshDay();
    const { key } = accountWithKey(server.app.db, 'impact', server.clock.ms);
    let restarting: Promise<void> | undefined;
    const answers = await burst(server.url, '/impact/v1/scenarios', PARALLEL, {
      headers: () => ({ authorization: `Bearer ${key}` }),
      // Stop the server once a fifth of the answers are back: the rest are in flight or not yet read.
      onAnswer: (arrived) => {
        if (arrived === Math.floor(PARALLEL / 5)) restarting = server.restart({ TRUST_PROXY: 'loopback' });
      },
    });
    await restarting;
    const served = answers.filter((a) => a.status === 200).length;
    const lost = answers.filter((a) => a.status === 0).length;
    assert.equal(
      served + lost,
      answers.length,
      `only 200s and requests cut before being read: ${JSON.stringify(tally(answers))}`,
    );
    assert.ok(served >= PARALLEL / 5);
    const next = await server.get('/impact/v1/scenarios', { authorization: `Bearer ${key}` });
    assert.equal(
      next.headers.get('x-ratelimit-remaining'),
      String(10_000 - served - 1),
      `${served} served before the restart, all counted`,
    );
    figures.restartMidBurst = { served, cutBeforeRead: lost };
  });
});

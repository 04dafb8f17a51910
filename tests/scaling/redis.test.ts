/**
 * REDIS_URL with a real redis-server (Debian's, on a free port; skipped with a note where it is not
 * installed) and trio processes sharing it: a primary (`serve --workers 2`: two workers) and two
 * READ_ONLY nodes on the same file (standing in for replicas a Litestream/LiteFS copy would feed;
 * docs/scaling.md).
 *
 *  - The Lua script answers exactly what the in-process limiter answers for the same history.
 *  - 500 parallel requests across the three processes against 100 a day → exactly 100.
 *  - A revoked key is refused by every process on its next request.
 *  - Read-only nodes refuse writes in each service's error shape, and report their lag.
 *  - Redis frozen (SIGSTOP): requests refused meanwhile cost nothing, the next minute's and day's
 *    allowance are whole once it wakes; each process says so at /readyz and comes back by itself.
 *  - Redis gone: 503 service_unavailable, never served unlimited.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAccount, createKey, revokeKey } from '../../db/accounts.ts';
import { openDatabase } from '../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { migrate } from '../../db/migrate.ts';
import { RateLimiter, type Decision, type Limits } from '../../lib/rate-limit.ts';
import { RedisLimiter } from '../../db/counters/redis.ts';
import type { ServeProcess } from '../helpers/serve-process.ts';
import { LimiterUnavailableError } from '../../lib/http/limiter-unavailable.ts';
import { NO_REDIS_NOTE, redisInstalled, send, serve, startRedis, tally, until, type RedisProcess } from './helpers.ts';

const skip = redisInstalled ? false : NO_REDIS_NOTE;
const dir = mkdtempSync(join(tmpdir(), 'trio-redis-'));
const path = join(dir, 'trio.sqlite');
let redis: RedisProcess;
let nodes: ServeProcess[] = [];
let impactKey: { key: string; id: number };
let humanKey: string;

before(async () => {
  if (skip) return;
  redis = await startRedis();
  const db = openDatabase(path);
  migrate(db);
  loadCatalogue(db, DEMO_CATALOGUE);
  const now = Date.now();
  const owner = createAccount(db, 'redis@example.org', now);
  const created = createKey(db, { accountId: owner.id, service: 'impact', name: 'k' }, now);
  impactKey = { key: created.key, id: created.row.id };
  humanKey = createKey(db, { accountId: owner.id, service: 'human', name: 'h', environment: 'test' }, now).key;
  db.close();
  const common = { DATABASE_PATH: path, REDIS_URL: redis.url, TRUST_PROXY: 'loopback' };
  // The primary is itself a cluster of two workers, which count in Redis rather than in the primary.
  const primary = await serve({ ...common, REPLICA_HEARTBEAT_MS: '200' }, ['--workers', '2']);
  nodes = [
    primary,
    ...(await Promise.all([serve({ ...common, READ_ONLY: '1' }), serve({ ...common, READ_ONLY: '1' })])),
  ];
});
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });
const strip = ({ allowed, refusedBy, retryAfterSeconds, minute, day }: Decision) => ({
  allowed,
  refusedBy,
  retryAfterSeconds,
  minute,
  day,
});

describe('Redis counters', { skip }, () => {
  test('the Lua script answers exactly what the in-process limiter answers, request by request', async () => {
    const limiter = new RedisLimiter(redis.url);
    await limiter.ready();
    const local = new RateLimiter(() => 0);
    const T = Date.parse('2026-11-22T23:50:00.300Z'); // minute edges, clock steps back, then across a UTC midnight
    const cases: Array<[string, Limits]> = [
      ['a', { perMinute: 7, perDay: null }],
      ['b', { perMinute: 120, perDay: 1000 }],
      ['c', { perMinute: 3, perDay: 5 }],
      ['d', { perMinute: null, perDay: 4 }],
    ];
    let seed = 11;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let now = T;
    try {
      for (let i = 0; i < 400; i++) {
        now += Math.floor(rand() * 900);
        if (i === 200) now -= 30_000; // an NTP step back: both must treat it alike
        if (i === 300) now -= 3_600_000; // a clock set back by an hour (the same UTC day)
        if (i === 350) now += 3_600_000 + 20 * 60_000; // and on, past midnight: a new day for both
        const [bucket, limits] = cases[i % cases.length]!;
        const name = `test:${process.pid}:${bucket}`;
        assert.deepEqual(
          strip(await limiter.take(name, limits, now)),
          strip(local.take(name, limits, now)),
          `request ${i} on ${bucket} at +${now - T} ms`,
        );
      }
    } finally {
      await limiter.close();
    }
  });

  test('500 parallel requests across four processes (two workers, two read-only nodes) against 100 a day per address → exactly 100', async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        send(`${nodes[i % 3]!.url}/impact/v1/scenarios`, { headers: from('198.51.100.1') }),
      ),
    );
    assert.deepEqual(tally(answers), { 200: 100, 429: 400 });
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(a.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 100 }, (_, i) => i),
      'each count 99…0 once: one counter for all three',
    );
    for (const a of answers.filter((x) => x.status === 429))
      assert.equal(
        Number(a.headers['retry-after']),
        Number(a.headers['x-ratelimit-reset']),
        'Retry-After: to 00:00 UTC',
      );
  });

  test('per-minute GCRA across processes: 60 at once for an address, then one slot', async () => {
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        send(`${nodes[i % 3]!.url}/human/v1/capabilities`, { headers: from('198.51.100.2') }),
      ),
    );
    assert.deepEqual(tally(answers), { 200: 60, 429: 90 });
    for (const a of answers.filter((x) => x.status === 429)) assert.equal(a.headers['retry-after'], '1');
  });

  test('a revoked key is refused by every process on its next request', async () => {
    const auth = from('198.51.100.3', { authorization: `Bearer ${impactKey.key}` });
    for (const node of nodes)
      assert.equal((await send(`${node.url}/impact/v1/scenarios`, { headers: auth })).status, 200);
    const db = openDatabase(path);
    revokeKey(db, impactKey.id, Date.now());
    db.close();
    for (const node of nodes) {
      const res = await send(`${node.url}/impact/v1/scenarios`, { headers: auth });
      assert.equal(res.status, 401, node.url);
    }
  });

  test("a read-only node refuses writes in each service's error shape, and serves reads", async () => {
    const replica = nodes[1]!;
    const order = await send(`${replica.url}/human/v1/tasks`, {
      method: 'POST',
      body: '{}',
      headers: from('198.51.100.4', {
        authorization: `Bearer ${humanKey}`,
        'content-type': 'application/json',
        'idempotency-key': '0f8fad5b-d9cb-469f-a165-70867728950e',
      }),
    });
    assert.equal(order.status, 503);
    assert.equal(order.headers['x-trio-read-only'], '1');
    const body = JSON.parse(order.body) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'service_unavailable');
    assert.match(body.error.message, /read-only copy.*primary \(this node was not told its address: .*PRIMARY_URL\)/);
    const form = await send(`${replica.url}/console/sign-in`, {
      method: 'POST',
      body: 'email=a%40b.org',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 503);
    assert.match(form.body, /read-only copy/);
    assert.equal(
      (
        await send(`${replica.url}/human/v1/tasks`, {
          headers: from('198.51.100.4', { authorization: `Bearer ${humanKey}` }),
        })
      ).status,
      200,
      'reads are served',
    );
    // The primary takes the same order.
    const placed = await send(`${nodes[0]!.url}/human/v1/quote`, {
      method: 'POST',
      body: JSON.stringify({ capability: 'human.verify', location: { country_iso: 'FR', city_slug: 'paris' } }),
      headers: from('198.51.100.4', { 'content-type': 'application/json' }),
    });
    assert.equal(placed.status, 200);
  });

  test('a read-only node reports its replication lag at /readyz and /metrics', async () => {
    const replica = nodes[2]!;
    const ready = await send(`${replica.url}/readyz`);
    assert.equal(ready.status, 200, ready.body);
    const body = JSON.parse(ready.body) as { role: string; replication_lag_ms: number; primary: string };
    assert.equal(body.role, 'read-only');
    assert.ok(
      body.replication_lag_ms >= 0 && body.replication_lag_ms < 5000,
      `lag ${body.replication_lag_ms} ms with a heartbeat every 200 ms`,
    );
    assert.match(body.primary, /:\d+$/);
    const metrics = await send(`${replica.url}/metrics`);
    const lag = Number(/^trio_replication_lag_seconds (\S+)$/m.exec(metrics.body)?.[1]);
    assert.ok(lag >= 0 && lag < 5, `trio_replication_lag_seconds ${lag}`);
    assert.equal(JSON.parse((await send(`${nodes[0]!.url}/readyz`)).body).status, 'ready');
  });

  test('a frozen Redis: counts sent meanwhile are given back when it wakes; the next minute and day are whole', async () => {
    const limiter = new RedisLimiter(redis.url);
    await limiter.ready();
    const limits = { perMinute: 60, perDay: 100 };
    const bucket = `test:${process.pid}:frozen`;
    const now = Date.now();
    redis.child.kill('SIGSTOP');
    try {
      const during = await Promise.allSettled(Array.from({ length: 50 }, () => limiter.take(bucket, limits, now)));
      assert.ok(
        during.every((r) => r.status === 'rejected' && r.reason instanceof LimiterUnavailableError),
        'refused, never served without an answer',
      );
      assert.equal(limiter.health.up, false);
      const started = Date.now();
      await assert.rejects(limiter.take(bucket, limits, now), /Redis is down: no answer within 1000 ms/);
      assert.ok(Date.now() - started < 500, 'while down, refused at once: nothing more queues behind the freeze');
    } finally {
      redis.child.kill('SIGCONT');
    }
    try {
      await until(() => limiter.health.up, 'up again once Redis answers the probe');
      const first = await limiter.take(bucket, limits, now + 1000);
      assert.equal(first.day?.remaining, 99, "the day's allowance is whole: the 50 late counts were given back");
      assert.equal(first.minute?.remaining, 59, "and the minute's");
      const rest = await Promise.all(Array.from({ length: 60 }, () => limiter.take(bucket, limits, now + 1000)));
      assert.deepEqual(
        rest.map((d) => d.allowed),
        [...Array<boolean>(59).fill(true), false],
        'a burst of exactly 60 in the next minute',
      );
    } finally {
      await limiter.close();
    }
  });

  test('a frozen Redis across processes: refused meanwhile, each says so at /readyz, and the day is whole after', async () => {
    const address = '198.51.100.6';
    redis.child.kill('SIGSTOP');
    let during: Awaited<ReturnType<typeof send>>[];
    try {
      during = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          send(`${nodes[i % 3]!.url}/impact/v1/scenarios`, { headers: from(address) }),
        ),
      );
      const ready = await send(`${nodes[2]!.url}/readyz`);
      assert.equal(ready.status, 503, 'not ready while its counters do not answer');
      const body = JSON.parse(ready.body) as { reason: string; dependencies: { redis: { state: string } } };
      assert.equal(body.dependencies.redis.state, 'down');
      assert.match(body.reason, /^redis is down: /);
    } finally {
      redis.child.kill('SIGCONT');
    }
    assert.deepEqual(tally(during), { 503: 30 });
    // Every process (both workers behind the primary's port) is up again by itself.
    for (const node of nodes) {
      let inARow = 0;
      await until(
        async () => ((await send(`${node.url}/readyz`)).status === 200 ? ++inARow : (inARow = 0)) >= 6,
        `${node.url} ready again`,
      );
    }
    const after = await Promise.all(
      Array.from({ length: 101 }, (_, i) =>
        send(`${nodes[i % 3]!.url}/impact/v1/scenarios`, { headers: from(address) }),
      ),
    );
    assert.deepEqual(tally(after), { 200: 100, 429: 1 }, 'the 30 refused requests used none of the 100 a day');
  });

  test('Redis unreachable: 503 service_unavailable on every process, never served without its limit', async () => {
    await redis.stop();
    for (const node of nodes) {
      const res = await send(`${node.url}/funding/v1/sources`, { headers: from('198.51.100.5') });
      assert.equal(res.status, 503, node.url);
      assert.deepEqual(Object.keys(JSON.parse(res.body)), ['error', 'message']);
      assert.equal(JSON.parse(res.body).error, 'service_unavailable');
      assert.equal(res.headers['retry-after'], '5');
      const impact = await send(`${node.url}/impact/v1/scenarios`, { headers: from('198.51.100.5') });
      assert.equal(impact.status, 503);
      const body = JSON.parse(impact.body) as { error: { status: number; code: string; detail: string } };
      assert.deepEqual(
        [body.error.status, body.error.code],
        [503, 'database_unavailable'],
        "impact's documented 503 code",
      );
      assert.match(body.error.detail, /rate-limit counters cannot be reached/);
    }
  });
});

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
import { NO_REDIS_NOTE, redisInstalled, send, serve, startRedis, tally, type RedisProcess } from './helpers.ts';

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
    assert.match(body.error.message, /read-only copy.*primary/);
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

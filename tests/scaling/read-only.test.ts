/**
 * READ_ONLY without Redis (the Redis suite covers it with): a node on the primary's file, opened
 * read-only, serves reads, refuses writes in each service's shape, reports its lag from the
 * primary's heartbeat, and is not ready when the copy is too old or has no heartbeat; names the
 * primary (PRIMARY_URL) in its refusals, which cost the client nothing; says how it counts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApp, type RunningApp } from '../../app.ts';
import { revokeKey } from '../../db/accounts.ts';
import { heartbeatWriter } from '../../db/heartbeat.ts';
import { readConfig } from '../../lib/config.ts';
import { accountWithKey } from '../helpers/keys.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { serve, workerPids } from './helpers.ts';
import { setTimeout as sleep } from 'node:timers/promises';

let primary: TestServer;
let replica: RunningApp;
let now = Date.parse('2026-11-24T10:00:00Z');

before(async () => {
  primary = await startTestServer();
  replica = await startApp(
    readConfig({
      PORT: '0',
      DATABASE_PATH: primary.databasePath,
      DEMO: 'off',
      LOG_LEVEL: 'silent',
      READ_ONLY: 'on',
      PRIMARY_URL: 'https://primary.example.org',
      READ_ONLY_MAX_LAG_MS: '5000',
    }),
    { clock: () => now },
  );
});
after(async () => {
  await replica?.stop();
  await primary?.cleanup();
});

const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
  const res = await fetch(replica.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text.startsWith('{') ? JSON.parse(text) : undefined };
};

test('no heartbeat yet: /readyz is 503 and says why; the metric is -1', async () => {
  const ready = await call('GET', '/readyz');
  assert.equal(ready.status, 503);
  assert.equal(ready.json.role, 'read-only');
  assert.equal(ready.json.replication_lag_ms, null);
  assert.match(ready.json.reason, /REPLICA_HEARTBEAT_MS/);
  assert.match((await call('GET', '/metrics')).text, /^trio_replication_lag_seconds -1$/m);
});

test("lag is now minus the primary's last heartbeat; past READ_ONLY_MAX_LAG_MS the node is not ready", async () => {
  heartbeatWriter(primary.app.db)(now - 1500);
  const ready = await call('GET', '/readyz');
  assert.equal(ready.status, 200);
  assert.deepEqual(
    [ready.json.status, ready.json.replication_lag_ms, ready.json.max_lag_ms, ready.json.heartbeat_at],
    ['ready', 1500, 5000, '2026-11-24T09:59:58.500Z'],
  );
  assert.match((await call('GET', '/metrics')).text, /^trio_replication_lag_seconds 1\.5$/m);
  now += 4000; // 5.5 s behind
  const stale = await call('GET', '/readyz');
  assert.equal(stale.status, 503);
  assert.equal(stale.json.replication_lag_ms, 5500);
  assert.match(stale.json.reason, /5500 ms behind/);
});

test("writes are refused in each service's error shape; nothing is stored; reads are served", async () => {
  const { key } = accountWithKey(primary.app.db, 'human', Date.now(), { environment: 'test' });
  const tasks = () => primary.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get() as number;
  const before = tasks();
  const order = await call(
    'POST',
    '/human/v1/tasks',
    {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': '0f8fad5b-d9cb-469f-a165-70867728950e',
    },
    JSON.stringify({
      capability: 'human.verify',
      spec: { claim: 'x', subject: 'y' },
      location: { country_iso: 'FR', city_slug: 'paris' },
      max_price_cents: 2000,
    }),
  );
  assert.equal(order.status, 503);
  assert.deepEqual(Object.keys(order.json.error), ['code', 'message']);
  assert.equal(order.json.error.code, 'service_unavailable');
  assert.match(order.json.error.message, /Send writes .* to the primary, https:\/\/primary\.example\.org\.$/);
  assert.equal(order.headers.get('x-trio-read-only'), '1');
  assert.equal(tasks(), before, 'nothing stored');
  // A write refused by a read-only node is not counted against the client.
  const read = await call('GET', '/human/v1/tasks', { authorization: `Bearer ${key}` });
  const left = Number(read.headers.get('x-ratelimit-remaining'));
  const again = await call('POST', '/human/v1/tasks', { authorization: `Bearer ${key}` }, '{}');
  assert.equal(again.status, 503);
  assert.equal(Number(again.headers.get('x-ratelimit-remaining')), left, 'shown as it was');
  const next = await call('GET', '/human/v1/tasks', { authorization: `Bearer ${key}` });
  assert.equal(Number(next.headers.get('x-ratelimit-remaining')), left - 1, 'the refused write cost nothing');
  const quote = await call('POST', '/human/v1/quote', { 'content-type': 'application/json' }, '{}');
  assert.equal(quote.status, 503, 'every POST of a service, even one that would only read');
  const console = await call(
    'POST',
    '/console/sign-up',
    { 'content-type': 'application/x-www-form-urlencoded' },
    'email=a%40example.org&password=correct-horse-battery',
  );
  assert.equal(console.status, 503);
  assert.match(console.text, /read-only copy of the database.*https:\/\/primary\.example\.org/);
  // Reads, and the refusals a read path had anyway, are as on the primary.
  assert.equal((await call('GET', '/human/v1/capabilities')).status, 200);
  assert.equal((await call('GET', '/funding/v1/sources')).status, 200);
  assert.equal((await call('GET', '/human/v1/tasks', { authorization: `Bearer ${key}` })).status, 200);
  assert.equal((await call('DELETE', '/funding/v1/sources')).status, 405, 'a method no route has is still 405');
});

test('a key revoked on the primary is refused by the read-only node on its next request', async () => {
  const { key, row } = accountWithKey(primary.app.db, 'human', now, { environment: 'test' });
  const auth = { authorization: `Bearer ${key}` };
  for (let i = 0; i < 3; i++) assert.equal((await call('GET', '/human/v1/tasks', auth)).status, 200);
  revokeKey(primary.app.db, row.id, now); // what arrives in the copy (here the copy is the file itself)
  const refused = await call('GET', '/human/v1/tasks', auth);
  assert.equal(refused.status, 401);
  assert.equal(refused.json.error.code, 'key_revoked');
});

test('READ_ONLY without REDIS_URL says once, truly, how the node counts: alone, or its primary for its workers', async () => {
  const workersMatch = /this node's primary process counts for its 2 workers, in memory/g;
  const single = await serve({ DATABASE_PATH: primary.databasePath, READ_ONLY: 'on' });
  const clustered = await serve({ DATABASE_PATH: primary.databasePath, READ_ONLY: 'on' }, ['--workers', '2']);
  try {
    // The workers log as they start, maybe after the primary's line: wait for both of theirs.
    for (let i = 0; i < 200 && workerPids(clustered.output()).length < 2; i++) await sleep(50);
    assert.equal(single.output().match(/this node counts its clients itself, in memory/g)?.length, 1);
    assert.equal(clustered.output().match(workersMatch)?.length, 1, 'said once, by the primary');
    assert.doesNotMatch(clustered.output(), /counts its clients itself|on its own/, 'no worker claims to count alone');
    assert.match(clustered.output(), /writing nothing back; .* Set REDIS_URL to share the limits/);
  } finally {
    await Promise.all([single.stop(), clustered.stop()]);
  }
});

/**
 * Concurrency through real HTTP against the real server: 200 live orders at once against a balance
 * that pays for exactly 10 (10 succeed, 190 get 402, the balance ends at exactly zero, nothing charged
 * twice), and 50 requests at once with one Idempotency-Key (one task; every success is the same task).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

let server: HumanServer;
before(async () => {
  // fetch's default agent opens a socket per concurrent request, so the requests really overlap.
  // This test is about money, not the rate limit (tested in access.test.ts): 1,000 a minute per key.
  server = await startHumanServer({
    rateLimits: (limits) => ({ ...limits, human: { ...limits.human, key: { perMinute: 1000, perDay: null } } }),
  });
});
after(async () => {
  await server?.cleanup();
});
checkLedgerAfterEach(() => server);

test('200 parallel live orders against a balance for 10: exactly 10 succeed, the rest 402, balance exactly zero', async () => {
  const { key, accountId } = server.account('live', { balance: 10 * 1800 });
  const responses = await Promise.all(Array.from({ length: 200 }, () => server.order(key, verifyOrder())));
  const statuses = responses.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 10, `statuses: ${[...new Set(statuses)].join(',')}`);
  assert.equal(statuses.filter((s) => s === 402).length, 190);
  for (const r of responses.filter((x) => x.status === 402)) assert.equal(r.json.error.code, 'insufficient_balance');
  const refs = new Set(responses.filter((r) => r.status === 201).map((r) => r.json.data.ref));
  assert.equal(refs.size, 10);
  const balance = (await server.call('GET', '/balance', key)).json.data;
  assert.equal(balance.available_cents, 0);
  assert.equal(balance.held_cents, 18_000);
  assert.equal(
    server.app.db.prepare('SELECT count(*) FROM human_tasks WHERE account_id = ?').pluck().get(accountId),
    10,
    'no task without its hold',
  );
  assert.equal(
    server.app.db.prepare('SELECT count(*) FROM human_holds WHERE account_id = ?').pluck().get(accountId),
    10,
  );
});

test('50 parallel requests with one Idempotency-Key make one task', async () => {
  const { key, accountId } = server.account('live', { balance: 100_000 });
  const id = randomUUID();
  const responses = await Promise.all(Array.from({ length: 50 }, () => server.order(key, verifyOrder(), id)));
  const created = responses.filter((r) => r.status === 201);
  const inFlight = responses.filter((r) => r.status === 409);
  assert.equal(created.length + inFlight.length, 50, `statuses: ${responses.map((r) => r.status).join(',')}`);
  assert.ok(created.length >= 1);
  assert.equal(new Set(created.map((r) => r.json.data.ref)).size, 1, 'every success is the same task');
  assert.equal(
    created.filter((r) => r.headers.get('idempotent-replayed') === null).length,
    1,
    'one original answer; the rest are replays',
  );
  for (const r of inFlight) {
    assert.equal(r.json.error.code, 'idempotency_key_in_flight');
    assert.equal(r.headers.get('retry-after'), '1');
  }
  assert.equal(
    server.app.db.prepare('SELECT count(*) FROM human_tasks WHERE account_id = ?').pluck().get(accountId),
    1,
  );
  assert.equal((await server.call('GET', '/balance', key)).json.data.held_cents, 1800, 'held once');
  // A retry after the first finished gets the first answer.
  const retry = await server.order(key, verifyOrder(), id);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.equal(retry.json.data.ref, created[0]!.json.data.ref);
});

/**
 * Webhooks end to end against a real local receiver (receiver.ts): every task state change of the
 * key's environment is delivered, signed (checked with the Standard Webhooks reference library, an
 * independent implementation), in order per task; failures are retried on the schedule and the next
 * event of the same task waits; a slow or hung receiver fails its attempt without holding up others or
 * any request; replays, the test event, 410 Gone, a redirect, secret rotation and the URL rules.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { RETRY_DELAYS_MS } from '../../../lib/outbox/schedule.ts';
import { advance, SANDBOX_DELAY_MS as D, startHumanServer, verifyOrder, type HumanServer } from '../human/harness.ts';
import { startReceiver, type Receiver } from './receiver.ts';

let server: HumanServer;
const receivers: Receiver[] = [];
before(async () => {
  server = await startHumanServer({ inProcess: true, env: { WEBHOOK_TIMEOUT_MS: '1000' } });
});
after(async () => {
  for (const r of receivers) await r.close();
  await server.cleanup();
});
afterEach(async () => server.deliver());

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function endpoint(key: string, url: string, body: Record<string, unknown> = {}) {
  const res = await server.call('POST', '/webhook_endpoints', key, { url, ...body });
  assert.equal(res.status, 201, res.text);
  return res.json.data as { id: string; secret: string; environment: string };
}

/** The reference library checks a delivery as a receiver would, at the delivery's own time. */
function verifies(secret: string, r: Receiver['received'][number]): boolean {
  try {
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

test('every state change of a sandbox task is delivered, signed, in order, with the task as it was', async () => {
  server.clock.set(new Date().toISOString()); // the reference library checks the timestamp against its own clock
  const buyer = server.account('test');
  const hooks = await receiver();
  const made = await endpoint(buyer.key, hooks.url, { description: 'test receiver' });
  assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(made.environment, 'sandbox');
  const order = await server.order(buyer.key, verifyOrder({ metadata: { order: '42' }, client_reference: 'row-42' }));
  const ref = order.json.data.ref;
  await server.deliver();
  for (let step = 0; step < 3; step++) {
    await advance(server, D);
    await server.deliver();
  }
  const types = hooks.received.map((r) => r.json.type);
  assert.deepEqual(types, [
    'human.task.created',
    'human.task.dispatched',
    'human.task.in_progress',
    'human.task.delivered',
  ]);
  for (const r of hooks.received) {
    assert.ok(verifies(made.secret, r), `${r.json.type} verifies with the reference library`);
    assert.equal(r.headers['webhook-id'], r.json.id);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.match(String(r.headers['user-agent']), /^trio-webhooks\//);
    assert.equal(r.json.environment, 'sandbox');
    assert.equal(r.json.data.task.ref, ref);
    assert.equal(
      `human.task.${r.json.data.task.status === 'pending' ? 'created' : r.json.data.task.status}`,
      r.json.type,
    );
    assert.deepEqual(r.json.data.task.metadata, { order: '42' });
    assert.equal(r.json.data.task.client_reference, 'row-42');
  }
  assert.deepEqual(
    hooks.received.map((r) => r.json.data.previous_status),
    [null, 'pending', 'dispatched', 'in_progress'],
  );
  // A body signed with another secret, or altered, does not verify.
  const first = hooks.received[0]!;
  assert.equal(verifies('whsec_' + Buffer.alloc(32, 1).toString('base64'), first), false);
  assert.equal(verifies(made.secret, { ...first, body: first.body.replace('42', '43') }), false);
  // The same events are the task's history and the account's log, with the same ids.
  const history = await server.call('GET', `/tasks/${ref}/events`, buyer.key);
  assert.deepEqual(
    history.json.data.map((e: { id: string }) => e.id),
    hooks.received.map((r) => r.json.id),
  );
  assert.deepEqual(
    history.json.data.map((e: { actor: string }) => e.actor),
    ['client', 'sandbox', 'sandbox', 'sandbox'],
  );
  const log = await server.call('GET', `/events?task=${ref}`, buyer.key);
  assert.deepEqual(
    log.json.data.map((e: { id: string }) => e.id).reverse(),
    hooks.received.map((r) => r.json.id),
  );
  const event = await server.call('GET', `/events/${first.json.id}`, buyer.key);
  assert.equal(event.json.data.deliveries[0].status, 'succeeded');
  assert.equal(event.json.data.deliveries[0].last_status, 204);
  assert.equal(event.json.data.deliveries[0].attempts, 1);
});

test('sandbox endpoints receive sandbox events only, live endpoints live ones; other accounts nothing', async () => {
  const test_ = server.account('test');
  const live = server.account('live', { balance: 100_000 });
  // One account, two keys: the same person with a sandbox and a live key.
  const { createKey } = await import('../../../db/accounts.ts');
  const liveKey = createKey(
    server.app.db,
    { accountId: test_.accountId, service: 'human', name: 'live', environment: 'live' },
    server.clock.ms,
  ).key;
  const { credit } = await import('../../../db/human/ledger.ts');
  server.app.db
    .transaction(() => credit(server.app.db, test_.accountId, 10_000, 'top-up', server.clock.ms))
    .immediate();
  const sandboxHooks = await receiver();
  const liveHooks = await receiver();
  const strangerHooks = await receiver();
  await endpoint(test_.key, sandboxHooks.url);
  await endpoint(liveKey, liveHooks.url);
  await endpoint(live.key, strangerHooks.url);
  const sandboxRef = (await server.order(test_.key, verifyOrder())).json.data.ref;
  const liveRef = (await server.order(liveKey, verifyOrder())).json.data.ref;
  await server.deliver();
  assert.deepEqual(
    sandboxHooks.received.map((r) => [r.json.data.task.ref, r.json.environment]),
    [[sandboxRef, 'sandbox']],
  );
  assert.deepEqual(
    liveHooks.received.map((r) => [r.json.data.task.ref, r.json.environment]),
    [[liveRef, 'live']],
  );
  assert.deepEqual(strangerHooks.received, []);
  // Endpoints and events are per environment too.
  assert.equal((await server.call('GET', '/webhook_endpoints', test_.key)).json.data.length, 1);
  assert.equal((await server.call('GET', `/events?task=${liveRef}`, test_.key)).json.data.length, 0);
  assert.equal((await server.call('GET', `/events?task=${liveRef}`, liveKey)).json.data.length, 1);
});

test('a failing receiver is retried on the schedule; the next event of the same task waits for it', async () => {
  const buyer = server.account('test');
  const hooks = await receiver();
  await endpoint(buyer.key, hooks.url, { event_types: ['human.task.*'] });
  hooks.script({ status: 500 }, { status: 503, headers: { 'retry-after': '120' } });
  const ref = (await server.order(buyer.key, verifyOrder())).json.data.ref;
  await server.deliver();
  await advance(server, D); // dispatched: queued behind the failing 'created'
  await server.deliver();
  assert.deepEqual(
    hooks.received.map((r) => r.json.type),
    ['human.task.created'],
  );
  const created = hooks.received[0]!.json.id;
  let delivery = (await server.call('GET', `/events/${created}`, buyer.key)).json.data.deliveries[0];
  assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['pending', 1, 500]);
  assert.equal(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at), RETRY_DELAYS_MS[0]);
  // Not before its time.
  server.clock.set(new Date(Date.parse(delivery.next_attempt_at) - 1).toISOString());
  await server.deliver();
  assert.equal(hooks.received.length, 1);
  server.clock.advance(1);
  await server.deliver(); // the second attempt: 503 with Retry-After: 120 (longer than the planned 1 min)
  delivery = (await server.call('GET', `/events/${created}`, buyer.key)).json.data.deliveries[0];
  assert.deepEqual([delivery.status, delivery.attempts, delivery.last_status], ['pending', 2, 503]);
  assert.equal(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at), 120_000);
  server.clock.advance(120_000);
  await server.deliver(); // succeeds; then 'dispatched' goes at once, in order
  assert.deepEqual(
    hooks.received.map((r) => r.json.type),
    ['human.task.created', 'human.task.created', 'human.task.created', 'human.task.dispatched'],
  );
  assert.equal(
    new Set(hooks.received.slice(0, 3).map((r) => r.headers['webhook-id'])).size,
    1,
    'one webhook-id for every attempt',
  );
  assert.ok(
    Number(hooks.received[2]!.headers['webhook-timestamp']) > Number(hooks.received[0]!.headers['webhook-timestamp']),
    'each attempt is signed at its own time',
  );
  assert.equal((await server.call('GET', `/tasks/${ref}`, buyer.key)).json.data.status, 'dispatched');
});

test("after a day of failures a delivery fails for good, and the task's next events go on", async () => {
  const buyer = server.account('test');
  const hooks = await receiver();
  await endpoint(buyer.key, hooks.url);
  hooks.otherwise = { status: 500 };
  await server.order(buyer.key, verifyOrder({ spec: { claim: 'sandbox:stay_pending', subject: 'A shop' } }));
  await server.deliver();
  const started = server.clock.ms;
  for (const delay of RETRY_DELAYS_MS) {
    server.clock.advance(delay);
    await server.deliver();
  }
  assert.equal(hooks.received.length, 10, 'ten attempts');
  assert.ok(server.clock.ms - started < 86_400_000, 'within a day');
  const created = hooks.received[0]!.json.id;
  const delivery = (await server.call('GET', `/events/${created}`, buyer.key)).json.data.deliveries[0];
  assert.deepEqual([delivery.status, delivery.attempts, delivery.next_attempt_at], ['failed', 10, null]);
  hooks.otherwise = { status: 204 };
  await advance(server, 86_400_000); // the SLA passes: expired, delivered at once
  await server.deliver();
  assert.equal(hooks.received.at(-1)!.json.type, 'human.task.expired');
  assert.equal(hooks.received.at(-1)!.json.data.task.expiry.reason, 'sla_passed');
});

test('a hung receiver fails its attempt at the timeout, and holds up neither other endpoints nor requests', async () => {
  const buyer = server.account('test');
  const slow = await receiver();
  const fast = await receiver();
  await endpoint(buyer.key, slow.url);
  await endpoint(buyer.key, fast.url);
  slow.script('hang');
  await server.order(buyer.key, verifyOrder());
  const delivering = server.deliver();
  // While the slow attempt hangs: the fast endpoint got its event, and an order is answered at once.
  const t0 = Date.now();
  const during = await server.order(buyer.key, verifyOrder());
  assert.equal(during.status, 201);
  assert.ok(Date.now() - t0 < 900, 'the order did not wait for the receiver');
  await delivering;
  // Each task is its own queue: the second task's event reached the slow receiver too, and was answered.
  assert.equal(slow.received.length, 2);
  assert.equal(fast.received.length, 2);
  const event = (await server.call('GET', `/events/${slow.received[0]!.json.id}`, buyer.key)).json.data;
  const slowDelivery = event.deliveries.find((d: { status: string }) => d.status === 'pending');
  assert.match(slowDelivery.last_error, /timeout/);
  assert.equal(slowDelivery.last_status, null);
});

test('replay sends the same event again (same id and body); the test button reaches one endpoint', async () => {
  const buyer = server.account('test');
  const a = await receiver();
  const b = await receiver();
  const ea = await endpoint(buyer.key, a.url);
  await endpoint(buyer.key, b.url, { event_types: ['human.task.delivered'] });
  await server.order(buyer.key, verifyOrder());
  await server.deliver();
  const original = a.received[0]!;
  const replayed = await server.call('POST', `/events/${original.json.id}/replay`, buyer.key, { endpoint: ea.id });
  assert.equal(replayed.status, 202, replayed.text);
  await server.deliver();
  assert.equal(a.received.length, 2);
  assert.equal(a.received[1]!.body, original.body);
  assert.equal(a.received[1]!.headers['webhook-id'], original.headers['webhook-id']);
  assert.equal(b.received.length, 0, 'b does not subscribe to human.task.created');
  // Replaying to every subscribed endpoint: b still is not one.
  await server.call('POST', `/events/${original.json.id}/replay`, buyer.key);
  await server.deliver();
  assert.equal(b.received.length, 0);
  assert.equal(a.received.length, 3);
  const tested = await server.call('POST', `/webhook_endpoints/${ea.id}/test`, buyer.key);
  assert.equal(tested.status, 202);
  await server.deliver();
  assert.equal(a.received.at(-1)!.json.type, 'webhook.endpoint.test');
  assert.equal(b.received.length, 0);
  const triggers = (await server.call('GET', `/events/${original.json.id}`, buyer.key)).json.data.deliveries.map(
    (d: { trigger: string; status: string }) => `${d.trigger}:${d.status}`,
  );
  assert.deepEqual(triggers, ['event:succeeded', 'replay:succeeded', 'replay:succeeded']);
});

test('410 Gone disables the endpoint; a redirect is a failure, not followed', async () => {
  const buyer = server.account('test');
  const gone = await receiver();
  const moved = await receiver();
  const g = await endpoint(buyer.key, gone.url);
  const m = await endpoint(buyer.key, moved.url);
  gone.script({ status: 410 });
  moved.script({ status: 302, headers: { location: gone.url } });
  await server.order(buyer.key, verifyOrder());
  await server.deliver();
  const shown = (await server.call('GET', `/webhook_endpoints/${g.id}`, buyer.key)).json.data;
  assert.deepEqual([shown.enabled, shown.disabled_reason], [false, 'gone']);
  assert.equal(gone.received.length, 1, 'the redirect was not followed to the other receiver');
  const event = (await server.call('GET', `/events/${moved.received[0]!.json.id}`, buyer.key)).json.data;
  const redirected = event.deliveries.find((d: { endpoint: string }) => d.endpoint === m.id);
  assert.deepEqual([redirected.status, redirected.last_status], ['pending', 302]);
  // Re-enabled, it receives again.
  await server.call('POST', `/webhook_endpoints/${g.id}`, buyer.key, { enabled: true });
  await server.order(buyer.key, verifyOrder());
  await server.deliver();
  assert.equal(gone.received.length, 2);
});

test('a rotated secret: deliveries carry both signatures for a day, each verifies', async () => {
  server.clock.set(new Date().toISOString());
  const buyer = server.account('test');
  const hooks = await receiver();
  const made = await endpoint(buyer.key, hooks.url);
  const rotated = await server.call('POST', `/webhook_endpoints/${made.id}/rotate_secret`, buyer.key);
  const fresh = rotated.json.data.secret as string;
  assert.notEqual(fresh, made.secret);
  await server.order(buyer.key, verifyOrder());
  await server.deliver();
  const got = hooks.received[0]!;
  assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2);
  assert.ok(verifies(fresh, got));
  assert.ok(verifies(made.secret, got));
});

test('endpoint URLs: refused with what is wrong; live ones need https; private addresses when not allowed', async () => {
  const sandbox = server.account('test');
  const live = server.account('live');
  const cases: Array<[string, unknown, RegExp]> = [
    [sandbox.key, { url: 'ftp://example.org/x' }, /Invalid field 'url': it must start with https:\/\//],
    [sandbox.key, { url: 'not a url' }, /it is not an absolute URL/],
    [sandbox.key, { url: 'https://user:pw@example.org/x' }, /must not carry a user name or password/],
    [
      sandbox.key,
      { url: 'https://example.org/x', event_types: ['human.task.nope'] },
      /'human.task.nope' is not an event type/,
    ],
    [sandbox.key, { url: 'https://example.org/x', colour: 'red' }, /Unknown field 'colour'/],
    [sandbox.key, { url: 42 }, /Invalid field 'url': give a text of 1 to 2048 characters \(got the number 42\)/],
  ];
  for (const [key, body, message] of cases) {
    const res = await server.call('POST', '/webhook_endpoints', key, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match(res.json.error.message, message);
  }
  const strict = await startHumanServer({ inProcess: true, env: { WEBHOOK_ALLOW_PRIVATE: 'off' } });
  try {
    const s = strict.account('test');
    const l = strict.account('live');
    for (const url of [
      'http://127.0.0.1:9/x',
      'https://localhost/x',
      'https://10.1.2.3/x',
      'https://[::1]/x',
      'https://169.254.169.254/x',
    ]) {
      const res = await strict.call('POST', '/webhook_endpoints', s.key, { url });
      assert.equal(res.status, 400, url);
      assert.match(res.json.error.message, /loopback or private address/);
    }
    const plain = await strict.call('POST', '/webhook_endpoints', l.key, { url: 'http://example.org/x' });
    assert.match(plain.json.error.message, /must start with https:\/\/ \(a live endpoint/);
  } finally {
    await strict.cleanup();
  }
  assert.equal((await server.call('GET', '/webhook_endpoints', live.key)).json.data.length, 0, 'nothing stored');
});

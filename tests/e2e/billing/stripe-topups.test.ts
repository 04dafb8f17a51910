/**
 * Prepaid top-ups through Stripe Checkout, over real HTTP against the Stripe stand-in (issue 36): the
 * balance page's form sends the person to Checkout with the amount they typed; only the signed
 * checkout.session.completed (paid) credits it, once however often it is delivered; refunds and lost
 * disputes take back what is still available and report the rest; bad and stale signatures change
 * nothing; the ledger check holds after every test (and the operator's `ledger check` agrees at the end).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkLedgerAfterEach, verifyOrder } from '../human/harness.ts';
import {
  balance,
  customer,
  deliver,
  ledgerCheck,
  cliInProcessOn,
  outcomeOf,
  startBillingServer,
  startTopUp,
  type BillingServer,
} from './harness.ts';

let billing: BillingServer;
before(async () => {
  billing = await startBillingServer();
});
after(() => billing?.stop());
checkLedgerAfterEach(() => billing?.server);

const journals = () => billing.server.app.db.prepare('SELECT count(*) FROM human_journals').pluck().get() as number;
const events = () => billing.server.app.db.prepare('SELECT count(*) FROM stripe_events').pluck().get() as number;

test('a paid top-up is credited once though Stripe delivers it three times, from the amount Stripe signed', async () => {
  const { client, key, accountId } = await customer(billing.server);
  const session = await startTopUp(billing, client, '25.50');
  // What trio asked Stripe for: the typed amount in cents, the site's currency, the account's own customer.
  assert.equal(session.amount_total, 2550);
  assert.equal(session.currency, 'eur');
  assert.equal(session.client_reference_id, String(accountId));
  assert.ok(billing.stripe.customers.has(session.customer));

  // The browser comes back before the event: nothing is credited on the return.
  const back = await client.get(`/console/balance?checkout=done&session_id=${session.id}`);
  assert.equal(back.status, 200);
  assert.match(back.text, /credited as soon as Stripe confirms it/);
  assert.deepEqual(await balance(billing.server, key), { available: 0, held: 0 });

  const event = billing.stripe.pay(session.id);
  for (let i = 0; i < 3; i++) {
    const res = await deliver(billing, event);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.duplicate, i > 0);
    assert.equal(res.json.outcome, i === 0 ? 'credited' : 'duplicate');
  }
  // A second event naming the same session (async_payment_succeeded) credits nothing more either.
  const again = await deliver(
    billing,
    billing.stripe.event('checkout.session.async_payment_succeeded', billing.stripe.sessions.get(session.id)!),
  );
  assert.equal(again.json.outcome, 'ignored');
  assert.match(again.json.detail, /credited already/);
  assert.deepEqual(await balance(billing.server, key), { available: 2550, held: 0 });

  // The journal names the Checkout session and the payment.
  const ledger = await billing.server.call('GET', '/ledger', key);
  assert.equal(ledger.json.data.length, 1);
  const entry = ledger.json.data[0];
  assert.equal(entry.kind, 'credit');
  assert.equal(entry.available_change_cents, 2550);
  assert.ok(entry.memo.includes(session.id), entry.memo);
  assert.ok(entry.memo.includes(String(billing.stripe.sessions.get(session.id)!.payment_intent)), entry.memo);
  const page = await client.get('/console/balance');
  assert.match(page.text, /data-available="2550"/);
});

test('amounts typed as people type them; out of bounds and not amounts are refused, nothing sent to Stripe', async () => {
  const { client } = await customer(billing.server);
  for (const [typed, cents] of [
    ['19.99', 1999],
    ['20,5', 2050],
    ['€ 7', 700],
    ['500', 50000],
  ] as const) {
    const session = await startTopUp(billing, client, typed);
    assert.equal(session.amount_total, cents, typed);
  }
  const sessions = billing.stripe.sessions.size;
  for (const typed of ['4.99', '500.01', 'twenty', '10.999', '-5', '']) {
    const res = await client.post('/console/balance/top-up', { amount: typed }, { csrfFrom: '/console/balance' });
    assert.equal(res.status, 400, typed);
    assert.match(res.text, typed === '' ? /Enter an amount/ : /5\.00 to €500\.00|not an amount/, typed);
  }
  const forged = await client.post('/console/balance/top-up', { amount: '10', csrf: 'forged' });
  assert.equal(forged.status, 403);
  assert.equal(billing.stripe.sessions.size, sessions, 'no Checkout session for a refused form');
});

test('a session completed unpaid is not credited; its later payment is', async () => {
  const { client, key } = await customer(billing.server);
  const session = await startTopUp(billing, client, '30');
  const unpaid = await deliver(billing, billing.stripe.pay(session.id, { paid: false }));
  assert.equal(unpaid.status, 200);
  assert.equal(unpaid.json.outcome, 'ignored');
  assert.match(unpaid.json.detail, /unpaid: not credited/);
  assert.deepEqual(await balance(billing.server, key), { available: 0, held: 0 });
  const paid = await deliver(billing, billing.stripe.asyncPaid(session.id));
  assert.equal(paid.json.outcome, 'credited');
  assert.deepEqual(await balance(billing.server, key), { available: 3000, held: 0 });
});

test('a refund after part of the balance was spent: what is available is taken back, the rest reported', async () => {
  const { client, key, accountId } = await customer(billing.server);
  const session = await startTopUp(billing, client, '20.00');
  await deliver(billing, billing.stripe.pay(session.id));
  const order = await billing.server.order(key, verifyOrder());
  assert.equal(order.status, 201, order.text);
  const price = order.json.data.price_cents as number;
  assert.deepEqual(await balance(billing.server, key), { available: 2000 - price, held: price });
  const charge = billing.stripe.chargeOf(session.id);

  // A partial refund of 1.00 first, then the rest: the second event carries the running total 20.00.
  const first = billing.stripe.refund(String(charge.id), 100);
  const second = billing.stripe.refund(String(charge.id), 1900);
  const a = await deliver(billing, first);
  // trio re-reads the charge: the first event already sees the running total of 20.00.
  assert.equal(a.json.outcome, 'shortfall', a.text);
  const available = 2000 - price;
  assert.match(a.json.detail, new RegExp(`debited ${(available / 100).toFixed(2)} EUR`));
  assert.match(a.json.detail, new RegExp(`${(price / 100).toFixed(2)} EUR could not be taken back`));
  const b = await deliver(billing, second);
  assert.equal(b.json.outcome, 'ignored', 'the later event changes nothing: its total was applied');
  assert.deepEqual(await balance(billing.server, key), { available: 0, held: price }, 'the order keeps its hold');

  const reversal = billing.server.app.db
    .prepare('SELECT requested_cents, debited_cents, shortfall_cents FROM stripe_reversals WHERE source_id = ?')
    .get(charge.id);
  assert.deepEqual(reversal, { requested_cents: 2000, debited_cents: available, shortfall_cents: price });
  // The operator sees it: a warning in the log and the report.
  assert.ok(billing.server.logs.some((l) => l.includes('could not be taken back') && l.includes(String(accountId))));
  const report = billing.server.app.db
    .prepare("SELECT count(*) FROM stripe_events WHERE outcome = 'shortfall' AND account_id = ?")
    .pluck()
    .get(accountId);
  assert.equal(report, 1);
});

test('a lost dispute takes back what is left, once', async () => {
  const { client, key } = await customer(billing.server);
  const session = await startTopUp(billing, client, '40');
  await deliver(billing, billing.stripe.pay(session.id));
  const charge = billing.stripe.chargeOf(session.id);
  await deliver(billing, billing.stripe.refund(String(charge.id), 1000));
  assert.deepEqual(await balance(billing.server, key), { available: 3000, held: 0 });
  const lost = billing.stripe.loseDispute(String(charge.id), 4000);
  const res = await deliver(billing, lost);
  assert.equal(res.json.outcome, 'debited', res.text);
  assert.deepEqual(await balance(billing.server, key), { available: 0, held: 0 }, 'at most what the top-up still had');
  // The same dispute in a new event (Stripe resends a copy): nothing more.
  const copy = billing.stripe.event(
    'charge.dispute.closed',
    (lost as { data: { object: Record<string, unknown> } }).data.object,
  );
  assert.equal((await deliver(billing, copy)).json.outcome, 'ignored');
});

test('events out of order: a refund arriving before its checkout.session.completed', async () => {
  const { client, key } = await customer(billing.server);
  const session = await startTopUp(billing, client, '12.34');
  const completed = billing.stripe.pay(session.id);
  const refunded = billing.stripe.refund(String(billing.stripe.chargeOf(session.id).id), 234);
  const early = await deliver(billing, refunded);
  assert.equal(early.json.outcome, 'debited', early.text);
  assert.match(early.json.detail, /credited 12\.34 EUR/);
  assert.deepEqual(await balance(billing.server, key), { available: 1000, held: 0 });
  const late = await deliver(billing, completed);
  assert.equal(late.json.outcome, 'ignored');
  assert.deepEqual(await balance(billing.server, key), { available: 1000, held: 0 });
});

test('a bad signature and a replay older than the tolerance are refused with 400; nothing changes', async () => {
  const { client, key } = await customer(billing.server);
  const session = await startTopUp(billing, client, '10');
  const event = billing.stripe.pay(session.id) as { id: string };
  const before = { journals: journals(), events: events() };
  const cases: Array<[string, Parameters<typeof deliver>[2]]> = [
    ['another secret', { secret: 'whsec_notthisendpointssecret' }],
    ['no signature', { signature: null }],
    ['garbage', { signature: 't=1,v1=deadbeef' }],
    ['a replay older than 300 s', { timestamp: Math.floor(billing.server.clock.ms / 1000) - 301 }],
  ];
  for (const [name, options] of cases) {
    const res = await deliver(billing, event, options);
    assert.equal(res.status, 400, name);
    assert.equal(res.json.error.code, 'invalid_signature', name);
    assert.match(res.json.error.message, /Nothing was changed/, name);
  }
  // A body changed after signing (the amount) does not verify either.
  const payload = JSON.stringify(event);
  const tampered = await billing.server.request('POST', '/billing/stripe/webhook', {
    headers: { 'content-type': 'application/json', 'stripe-signature': billing.stripe.sign(payload) },
    body: payload.replace('"amount_total":1000', '"amount_total":100000'),
  });
  assert.equal(tampered.status, 400);
  assert.deepEqual({ journals: journals(), events: events() }, before);
  assert.equal(outcomeOf(billing.server, event.id), null);
  assert.deepEqual(await balance(billing.server, key), { available: 0, held: 0 });
  // Within the tolerance (299 s old), the same event is accepted.
  const ok = await deliver(billing, event, { timestamp: Math.floor(billing.server.clock.ms / 1000) - 299 });
  assert.equal(ok.json.outcome, 'credited');
});

test('a session in another currency is refused and reported, not credited', async () => {
  const { client, key, accountId } = await customer(billing.server);
  const session = await startTopUp(billing, client, '50');
  const res = await deliver(billing, billing.stripe.pay(session.id, { currency: 'usd' }));
  assert.equal(res.status, 200, 'acknowledged, so Stripe does not retry what will never be credited');
  assert.equal(res.json.outcome, 'refused');
  assert.match(res.json.detail, /paid in USD, not in EUR/);
  assert.deepEqual(await balance(billing.server, key), { available: 0, held: 0 });
  assert.ok(billing.server.logs.some((l) => l.includes('"level":40') && l.includes('paid in USD')));
  const row = billing.server.app.db
    .prepare('SELECT outcome, account_id FROM stripe_events WHERE detail LIKE ?')
    .get(`%${session.id}%USD%`);
  assert.deepEqual(row, { outcome: 'refused', account_id: accountId });
});

test('a customer belongs to one account: a session naming another account is refused, not credited to either', async () => {
  const a = await customer(billing.server);
  const b = await customer(billing.server);
  const session = await startTopUp(billing, a.client, '15');
  // The session is edited (in the Dashboard, say) to name account b while its customer is a's.
  billing.stripe.sessions.get(session.id)!.client_reference_id = String(b.accountId);
  const res = await deliver(billing, billing.stripe.pay(session.id));
  assert.equal(res.json.outcome, 'refused');
  assert.match(
    res.json.detail,
    new RegExp(`belongs to account ${a.accountId}, but the object names account ${b.accountId}`),
  );
  assert.deepEqual(await balance(billing.server, a.key), { available: 0, held: 0 });
  assert.deepEqual(await balance(billing.server, b.key), { available: 0, held: 0 });
  const tie = billing.server.app.db
    .prepare('SELECT account_id FROM stripe_customers WHERE customer_id = ?')
    .pluck()
    .get(session.customer);
  assert.equal(tie, a.accountId);
});

test('a balance race: a top-up arriving while orders take the balance', async () => {
  const { client, key } = await customer(billing.server);
  const first = await startTopUp(billing, client, '18');
  await deliver(billing, billing.stripe.pay(first.id));
  const second = await startTopUp(billing, client, '36');
  const topUp = billing.stripe.pay(second.id);
  // Three orders of 18.00 and the second top-up at once: whatever the interleaving, money is conserved
  // and available never goes below zero.
  const [credited, ...orders] = await Promise.all([
    deliver(billing, topUp),
    billing.server.order(key, verifyOrder()),
    billing.server.order(key, verifyOrder()),
    billing.server.order(key, verifyOrder()),
  ]);
  assert.equal(credited.json.outcome, 'credited');
  const placed = orders.filter((o) => o.status === 201).length;
  for (const o of orders) assert.ok(o.status === 201 || o.status === 402, o.text);
  assert.ok(placed >= 1);
  const now = await balance(billing.server, key);
  assert.equal(now.available + now.held, 5400, 'every cent of both top-ups is available or held');
  assert.equal(now.held, placed * 1800);
});

test('the webhook endpoint refuses what is not an event POST', async () => {
  const get = await billing.server.request('GET', '/billing/stripe/webhook');
  assert.equal(get.status, 404);
  const other = await billing.server.request('POST', '/billing/paypal/webhook', { body: '{}' });
  assert.equal(other.status, 404);
  assert.equal(other.json.error.code, 'not_found');
  // Signed but not JSON: 400, nothing recorded.
  const before = events();
  const notJson = await billing.server.request('POST', '/billing/stripe/webhook', {
    headers: { 'content-type': 'application/json', 'stripe-signature': billing.stripe.sign('not json') },
    body: 'not json',
  });
  assert.equal(notJson.status, 400, notJson.text);
  assert.equal(notJson.json.error.code, 'bad_request');
  // Larger than BODY_LIMIT_BYTES: 413, before any signature is checked.
  const huge = await billing.server.request('POST', '/billing/stripe/webhook', {
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    body: 'x'.repeat(1_048_577),
  });
  assert.equal(huge.status, 413);
  assert.equal(huge.json.error.code, 'payload_too_large');
  assert.equal(events(), before);
  // A signed unknown type is acknowledged and ignored.
  const unknown = await deliver(billing, billing.stripe.event('invoice.paid', { id: 'in_1', object: 'invoice' }));
  assert.equal(unknown.status, 200);
  assert.equal(unknown.json.outcome, 'ignored');
});

test("the operator's ledger check agrees, and billing report lists what needs a person", async () => {
  const check = await ledgerCheck(billing.server);
  assert.equal(check.code, 0, check.stdout);
  // The ledger check a real process; the reports through the same dispatch in-process.
  const report = await cliInProcessOn(billing.server, 'billing', 'report', '--json');
  assert.equal(report.code, 0, report.stdout);
  const outcomes = (JSON.parse(report.stdout).events as Array<{ outcome: string; detail: string }>).map(
    (e) => e.outcome,
  );
  assert.ok(outcomes.includes('refused') && outcomes.includes('shortfall'), outcomes.join(','));
  assert.ok(
    outcomes.every((o) => o === 'refused' || o === 'shortfall'),
    'only what needs a person, without --all',
  );
  const all = await cliInProcessOn(billing.server, 'billing', 'report', '--all', '--json');
  assert.ok((JSON.parse(all.stdout).events as Array<{ outcome: string }>).some((e) => e.outcome === 'credited'));
  const bad = await cliInProcessOn(billing.server, 'billing', 'report', '--days', 'ten');
  assert.notEqual(bad.code, 0);
});

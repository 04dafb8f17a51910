/**
 * The funding pro plan through Stripe (issue 36), over real HTTP against the Stripe stand-in: Checkout
 * in mode subscription from the console, then customer.subscription.* events keep the plan current,
 * so the tier decided per request follows Stripe on the next request (active → pro, past due and
 * cancelled → basic); events out of order resolve to the subscription's own state (re-read from
 * Stripe); the portal link; an operator's `subscription set` says which source granted the plan.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKey, setSubscription } from '../../../db/accounts.ts';
import { PRO_PRICE } from '../../helpers/stripe-standin.ts';
import { checkLedgerAfterEach } from '../human/harness.ts';
import { cliInProcessOn, cliOn, customer, deliver, startBillingServer, type BillingServer } from './harness.ts';

let billing: BillingServer;
before(async () => {
  billing = await startBillingServer();
});
after(() => billing?.stop());
checkLedgerAfterEach(() => billing?.server);

async function subscriber() {
  const person = await customer(billing.server);
  const { key } = createKey(
    billing.server.app.db,
    { accountId: person.accountId, service: 'funding', name: 'search' },
    billing.server.clock.ms,
  );
  return { ...person, fundingKey: key };
}

/** The tier a funding request is served under, read from its per-minute limit. */
async function tierOf(fundingKey: string): Promise<string> {
  const res = await billing.server.request('GET', '/funding/v1/sources', { headers: { 'x-api-key': fundingKey } });
  assert.equal(res.status, 200, res.text);
  const limits = billing.server.app.ctx.config.rateLimits.funding;
  const limit = Number(res.headers.get('x-ratelimit-limit'));
  if (limit === limits.pro.perMinute) return 'pro';
  if (limit === limits.basic.perMinute) return 'basic';
  return `unknown (${limit})`;
}

async function subscribe(person: Awaited<ReturnType<typeof subscriber>>) {
  const page = await person.client.get('/console/plan');
  assert.match(page.text, /data-tier="basic"/);
  assert.match(page.text, /Subscribe to pro with Stripe/);
  const res = await person.client.post('/console/plan/checkout', {}, { csrfFrom: '/console/plan' });
  assert.equal(res.status, 303, res.text);
  const session = billing.stripe.lastSession();
  assert.equal(res.headers.get('location'), session.url);
  assert.equal(session.mode, 'subscription');
  assert.equal(session.client_reference_id, String(person.accountId));
  return session as { id: string; customer: string };
}

const planRows = (accountId: number) =>
  billing.server.app.db
    .prepare('SELECT source, stripe_subscription_id, ends_at FROM subscriptions WHERE account_id = ? ORDER BY id')
    .all(accountId) as Array<{ source: string; stripe_subscription_id: string | null; ends_at: number | null }>;

test('a subscription created, past due, active again, cancelled: the tier follows on the next request', async () => {
  const person = await subscriber();
  assert.equal(await tierOf(person.fundingKey), 'basic');
  const session = await subscribe(person);
  const sent = billing.stripe.calls.find((c) => c.path === '/v1/checkout/sessions' && c.body.mode === 'subscription')!;
  assert.deepEqual(sent.body.line_items, [{ price: PRO_PRICE, quantity: '1' }]);

  const created = await deliver(billing, billing.stripe.pay(session.id));
  assert.equal(created.json.outcome, 'subscription', created.text);
  const subId = String(billing.stripe.sessions.get(session.id)!.subscription);
  assert.equal(await tierOf(person.fundingKey), 'pro');
  const page = await person.client.get('/console/plan');
  assert.match(page.text, /data-tier="pro"/);
  assert.match(page.text, /data-source="stripe"/);
  assert.match(page.text, /data-status="active"/);
  assert.match(page.text, /Manage billing/);

  assert.equal((await deliver(billing, billing.stripe.setStatus(subId, 'past_due'))).status, 200);
  assert.equal(await tierOf(person.fundingKey), 'basic', 'past due: the plan is not paid');
  assert.match((await person.client.get('/console/plan')).text, /A payment failed/);

  await deliver(billing, billing.stripe.setStatus(subId, 'active'));
  assert.equal(await tierOf(person.fundingKey), 'pro', 'paid again');

  await deliver(billing, billing.stripe.setStatus(subId, 'canceled'));
  assert.equal(await tierOf(person.fundingKey), 'basic');
  assert.match((await person.client.get('/console/plan')).text, /data-status="canceled"/);
  // Every row says who granted it; none is left current.
  const rows = planRows(person.accountId);
  assert.ok(rows.every((r) => r.source === 'stripe' && r.stripe_subscription_id === subId));
  assert.ok(rows.every((r) => r.ends_at !== null && r.ends_at <= billing.server.clock.ms));
});

test('the plan lasts the paid period (and a grace of two days), not forever, if no event comes', async () => {
  const person = await subscriber();
  const session = await subscribe(person);
  await deliver(billing, billing.stripe.pay(session.id));
  assert.equal(await tierOf(person.fundingKey), 'pro');
  const [row] = planRows(person.accountId);
  const sub = billing.stripe.subscriptions.get(String(billing.stripe.sessions.get(session.id)!.subscription))!;
  const periodEnd = Number((sub.items as { data: Array<{ current_period_end: number }> }).data[0]!.current_period_end);
  assert.equal(row!.ends_at, periodEnd * 1000 + 2 * 86_400_000);
});

test('events out of order: a late "active" after the cancellation leaves the plan ended', async () => {
  const person = await subscriber();
  const session = await subscribe(person);
  const completed = billing.stripe.pay(session.id);
  const subId = String(billing.stripe.sessions.get(session.id)!.subscription);
  const created = billing.stripe.event('customer.subscription.created', billing.stripe.subscriptions.get(subId)!);
  const cancelled = billing.stripe.setStatus(subId, 'canceled');
  // Stripe delivers the cancellation first, then the creation and the completed Checkout session.
  await deliver(billing, cancelled);
  await deliver(billing, created);
  await deliver(billing, completed);
  assert.equal(await tierOf(person.fundingKey), 'basic', 'each event re-read the subscription: cancelled');
  assert.equal(planRows(person.accountId).length, 0, 'no plan was ever granted from the stale snapshots');
});

test("the billing portal link opens the customer portal of the account's own customer", async () => {
  const person = await subscriber();
  const none = await person.client.post('/console/plan/portal', {}, { csrfFrom: '/console/plan' });
  assert.equal(none.status, 404, 'no Stripe customer yet');
  const session = await subscribe(person);
  await deliver(billing, billing.stripe.pay(session.id));
  const res = await person.client.post('/console/plan/portal', {}, { csrfFrom: '/console/plan' });
  assert.equal(res.status, 303);
  assert.match(String(res.headers.get('location')), /\/p\/session\/bps_/);
  const call = billing.stripe.calls.findLast((c) => c.path === '/v1/billing_portal/sessions')!;
  assert.equal(call.body.customer, session.customer);
  // The page's CSP lets its forms continue to Stripe (browsers apply form-action to the redirect).
  const page = await person.client.get('/console/plan');
  assert.match(
    String(page.headers.get('content-security-policy')),
    /form-action 'self' https:\/\/checkout\.stripe\.com https:\/\/billing\.stripe\.com http:\/\/127\.0\.0\.1:\d+/,
  );
});

test("an operator's grant is kept apart from Stripe's: Stripe's cancellation ends only the plan Stripe granted", async () => {
  const person = await subscriber();
  setSubscription(billing.server.app.db, person.accountId, 'pro', billing.server.clock.ms);
  assert.match((await person.client.get('/console/plan')).text, /data-source="operator"/);
  const refused = await person.client.post('/console/plan/checkout', {}, { csrfFrom: '/console/plan' });
  assert.equal(refused.status, 409, 'an account with pro is not offered a second plan');

  // A Stripe subscription for the same account (made before the operator's grant, say): both grant pro.
  const ctx = billing.server.app.ctx;
  await ctx.billing!.proCheckout(
    { id: person.accountId, email: person.email },
    'http://localhost',
    billing.server.clock.ms,
  );
  const session = billing.stripe.lastSession() as { id: string };
  await deliver(billing, billing.stripe.pay(session.id));
  const subId = String(billing.stripe.sessions.get(session.id)!.subscription);
  assert.equal(await tierOf(person.fundingKey), 'pro');
  assert.deepEqual(
    planRows(person.accountId).map((r) => r.source),
    ['operator', 'stripe'],
  );
  // Stripe's cancellation ends only the plan Stripe granted: the operator's grant stands.
  await deliver(billing, billing.stripe.setStatus(subId, 'canceled'));
  assert.equal(await tierOf(person.fundingKey), 'pro');
  assert.match((await person.client.get('/console/plan')).text, /data-source="operator"/);
});

test('`subscription set` ending a plan Stripe granted names it, and warns that Stripe still charges', async () => {
  // The CLI reads the real clock: the server's (and Stripe's) follow it for this test.
  billing.server.clock.ms = Date.now();
  const person = await subscriber();
  const session = await subscribe(person);
  await deliver(billing, billing.stripe.pay(session.id));
  const subId = String(billing.stripe.sessions.get(session.id)!.subscription);
  const out = await cliOn(billing.server, 'subscription', 'set', '--account', person.email, '--plan', 'none', '--json');
  assert.equal(out.code, 0, out.stdout);
  const result = JSON.parse(out.stdout);
  assert.equal(result.source, 'operator');
  assert.equal(result.replaced.source, 'stripe');
  assert.equal(result.replaced.stripe_subscription, subId);
  assert.match(result.warning, new RegExp(`${subId} is active: Stripe keeps charging it`));
  billing.server.clock.ms = Date.now() + 1;
  assert.equal(await tierOf(person.fundingKey), 'basic');
  const text = await cliInProcessOn(billing.server, 'subscription', 'set', '--account', person.email, '--plan', 'pro');
  assert.match(text.stdout, /pro, granted by the operator/);
});

test('Stripe unreachable: the person is told, nothing is charged, the event is retried later', async () => {
  const person = await subscriber();
  const session = await subscribe(person);
  const completed = billing.stripe.pay(session.id);
  billing.stripe.failing = true;
  try {
    const res = await deliver(billing, completed);
    assert.equal(res.status, 503, res.text);
    assert.equal(res.json.error.code, 'stripe_unavailable');
    const form = await person.client.post(
      '/console/balance/top-up',
      { amount: '10' },
      { csrfFrom: '/console/balance' },
    );
    assert.equal(form.status, 502);
    assert.match(form.text, /nothing was charged/);
  } finally {
    billing.stripe.failing = false;
  }
  assert.equal(await tierOf(person.fundingKey), 'basic');
  const retried = await deliver(billing, completed);
  assert.equal(retried.json.outcome, 'subscription');
  assert.equal(await tierOf(person.fundingKey), 'pro');
});

/**
 * Without Stripe configured, nothing changes (issue 36): the console says payments are not set up and
 * offers no form, the payment forms and the webhook answer 404 and write nothing, the console's CSP
 * is the strict one, and the operator's `balance credit` and `subscription set` work as before.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setSubscription } from '../../../db/accounts.ts';
import { credit } from '../../../db/human/ledger.ts';
import { checkLedgerAfterEach, startHumanServer, type HumanServer } from '../human/harness.ts';
import { customer } from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

test('the console says payments are not set up; operators grant as before', async () => {
  const { client, accountId } = await customer(server);
  const page = await client.get('/console/balance');
  assert.equal(page.status, 200);
  assert.match(page.text, /data-payments="off"/);
  assert.match(page.text, /Payments are not set up on this site/);
  assert.doesNotMatch(page.text, /action="\/console\/balance\/top-up"/);
  assert.match(String(page.headers.get('content-security-policy')), /form-action 'self';/);
  const plan = await client.get('/console/plan');
  assert.match(plan.text, /data-tier="basic"/);
  assert.match(plan.text, /the plan is granted by its operator/);

  server.app.db
    .transaction(() => credit(server.app.db, accountId, 1234, 'top-up by an operator', server.clock.ms))
    .immediate();
  setSubscription(server.app.db, accountId, 'pro', server.clock.ms);
  assert.match((await client.get('/console/balance')).text, /data-available="1234"/);
  const granted = await client.get('/console/plan');
  assert.match(granted.text, /data-tier="pro"/);
  assert.match(granted.text, /data-source="operator"/);
});

test('the payment forms and the webhook answer 404 and write nothing', async () => {
  const { client } = await customer(server);
  const count = () => server.app.db.prepare('SELECT count(*) FROM stripe_events').pluck().get() as number;
  for (const path of ['/console/balance/top-up', '/console/plan/checkout', '/console/plan/portal']) {
    const res = await client.post(path, { amount: '10' }, { csrfFrom: '/console/balance' });
    assert.equal(res.status, 404, path);
    assert.match(res.text, /Payments are not set up/);
  }
  const hook = await server.request('POST', '/billing/stripe/webhook', {
    headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    body: JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed' }),
  });
  assert.equal(hook.status, 404);
  assert.match(hook.json.error.message, /not set up on this server/);
  assert.equal(count(), 0);
});

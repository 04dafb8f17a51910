/**
 * The console's webhook page and a person's duty (issue 26): an endpoint added in the console gets its
 * secret shown once, its test button delivers a signed test event to a real receiver, and the page
 * shows the delivery; disable, enable, rotate and delete work; a verified person going on and off duty
 * changes what coverage says.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { DEMO_CATALOGUE, loadCatalogue } from '../../../db/human/catalogue.ts';
import { verifyWorker } from '../../../db/human/workers.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

let server: TestServer;
let receiver: Receiver;
before(async () => {
  server = await startTestServer({ demo: false, inProcess: true, env: { WEBHOOK_POLL_MS: '60000' } });
  loadCatalogue(server.app.db, DEMO_CATALOGUE, server.clock.ms);
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await server.cleanup();
});

test('add an endpoint, see its secret once, send a test event, see the delivery; disable, enable, rotate, delete', async () => {
  server.clock.set(new Date().toISOString());
  const client = new ConsoleClient(server);
  await client.signUp('hooks@example.org');
  const added = await client.post(
    '/console/webhooks',
    {
      url: receiver.url,
      environment: 'test',
      event_types: 'human.task.delivered human.task.expired',
      description: 'laptop',
    },
    { csrfFrom: '/console/webhooks' },
  );
  assert.equal(added.status, 200, added.text.slice(0, 300));
  const secret = /data-secret>(whsec_[^<]+)</.exec(added.text)?.[1];
  assert.ok(secret, 'the secret is shown');
  const id = /data-endpoint="(we_[0-9A-Za-z]{20})"/.exec(added.text)![1]!;
  const page = await client.get('/console/webhooks');
  assert.doesNotMatch(page.text, new RegExp(secret.replace(/[+/=]/g, '\\$&')), 'never shown again');
  assert.match(page.text, /human\.task\.delivered human\.task\.expired/);
  const tested = await client.post(`/console/webhooks/${id}/test`, {}, { csrfFrom: '/console/webhooks' });
  assert.match(tested.text, /Test event <code>evt_/);
  await server.app.webhooks!.settle();
  assert.equal(receiver.received.length, 1);
  const got = receiver.received[0]!;
  assert.equal(got.json.type, 'webhook.endpoint.test');
  new Webhook(secret).verify(got.body, {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  });
  const after = await client.get('/console/webhooks');
  assert.match(after.text, /data-status="succeeded"/);
  assert.match(after.text, /HTTP 204/);
  await client.post(`/console/webhooks/${id}/disable`, {}, { csrfFrom: '/console/webhooks' });
  assert.match((await client.get('/console/webhooks')).text, /<strong>Disabled<\/strong>/);
  await client.post(`/console/webhooks/${id}/enable`, {}, { csrfFrom: '/console/webhooks' });
  assert.match((await client.get('/console/webhooks')).text, /<strong>Enabled<\/strong>/);
  const rotated = await client.post(`/console/webhooks/${id}/rotate`, {}, { csrfFrom: '/console/webhooks' });
  const fresh = /data-secret>(whsec_[^<]+)</.exec(rotated.text)?.[1];
  assert.ok(fresh && fresh !== secret);
  // Another account cannot touch it.
  const other = new ConsoleClient(server);
  await other.signUp('other@example.org');
  const foreign = await other.post(`/console/webhooks/${id}/delete`, {}, { csrfFrom: '/console/webhooks' });
  assert.equal(foreign.status, 404);
  await client.post(`/console/webhooks/${id}/delete`, {}, { csrfFrom: '/console/webhooks' });
  assert.doesNotMatch((await client.get('/console/webhooks')).text, new RegExp(id));
  // A bad URL: the page again, saying why.
  const bad = await client.post(
    '/console/webhooks',
    { url: 'ftp://x', environment: 'test' },
    { csrfFrom: '/console/webhooks' },
  );
  assert.equal(bad.status, 400);
  assert.match(bad.text, /must start with https:\/\//);
});

test('a verified person going on and off duty changes what coverage says', async () => {
  const email = 'walker@example.org';
  const client = new ConsoleClient(server);
  await client.signUp(email);
  const account = server.app.db.prepare('SELECT id FROM accounts WHERE email = ?').pluck().get(email) as number;
  verifyWorker(server.app.db, account, [{ country_iso: 'PT', city_slug: '*' }], server.clock.ms, null, ['human.photo']);
  const lisbon = async () => {
    const cov = (await server.get('/human/v1/coverage')).json.data;
    const city = cov.countries.find((c: { country_iso: string }) => c.country_iso === 'PT').cities[0];
    return Object.fromEntries(
      city.capabilities.map((c: { capability: string; availability: Array<{ available_now: boolean }> }) => [
        c.capability,
        c.availability[0]!.available_now,
      ]),
    );
  };
  assert.match((await client.get('/console/worker')).text, /data-on-duty="no"/);
  assert.deepEqual(await lisbon(), { 'human.verify': false, 'human.photo': false });
  await client.post('/console/worker/duty', { duty: '4' }, { csrfFrom: '/console/worker' });
  assert.match((await client.get('/console/worker')).text, /data-on-duty="yes"/);
  assert.deepEqual(await lisbon(), { 'human.verify': false, 'human.photo': true });
  server.clock.advance(4 * 3_600_000);
  assert.deepEqual((await lisbon())['human.photo'], false, 'on duty for four hours only');
  await client.post('/console/worker/duty', { duty: 'open' }, { csrfFrom: '/console/worker' });
  assert.equal((await lisbon())['human.photo'], true);
  await client.post('/console/worker/duty', { duty: 'off' }, { csrfFrom: '/console/worker' });
  assert.equal((await lisbon())['human.photo'], false);
  const refused = await client.post('/console/worker/duty', { duty: 'forever' }, { csrfFrom: '/console/worker' });
  assert.equal(refused.status, 400);
  const stranger = new ConsoleClient(server);
  await stranger.signUp('stranger@example.org');
  assert.equal(
    (await stranger.post('/console/worker/duty', { duty: 'open' }, { csrfFrom: '/console/worker' })).status,
    403,
  );
});

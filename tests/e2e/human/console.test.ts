/**
 * The console's human pages at their edges: signed-out visitors are sent to sign in, forms need their
 * CSRF token, the delivery form must be multipart and within the upload limit, unknown tasks are 404,
 * and the balance page pages through a long ledger.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { credit } from '../../../db/human/ledger.ts';
import { verifyWorker } from '../../../db/human/workers.ts';
import { MAX_UPLOAD_BODY_BYTES } from '../../../lib/human/uploads.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

let n = 0;
async function signedIn(verified: boolean) {
  const client = new ConsoleClient(server);
  const email = `console${++n}@example.org`;
  await client.signUp(email);
  const id = server.app.db.prepare('SELECT id FROM accounts WHERE email = ?').pluck().get(email) as number;
  if (verified) verifyWorker(server.app.db, id, [{ country_iso: 'FR', city_slug: '*' }], server.clock.ms);
  return { client, id };
}

test('signed out: every page and form sends you to sign in', async () => {
  const visitor = new ConsoleClient(server);
  for (const path of ['/console/worker', '/console/worker/tasks/tsk_00000000000000000000', '/console/balance']) {
    const res = await visitor.get(path);
    assert.equal(res.status, 303, path);
    assert.equal(res.headers.get('location'), '/console/sign-in');
  }
  for (const action of ['accept', 'start', 'cannot-do', 'deliver']) {
    const res = await visitor.post(`/console/worker/tasks/tsk_00000000000000000000/${action}`, {});
    assert.equal(res.status, 303, action);
  }
});

test('forms without a valid CSRF token are refused', async () => {
  const { client } = await signedIn(true);
  const { key } = server.account('live', { balance: 5000 });
  const ref = (await server.order(key, verifyOrder())).json.data.ref;
  const res = await client.post(`/console/worker/tasks/${ref}/accept`, { csrf: 'forged' });
  assert.equal(res.status, 403);
  assert.equal(server.app.db.prepare('SELECT status FROM human_tasks WHERE ref = ?').pluck().get(ref), 'pending');
});

test('the delivery form: multipart only, and no larger than the upload limit', async () => {
  const { client } = await signedIn(true);
  const urlencoded = await client.post('/console/worker/tasks/tsk_00000000000000000000/deliver', { a: 'b' });
  assert.equal(urlencoded.status, 415);
  assert.match(urlencoded.text, /multipart\/form-data/);
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const big = await server.request('POST', '/console/worker/tasks/tsk_00000000000000000000/deliver', {
    redirect: 'manual',
    body: Buffer.alloc(MAX_UPLOAD_BODY_BYTES + 1),
    headers: { cookie, 'content-type': 'multipart/form-data; boundary=xyz' },
  });
  assert.equal(big.status, 413);
  assert.match(big.text, /at most 4 files of 5 MiB each/);
  const broken = await server.request('POST', '/console/worker/tasks/tsk_00000000000000000000/deliver', {
    redirect: 'manual',
    body: 'garbage',
    headers: { cookie, 'content-type': 'multipart/form-data; boundary=xyz' },
  });
  assert.equal(broken.status, 400);
});

test('an unknown task, or a sandbox one, is 404 to a person', async () => {
  const { client } = await signedIn(true);
  assert.equal((await client.get('/console/worker/tasks/tsk_00000000000000000000')).status, 404);
  const { key } = server.account('test');
  const ref = (await server.order(key, verifyOrder())).json.data.ref;
  assert.equal(
    (await client.post(`/console/worker/tasks/${ref}/accept`, {}, { csrfFrom: '/console/worker' })).status,
    404,
    'sandbox tasks go to nobody',
  );
});

test('an unverified person cannot accept', async () => {
  const { client } = await signedIn(false);
  const { key } = server.account('live', { balance: 5000 });
  const ref = (await server.order(key, verifyOrder())).json.data.ref;
  const res = await client.post(`/console/worker/tasks/${ref}/accept`, {}, { csrfFrom: '/console/worker' });
  assert.equal(res.status, 403);
  assert.match(res.text, /verified by an operator/);
});

test('the balance page pages through the ledger, 50 entries at a time', async () => {
  const { client, id } = await signedIn(false);
  server.app.db
    .transaction(() => {
      for (let i = 1; i <= 60; i++) credit(server.app.db, id, i, `top-up ${i}`, server.clock.ms + i);
    })
    .immediate();
  const first = await client.get('/console/balance');
  assert.equal((first.text.match(/<tr>\n<td data-label="When">/g) ?? []).length, 50);
  assert.match(first.text, /data-available="1830"/);
  const older = /href="\/console\/balance\?before=(\d+)"/.exec(first.text)![1];
  const second = await client.get(`/console/balance?before=${older}`);
  assert.equal((second.text.match(/<tr>\n<td data-label="When">/g) ?? []).length, 10);
  assert.match(second.text, /Newest entries/);
});

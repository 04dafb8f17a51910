/**
 * Live tasks end to end without a browser: a client orders over the API; verified people see the offer
 * in the console, race to accept it (one wins), start and deliver with photo uploads (multipart), or
 * cannot do it; the scheduler expires and completes; disputes are resolved by the operator's command.
 * The money at each step is checked against the ledger, and the invariants after every test.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { verifyWorker } from '../../../db/human/workers.ts';
import { WORKER_SHARE_BPS } from '../../../db/human/ledger.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { STOREFRONT, withExif } from '../../lib/human/jpeg-exif.ts';
import { advance, checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';
import { operator } from './operator.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

let people = 0;
/** A person with a console session, verified for the given areas (none: not verified). */
async function person(areas: Array<{ country_iso: string; city_slug: string }> | null) {
  const client = new ConsoleClient(server);
  const email = `worker${++people}@example.org`;
  await client.signUp(email);
  const id = server.app.db.prepare('SELECT id FROM accounts WHERE email = ?').pluck().get(email) as number;
  if (areas) verifyWorker(server.app.db, id, areas, server.clock.ms);
  return { client, id, email };
}

async function liveOrder(over: Record<string, unknown> = {}) {
  const client = server.account('live', { balance: 10_000 });
  const res = await server.order(client.key, verifyOrder(over));
  assert.equal(res.status, 201, res.text);
  return { ...client, ref: res.json.data.ref as string };
}

/** Posts the delivery form as a browser does: multipart, the session's cookies, the page's CSRF token. */
async function deliver(
  client: ConsoleClient,
  ref: string,
  fields: Record<string, string>,
  files: Array<{ name: string; type: string; bytes: Buffer }> = [],
) {
  const page = await client.get(`/console/worker/tasks/${ref}`);
  const form = new FormData();
  form.set('csrf', fields.csrf ?? ConsoleClient.csrf(page.text));
  for (const [k, v] of Object.entries(fields)) if (k !== 'csrf') form.set(k, v);
  for (const f of files) form.append('files', new Blob([f.bytes], { type: f.type }), f.name);
  const res = await server.request('POST', `/console/worker/tasks/${ref}/deliver`, {
    body: form,
    redirect: 'manual',
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, text: res.text, location: res.headers.get('location') };
}
const form = (client: ConsoleClient, action: string, ref: string, fields: Record<string, string> = {}) =>
  client.post(`/console/worker/tasks/${ref}/${action}`, fields, { csrfFrom: '/console/worker' });
const status = (ref: string) =>
  server.app.db.prepare('SELECT status FROM human_tasks WHERE ref = ?').pluck().get(ref) as string;
const balance = async (key: string) => (await server.call('GET', '/balance', key)).json.data;
const answer = { 'answer.verdict': 'confirmed', 'answer.note': 'Open, with a queue at the counter.', confidence: '90' };
const photo = withExif(STOREFRONT, {
  latitude: 48.86432,
  longitude: 2.37891,
  accuracyM: 6,
  gpsTime: new Date('2026-11-22T10:20:00Z'),
});

describe('who sees and gets a task', () => {
  test('offered to verified people in the area only, never to the orderer; an unverified person is told so', async () => {
    const paris = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const france = await person([{ country_iso: 'FR', city_slug: '*' }]);
    const madrid = await person([{ country_iso: 'ES', city_slug: 'madrid' }]);
    const nobody = await person(null);
    const { ref } = await liveOrder();
    assert.match((await paris.client.get('/console/worker')).text, new RegExp(ref));
    assert.match((await france.client.get('/console/worker')).text, new RegExp(ref));
    assert.doesNotMatch((await madrid.client.get('/console/worker')).text, new RegExp(ref));
    const unverified = await nobody.client.get('/console/worker');
    assert.equal(unverified.status, 200);
    assert.match(unverified.text, /not verified/);
    assert.equal((await form(madrid.client, 'accept', ref)).status, 404, 'not in their area');
    assert.equal(status(ref), 'pending');
  });

  test("a verified person is never offered, and cannot accept, their own account's order", async () => {
    const me = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const { createKey } = await import('../../../db/accounts.ts');
    const { credit } = await import('../../../db/human/ledger.ts');
    const key = createKey(
      server.app.db,
      { accountId: me.id, service: 'human', name: 'mine', environment: 'live' },
      server.clock.ms,
    ).key;
    server.app.db.transaction(() => credit(server.app.db, me.id, 5000, 'top-up', server.clock.ms)).immediate();
    const ref = (await server.order(key, verifyOrder())).json.data.ref as string;
    assert.doesNotMatch((await me.client.get('/console/worker')).text, new RegExp(ref));
    assert.equal((await form(me.client, 'accept', ref)).status, 404);
    assert.equal(status(ref), 'pending');
  });

  test('two people accept at once: exactly one gets it', async () => {
    const a = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const b = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const { ref } = await liveOrder();
    const csrfA = ConsoleClient.csrf((await a.client.get('/console/worker')).text);
    const csrfB = ConsoleClient.csrf((await b.client.get('/console/worker')).text);
    const results = await Promise.all([
      a.client.post(`/console/worker/tasks/${ref}/accept`, { csrf: csrfA }),
      b.client.post(`/console/worker/tasks/${ref}/accept`, { csrf: csrfB }),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [303, 409]);
    assert.match(results.find((r) => r.status === 409)!.text, /Someone else took this task first/);
    const holder = server.app.db.prepare('SELECT worker_account_id FROM human_tasks WHERE ref = ?').pluck().get(ref);
    assert.ok(holder === a.id || holder === b.id);
    assert.equal(status(ref), 'dispatched');
  });
});

describe('doing it', () => {
  test('accept, start, deliver with a photo; the client reads the answer and the evidence; completed after 72 hours', async () => {
    const worker = await person([{ country_iso: 'FR', city_slug: '*' }]);
    const order = await liveOrder();
    assert.equal((await form(worker.client, 'accept', order.ref)).status, 303);
    assert.equal((await form(worker.client, 'start', order.ref)).status, 303);
    assert.equal(status(order.ref), 'in_progress');
    const done = await deliver(worker.client, order.ref, { ...answer, note: 'Photo from across the street.' }, [
      { name: 'front.jpg', type: 'image/jpeg', bytes: photo },
    ]);
    assert.equal(done.status, 303, done.text);
    const result = (await server.call('GET', `/tasks/${order.ref}/result`, order.key)).json.data;
    assert.deepEqual(
      [result.status, result.answer, result.confidence_bps],
      ['delivered', { verdict: 'confirmed', note: 'Open, with a queue at the counter.' }, 9000],
    );
    const evidence = (await server.call('GET', `/tasks/${order.ref}/evidence`, order.key)).json.data;
    assert.deepEqual(
      evidence.map((e: { type: string }) => e.type),
      ['photo', 'note'],
    );
    const p = evidence[0];
    assert.equal(p.sha256, createHash('sha256').update(photo).digest('hex'));
    assert.equal(p.size_bytes, photo.length);
    assert.equal(p.captured_at, '2026-11-22T10:20:00.000Z');
    assert.equal(p.captured_at_source, 'exif');
    assert.deepEqual(
      [
        Math.round(p.position.latitude * 1e4),
        Math.round(p.position.longitude * 1e4),
        p.position.accuracy_m,
        p.position.source,
      ],
      [488643, 23789, 6, 'exif'],
    );
    const file = await server.request('GET', p.download_url, { headers: { authorization: `Bearer ${order.key}` } });
    assert.ok(file.bytes.equals(photo));
    assert.deepEqual(await balance(order.key), {
      environment: 'live',
      currency: 'EUR',
      available_cents: 8200,
      held_cents: 1800,
      open_holds: 1,
      note: null,
    });

    await advance(server, 72 * 3_600_000);
    assert.equal(status(order.ref), 'completed');
    assert.equal((await balance(order.key)).held_cents, 0);
    const owed = server.app.db
      .prepare("SELECT balance FROM human_ledger_accounts WHERE kind = 'worker_payable' AND account_id = ?")
      .pluck()
      .get(worker.id);
    assert.equal(owed, Math.floor((1800 * WORKER_SHARE_BPS) / 10_000));
    assert.match((await worker.client.get('/console/worker')).text, /Owed to you so far: <strong>€14\.40/);
  });

  test('bad deliveries are refused on the page, naming the problem, and change nothing', async () => {
    const worker = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const { ref } = await liveOrder();
    await form(worker.client, 'accept', ref);
    await form(worker.client, 'start', ref);
    const jpeg = [{ name: 'a.jpg', type: 'image/jpeg', bytes: STOREFRONT }];
    const cases: Array<[string, Record<string, string>, typeof jpeg, number, RegExp]> = [
      ['no photo', answer, [], 400, /at least 1 photo/],
      [
        'a text file named .jpg',
        answer,
        [{ name: 'fake.jpg', type: 'image/jpeg', bytes: Buffer.from('not really') }],
        400,
        /fake.jpg is not a JPEG/,
      ],
      [
        'a PDF where photos are asked',
        answer,
        [{ name: 'scan.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n') }],
        400,
        /photos \(JPEG, PNG or WebP\), not documents/,
      ],
      ['no confidence', { ...answer, confidence: '' }, jpeg, 400, /percentage from 0 to 100/],
      ['an answer outside the schema', { ...answer, 'answer.verdict': 'probably' }, jpeg, 400, /answer.verdict/],
      [
        'a missing answer field',
        { confidence: '50', 'answer.verdict': 'refuted' },
        jpeg,
        400,
        /Missing required field &#39;answer.note&#39;/,
      ],
      ['a forged CSRF token', { ...answer, csrf: 'forged' }, jpeg, 403, /expired or did not come from this site/],
    ];
    const evidenceBefore = server.app.db.prepare('SELECT count(*) FROM human_evidence').pluck().get();
    for (const [name, fields, files, code, message] of cases) {
      const res = await deliver(worker.client, ref, fields, files);
      assert.equal(res.status, code, `${name}: ${res.text.slice(0, 200)}`);
      assert.match(res.text, message, name);
      assert.equal(status(ref), 'in_progress', name);
    }
    assert.equal(server.app.db.prepare('SELECT count(*) FROM human_evidence').pluck().get(), evidenceBefore);
    const other = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    assert.equal((await deliver(other.client, ref, answer, jpeg)).status, 404, "someone else's task");
    assert.equal((await other.client.get(`/console/worker/tasks/${ref}`)).status, 404);
  });

  test('"cannot do it" fails the task and releases the hold in full', async () => {
    const worker = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const order = await liveOrder();
    await form(worker.client, 'accept', order.ref);
    assert.equal(
      (await form(worker.client, 'cannot-do', order.ref, { reason: 'Closed for works' })).status,
      409,
      'only once started',
    );
    await form(worker.client, 'start', order.ref);
    const res = await form(worker.client, 'cannot-do', order.ref, { reason: 'The building is closed for works.' });
    assert.equal(res.status, 303);
    const task = (await server.call('GET', `/tasks/${order.ref}`, order.key)).json.data;
    assert.deepEqual([task.status, task.failure.reason], ['failed', 'The building is closed for works.']);
    assert.deepEqual(await balance(order.key), {
      environment: 'live',
      currency: 'EUR',
      available_cents: 10_000,
      held_cents: 0,
      open_holds: 0,
      note: null,
    });
  });

  test('nobody takes it before the SLA passes: expired, released; a late start is refused', async () => {
    const worker = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const order = await liveOrder({ sla: 'express', max_price_cents: 3400 });
    await form(worker.client, 'accept', order.ref);
    await advance(server, 4 * 3_600_000);
    assert.equal(status(order.ref), 'expired');
    assert.equal((await balance(order.key)).available_cents, 10_000);
    const late = await form(worker.client, 'start', order.ref);
    assert.equal(late.status, 409);
    assert.match(late.text, /is expired/);
  });

  test("cancel after dispatch releases the hold; the person's page says so", async () => {
    const worker = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const order = await liveOrder();
    await form(worker.client, 'accept', order.ref);
    const res = await server.call('POST', `/tasks/${order.ref}/cancel`, order.key, { reason: 'too_slow' });
    assert.equal(res.json.data.status, 'cancelled');
    assert.equal((await balance(order.key)).available_cents, 10_000);
    assert.match((await worker.client.get(`/console/worker/tasks/${order.ref}`)).text, /This task is cancelled/);
  });
});

describe('disputes', () => {
  async function delivered() {
    const worker = await person([{ country_iso: 'FR', city_slug: 'paris' }]);
    const order = await liveOrder();
    await form(worker.client, 'accept', order.ref);
    await form(worker.client, 'start', order.ref);
    assert.equal(
      (await deliver(worker.client, order.ref, answer, [{ name: 'a.jpg', type: 'image/jpeg', bytes: photo }])).status,
      303,
    );
    const res = await server.call('POST', `/tasks/${order.ref}/dispute`, order.key, {
      reason: 'wrong_answer',
      statement: 'The bakery closes on Sundays; I called them.',
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.status, 'disputed');
    return { ...order, worker };
  }

  test('a dispute stops the clock; the operator refunds: refunded, the hold released, the answer kept', async () => {
    const order = await delivered();
    await advance(server, 100 * 3_600_000);
    assert.equal(status(order.ref), 'disputed', 'a disputed task does not complete by itself');
    const out = await operator(
      server.databasePath,
      server.clock.ms,
      'dispute',
      'resolve',
      '--task',
      order.ref,
      '--outcome',
      'refund',
      '--note',
      'The photo shows a closed shop.',
    );
    assert.deepEqual([out.status, out.resolution], ['refunded', 'refunded']);
    const task = (await server.call('GET', `/tasks/${order.ref}`, order.key)).json.data;
    assert.deepEqual(task.dispute.resolution_note, 'The photo shows a closed shop.');
    assert.equal(
      (await server.call('GET', `/tasks/${order.ref}/result`, order.key)).json.data.answer.verdict,
      'confirmed',
    );
    assert.deepEqual(await balance(order.key), {
      environment: 'live',
      currency: 'EUR',
      available_cents: 10_000,
      held_cents: 0,
      open_holds: 0,
      note: null,
    });
    await assert.rejects(
      operator(server.databasePath, server.clock.ms, 'dispute', 'resolve', '--task', order.ref, '--outcome', 'stands'),
      /not disputed/,
    );
  });

  test('the operator lets the answer stand: completed, the hold paid out', async () => {
    const order = await delivered();
    await operator(
      server.databasePath,
      server.clock.ms,
      'dispute',
      'resolve',
      '--task',
      order.ref,
      '--outcome',
      'stands',
    );
    assert.equal(status(order.ref), 'completed');
    assert.deepEqual(await balance(order.key), {
      environment: 'live',
      currency: 'EUR',
      available_cents: 8200,
      held_cents: 0,
      open_holds: 0,
      note: null,
    });
  });
});

test('the console balance page shows the same figures as the API', async () => {
  const client = new ConsoleClient(server);
  const email = 'payer@example.org';
  await client.signUp(email);
  await operator(server.databasePath, server.clock.ms, 'balance', 'credit', '--account', email, '--amount', '5000');
  const id = server.app.db.prepare('SELECT id FROM accounts WHERE email = ?').pluck().get(email) as number;
  const { createKey } = await import('../../../db/accounts.ts');
  const key = createKey(
    server.app.db,
    { accountId: id, service: 'human', name: 'k', environment: 'live' },
    server.clock.ms,
  ).key;
  await server.order(key, verifyOrder());
  const page = await client.get('/console/balance');
  assert.equal(page.status, 200);
  assert.match(page.text, /data-available="3200">€32\.00/);
  assert.match(page.text, /data-held="1800">€18\.00/);
  assert.match(page.text, /Held for an order/);
  assert.match(page.text, /Top-up/);
  assert.equal((await new ConsoleClient(server).get('/console/balance')).status, 303, 'signed out: to sign-in');
});

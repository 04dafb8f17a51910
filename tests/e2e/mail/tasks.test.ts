/**
 * Task e-mail (issue 35), against a real SMTP server: a verified person on duty who chose it is
 * e-mailed when a live task is ordered in their area (one message per task, none once someone
 * accepted it, never to people who did not choose it or whose address is not confirmed); a dispute's
 * outcome, decided with the operator's command, is e-mailed to the client account.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { verifyWorker } from '../../../db/human/workers.ts';
import { taskByRef, transition } from '../../../db/human/tasks.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { linkIn, rawHeader, startSmtp, type TestSmtp } from '../../helpers/smtp.ts';
import { startHumanServer, verifyOrder, type HumanServer } from '../human/harness.ts';
import { operator } from '../human/operator.ts';

let server: HumanServer;
let smtp: TestSmtp;
let walker: ConsoleClient;
let walkerId: number;

const deliverMail = () => server.app.mail!.deliverer.settle();

before(async () => {
  smtp = await startSmtp();
  server = await startHumanServer({ env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '60000' } });
  // A person signs up, confirms the address, is verified for Paris, goes on duty and asks for e-mail.
  walker = new ConsoleClient(server, '10.3.0.1');
  await walker.signUp('marie.walker@example.org');
  await deliverMail();
  await fetch(linkIn(smtp.received.at(-1)!, '/console/verify/'));
  assert.equal((await walker.signIn('marie.walker@example.org')).status, 303);
  walkerId = server.app.db
    .prepare('SELECT id FROM accounts WHERE email = ?')
    .pluck()
    .get('marie.walker@example.org') as number;
  verifyWorker(server.app.db, walkerId, [{ country_iso: 'FR', city_slug: 'paris' }], server.clock.ms);
  await walker.post('/console/worker/duty', { duty: 'open' }, { csrfFrom: '/console/worker' });
  const page = await walker.get('/console/worker');
  assert.match(page.text, /data-offer-mail="off"/);
  const on = await walker.post('/console/worker/offer-mail', { offer_mail: 'on' }, { csrfFrom: '/console/worker' });
  assert.equal(on.status, 303);
  assert.match((await walker.get('/console/worker')).text, /data-offer-mail="on"/);
});
after(async () => {
  await server.cleanup();
  await smtp.close();
});

test('a live task ordered where they are on duty is e-mailed once; once accepted, no more', async () => {
  const client = server.account('live', { balance: 10_000 });
  const before = smtp.received.length;
  const order = await server.order(client.key, verifyOrder());
  assert.equal(order.status, 201, order.text);
  const ref = order.json.data.ref as string;
  await deliverMail();
  assert.equal(smtp.received.length, before + 1, 'one message: the staff person did not ask for e-mail');
  const offer = smtp.received.at(-1)!;
  assert.deepEqual(offer.envelope.to, ['marie.walker@example.org']);
  assert.match(offer.mail.subject!, /^A task is offered in paris, FR: human\.verify \(\d+\.\d\d EUR\)$/);
  assert.ok(offer.mail.text!.includes(`(task ${ref})`));
  const link = linkIn(offer, '/console/worker#h-offered');
  const queue = await walker.get(new URL(link).pathname);
  assert.match(queue.text, new RegExp(`aria-label="Accept ${ref}"`), 'the link opens the queue that offers it');
  assert.match(String(rawHeader(offer, 'List-Unsubscribe')), /\/console\/unsubscribe\/tasks\.\d+\//);
  // The same task is never mailed twice to the same person.
  const rows = server.app.db
    .prepare("SELECT count(*) FROM mail_messages WHERE kind = 'task_offer' AND about = ?")
    .pluck();
  assert.equal(rows.get(`task:${ref}`), 1);

  // A second task, accepted before its message goes: withdrawn, never sent.
  const second = await server.order(client.key, verifyOrder());
  const ref2 = second.json.data.ref as string;
  const accepted = await walker.post(
    `/console/worker/tasks/${ref2}/accept`,
    {},
    { csrfFrom: `/console/worker/tasks/${ref2}` },
  );
  assert.equal(accepted.status, 303, accepted.text.slice(0, 200));
  await deliverMail();
  assert.equal(smtp.received.length, before + 1, 'no message about a task someone accepted');
  assert.equal(
    server.app.db.prepare('SELECT status FROM mail_messages WHERE about = ?').pluck().get(`task:${ref2}`),
    'cancelled',
  );
  // Sandbox tasks contact no one.
  const sandbox = server.account('test');
  assert.equal((await server.order(sandbox.key, verifyOrder())).status, 201);
  await deliverMail();
  assert.equal(smtp.received.length, before + 1);

  // One click stops them, without signing in.
  const url = String(rawHeader(offer, 'List-Unsubscribe')).slice(1, -1);
  assert.equal((await fetch(url, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status, 200);
  assert.match((await walker.get('/console/worker')).text, /data-offer-mail="off"/);
  await server.order(client.key, verifyOrder());
  await deliverMail();
  assert.equal(smtp.received.length, before + 1);
});

test("a dispute's outcome is e-mailed to the client account", async () => {
  const client = server.account('live', { balance: 10_000 });
  server.app.db.prepare("UPDATE accounts SET email_status = 'verified' WHERE id = ?").run(client.accountId);
  const ref = (await server.order(client.key, verifyOrder())).json.data.ref as string;
  const db = server.app.db;
  const step = (event: Parameters<typeof transition>[2], set = {}) =>
    db
      .transaction(() =>
        transition(db, taskByRef(db, ref)!, event, { now: server.clock.ms, actor: 'test', delayMs: 1000, set }),
      )
      .immediate();
  step('accept', { worker_account_id: walkerId });
  step('start');
  step('deliver', { answer: JSON.stringify({ verdict: 'confirmed' }), confidence_bps: 9000 });
  step('dispute', { dispute_reason: 'wrong_answer', dispute_statement: 'It is closed on Sundays.' });
  const before = smtp.received.length;
  await operator(
    server.databasePath,
    server.clock.ms,
    'dispute',
    'resolve',
    '--task',
    ref,
    '--outcome',
    'refund',
    '--note',
    'The photo shows a closed shop.',
  );
  await deliverMail();
  assert.equal(smtp.received.length, before + 1);
  const told = smtp.received.at(-1)!;
  assert.deepEqual(told.envelope.to, [client.email]);
  assert.equal(told.mail.subject, `Your dispute of task ${ref}: refunded`);
  assert.match(told.mail.text!, /you were refunded/);
  assert.match(told.mail.text!, /Their note: The photo shows a closed shop\./);
});

/**
 * The mail outbox against a real SMTP server (issue 35): a server that refuses with 4xx and then
 * accepts gets the message once, on the outbox's retry schedule; one that refuses with 5xx stops the
 * retries at once and the operator sees it (a log line, /metrics, `mail list`); messages pending at a
 * restart are delivered after it; an unreachable server never fails the request that caused one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { RETRY_DELAYS_MS } from '../../../lib/outbox/schedule.ts';
import { ROOT } from '../../helpers/cli.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.ts';

let server: TestServer;
let smtp: TestSmtp;

before(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ demo: false, env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '60000' } });
});
after(async () => {
  await server.cleanup();
  await smtp.close();
});

const deliver = () => server.app.mail!.deliverer.settle();
const row = (to: string) =>
  server.app.db.prepare('SELECT * FROM mail_messages WHERE recipient = ?').get(to) as {
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    next_attempt_at: number | null;
  };

async function cli(...args: string[]) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'main.ts', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: server.databasePath, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(stdout);
}

test('a server that says "try later" and then accepts gets the message once, retried on schedule', async () => {
  smtp.refuse = (attempt) => (attempt === 1 ? { code: 451, message: '4.3.0 Try again later' } : null);
  const signUp = await new ConsoleClient(server, '10.1.0.1').signUp('retry@example.org');
  assert.equal(signUp.status, 200);
  await deliver();
  assert.equal(smtp.received.length, 0);
  let r = row('retry@example.org');
  assert.equal(r.status, 'pending');
  assert.equal(r.attempts, 1);
  assert.equal(r.last_status, 451);
  assert.equal(r.next_attempt_at! - server.clock.ms, RETRY_DELAYS_MS[0], 'the shared schedule: 10 s');
  await deliver();
  assert.equal(smtp.attempts, 1, 'not before its time');
  server.clock.advance(RETRY_DELAYS_MS[0]);
  await deliver();
  await deliver();
  assert.equal(smtp.received.length, 1);
  assert.deepEqual(smtp.received[0]!.envelope.to, ['retry@example.org']);
  r = row('retry@example.org');
  assert.equal(r.status, 'succeeded');
  assert.equal(r.attempts, 2);
  assert.equal(r.last_status, 250);
  server.clock.advance(86_400_000);
  await deliver();
  assert.equal(smtp.received.length, 1, 'delivered once');
  smtp.refuse = null;
});

test('a server that refuses for good (5xx): no retry, reported in the log, /metrics and mail list', async () => {
  smtp.refuse = () => ({ code: 550, message: '5.1.1 No such user here' });
  const before = smtp.attempts;
  assert.equal((await new ConsoleClient(server, '10.1.0.2').signUp('gone@example.org')).status, 200);
  await deliver();
  const r = row('gone@example.org');
  assert.equal(r.status, 'failed');
  assert.equal(r.attempts, 1);
  assert.equal(r.last_status, 550);
  assert.match(r.last_error!, /No such user here/);
  server.clock.advance(86_400_000);
  await deliver();
  assert.equal(smtp.attempts, before + 1, 'tried once');
  const line = server.logs.map((l) => JSON.parse(l)).find((l) => /e-mail failed for good/.test(l.msg));
  assert.ok(line, 'a log line');
  assert.equal(line.code, 550);
  assert.match(line.msg, /refused permanently/);
  const metrics = await server.get('/metrics');
  assert.match(metrics.text, /^trio_mail_messages\{status="failed"\} 1$/m);
  assert.match(metrics.text, /^trio_mail_messages\{status="succeeded"\} 1$/m);
  const listed = await cli('mail', 'list', '--status', 'failed');
  assert.equal(listed.messages.length, 1);
  assert.equal(listed.messages[0].to, 'gone@example.org');
  assert.equal(listed.messages[0].kind, 'verify');
  assert.equal(listed.messages[0].last_status, 550);
  assert.doesNotMatch(JSON.stringify(listed), /token/, 'no token in the listing');
  smtp.refuse = null;
});

test('with the SMTP server unreachable the request succeeds; the message waits and is delivered after a restart', async () => {
  const down = await startSmtp();
  const closedUrl = down.url;
  await down.close();
  await server.restart({ SMTP_URL: closedUrl });
  const signUp = await new ConsoleClient(server, '10.1.0.3').signUp('patient@example.org');
  assert.equal(signUp.status, 200, 'the request does not wait for SMTP');
  await deliver();
  let r = row('patient@example.org');
  assert.equal(r.status, 'pending');
  assert.equal(r.attempts, 1);
  assert.equal(r.last_status, null);
  assert.match(r.last_error!, /ECONNREFUSED|connect/i);
  const received = smtp.received.length;
  await server.restart({ SMTP_URL: smtp.url });
  server.clock.advance(RETRY_DELAYS_MS[0]);
  await deliver();
  assert.equal(smtp.received.length, received + 1);
  assert.deepEqual(smtp.received.at(-1)!.envelope.to, ['patient@example.org']);
  r = row('patient@example.org');
  assert.equal(r.status, 'succeeded');
  assert.equal(r.attempts, 2);
});

test('SMTP_URL=log writes each message to the log; without SMTP_URL the site works as before and says so', async () => {
  await server.restart({ SMTP_URL: 'log' });
  assert.equal((await new ConsoleClient(server, '10.1.0.4').signUp('developer@example.org')).status, 200);
  await deliver();
  const line = server.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'e-mail (SMTP_URL=log)');
  assert.ok(line, 'logged');
  assert.equal(line.to, 'developer@example.org');
  assert.match(line.message, /^Subject: Confirm your e-mail address for the trio console$/m);
  assert.match(line.message, /Content-Type: text\/plain/);
  assert.match(line.message, /Content-Type: text\/html/);
  assert.equal(row('developer@example.org').status, 'succeeded');

  await server.restart({ SMTP_URL: '' });
  assert.equal(server.app.mail, null, 'no mail deliverer');
  const person = new ConsoleClient(server, '10.1.0.5');
  const signUp = await person.signUp('no.mail@example.org');
  assert.equal(signUp.status, 303, 'signed in at once, as before');
  assert.equal(signUp.headers.get('location'), '/console/keys');
  assert.equal(
    server.app.db.prepare("SELECT count(*) FROM mail_messages WHERE recipient = 'no.mail@example.org'").pluck().get(),
    0,
  );
  const signIn = await new ConsoleClient(server).get('/console/sign-in');
  assert.match(signIn.text, /there is no mail server to send one/);
  const forgot = await new ConsoleClient(server).get('/console/forgot');
  assert.equal(forgot.status, 404);
  assert.match(forgot.text, /This site sends no e-mail/);
  assert.doesNotMatch((await server.get('/metrics')).text, /trio_mail_messages/);
});

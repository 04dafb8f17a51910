/**
 * Accounts on a public site (issue 35), against a real SMTP server (tests/helpers/smtp.ts): sign-up
 * sends a link, the account signs in only once it is followed; "Forgot your password?" answers the
 * same with and without an account and sends one message; links used twice, expired or altered say
 * which and sign nobody in; re-sending is limited; an address with a line break or a second address
 * never reaches a header.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { queueMail } from '../../../db/mail/outbox.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { linkIn, startSmtp, type TestSmtp } from '../../helpers/smtp.ts';

const PASSWORD = 'a long enough password';
let server: TestServer;
let smtp: TestSmtp;

before(async () => {
  smtp = await startSmtp();
  server = await startTestServer({
    demo: false,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'trio console <no-reply@trio.example>', MAIL_POLL_MS: '60000' },
  });
});
after(async () => {
  await server.cleanup();
  await smtp.close();
});

const deliver = () => server.app.mail!.deliverer.settle();
const pathOf = (link: string) => new URL(link).pathname;

test('sign up, receive the message, follow its link over HTTP, then sign in', async () => {
  const person = new ConsoleClient(server, '10.0.0.1');
  const signUp = await person.signUp('ana.garcia@example.org');
  assert.equal(signUp.status, 200, signUp.text.slice(0, 300));
  assert.match(signUp.text, /We sent a link to <strong>ana\.garcia@example\.org<\/strong>/);
  assert.equal(person.cookies.has('trio_session'), false, 'signed up, not signed in');
  // Before the link: the right password does not sign in.
  const early = await person.signIn('ana.garcia@example.org');
  assert.equal(early.status, 403);
  assert.match(early.text, /not confirmed yet/);
  assert.equal((await person.get('/console/keys')).status, 303, 'no session');

  await deliver();
  assert.equal(smtp.received.length, 1);
  const [message] = smtp.received;
  assert.deepEqual(message!.envelope, { from: 'no-reply@trio.example', to: ['ana.garcia@example.org'] });
  assert.equal(message!.mail.subject, 'Confirm your e-mail address for the trio console');
  assert.equal(message!.mail.from?.value[0]?.name, 'trio console');
  assert.match(message!.mail.messageId!, /^<msg_[0-9A-Za-z]{24}@trio\.example>$/);
  assert.ok(message!.mail.html && message!.mail.text, 'an HTML part beside the plain text');
  const link = linkIn(message!, '/console/verify/');
  assert.equal(new URL(link).origin, server.url, 'the link leads to this server');
  assert.match(message!.mail.html as string, new RegExp(`href="${link}"`));

  const followed = await fetch(link, { redirect: 'manual' });
  assert.equal(followed.status, 200);
  assert.match(await followed.text(), /data-verified="yes"><strong>ana\.garcia@example\.org<\/strong> is confirmed/);
  assert.equal(
    followed.headers.getSetCookie().some((c) => c.startsWith('trio_session=')),
    false,
    'the link signs nobody in',
  );

  const signIn = await person.signIn('ana.garcia@example.org');
  assert.equal(signIn.status, 303);
  assert.equal(signIn.headers.get('location'), '/console/keys');
  const key = await person.createKey('funding', 'my key');
  assert.match(key.key!, /^fnd_/, 'a verified account gets its key');

  // Signing up again with the address: it exists, and the page says how to get a link.
  const twice = await new ConsoleClient(server, '10.0.0.9').signUp('ana.garcia@example.org');
  assert.equal(twice.status, 409);
  assert.match(twice.text, /use “Forgot your password\?” on the sign-in page/);

  // The same link again: used, said so.
  const again = await fetch(link);
  assert.equal(again.status, 404);
  assert.match(await again.text(), /used already/);
  // Altered: one character changed.
  const altered = link.slice(0, -1) + (link.endsWith('A') ? 'B' : 'A');
  const alteredPage = await fetch(altered);
  assert.equal(alteredPage.status, 404);
  assert.match(await alteredPage.text(), /not one this site made/);
  // The token is not kept once the message is sent.
  const kept = server.app.db.prepare("SELECT data FROM mail_messages WHERE kind = 'verify'").pluck().get() as string;
  assert.equal(JSON.parse(kept).token, null);
});

test('an expired verification link says so; a new one can be asked for, within limits', async () => {
  const person = new ConsoleClient(server, '10.0.0.2');
  assert.equal((await person.signUp('late.reader@example.org')).status, 200);
  await deliver();
  const first = smtp.received.at(-1)!;
  assert.deepEqual(first.envelope.to, ['late.reader@example.org']);
  server.clock.advance(25 * 3_600_000);
  const expired = await fetch(linkIn(first, '/console/verify/'));
  assert.equal(expired.status, 410);
  assert.match(await expired.text(), /This link has expired/);
  // Ask again (signed out, by address): a new message; at once again: refused for the address.
  const count = smtp.received.length;
  const resend = await person.post(
    '/console/verify',
    { email: 'late.reader@example.org' },
    { csrfFrom: '/console/sign-in' },
  );
  assert.equal(resend.status, 200);
  const tooSoon = await person.post(
    '/console/verify',
    { email: 'late.reader@example.org' },
    { csrfFrom: '/console/sign-in' },
  );
  assert.equal(tooSoon.status, 429);
  assert.match(tooSoon.headers.get('retry-after')!, /^\d+$/);
  await deliver();
  assert.equal(smtp.received.length, count + 1, 'one new message');
  const fresh = await fetch(linkIn(smtp.received.at(-1)!, '/console/verify/'));
  assert.equal(fresh.status, 200);
  assert.equal((await person.signIn('late.reader@example.org')).status, 303);
  // An address without an account waiting: the same page, no message.
  server.clock.advance(120_000);
  const nobody = await person.post(
    '/console/verify',
    { email: 'nobody@example.org' },
    { csrfFrom: '/console/sign-in' },
  );
  assert.equal(nobody.status, 200);
  await deliver();
  assert.equal(smtp.received.length, count + 1);
});

test('forgot password: the same page with and without an account, one message, and the reset signs out everywhere', async () => {
  const owner = new ConsoleClient(server, '10.0.0.3');
  assert.equal((await owner.signIn('ana.garcia@example.org')).status, 303);
  assert.equal((await owner.get('/console/keys')).status, 200);
  const signInPage = await new ConsoleClient(server).get('/console/sign-in');
  assert.match(signInPage.text, /<a href="\/console\/forgot">Forgot your password\?<\/a>/);

  const asker = new ConsoleClient(server, '10.0.0.4');
  const before = smtp.received.length;
  const known = await asker.post(
    '/console/forgot',
    { email: 'ana.garcia@example.org' },
    { csrfFrom: '/console/forgot' },
  );
  const unknown = await asker.post(
    '/console/forgot',
    { email: 'no.account@example.org' },
    { csrfFrom: '/console/forgot' },
  );
  assert.equal(known.status, 200);
  assert.equal(unknown.status, 200);
  const body = (r: { text: string }) => r.text.replace(/value="[^"]+"/g, '').replace(/<strong>[^<]+<\/strong>/, '');
  assert.equal(body(known), body(unknown), 'no account discovery: the pages differ only by the address typed');
  await deliver();
  assert.equal(smtp.received.length, before + 1, 'one message, to the account');
  const reset = smtp.received.at(-1)!;
  assert.deepEqual(reset.envelope.to, ['ana.garcia@example.org']);
  assert.equal(reset.mail.subject, 'Reset your trio console password');
  const link = linkIn(reset, '/console/password/');
  assert.match(reset.mail.text!, /until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  const expires = server.app.db.prepare('SELECT max(expires_at) - max(created_at) FROM password_tokens').pluck().get();
  assert.equal(expires, 3_600_000, 'an hour');

  const person = new ConsoleClient(server, '10.0.0.4');
  const chosen = await person.post(
    pathOf(link),
    { password: 'a new long password', confirm: 'a new long password' },
    { csrfFrom: pathOf(link) },
  );
  assert.equal(chosen.status, 303);
  assert.equal((await owner.get('/console/keys')).status, 303, 'the other session ended');
  assert.equal((await new ConsoleClient(server).signIn('ana.garcia@example.org', PASSWORD)).status, 401);
  assert.equal((await new ConsoleClient(server).signIn('ana.garcia@example.org', 'a new long password')).status, 303);
  const twice = await person.get(pathOf(link));
  assert.equal(twice.status, 404);
  assert.match(twice.text, /used already/);

  // Asked again at once for the same address: limited, whatever the account.
  const limited = await asker.post(
    '/console/forgot',
    { email: 'ana.garcia@example.org' },
    { csrfFrom: '/console/forgot' },
  );
  assert.equal(limited.status, 429);
  const limitedNobody = await asker.post(
    '/console/forgot',
    { email: 'no.account@example.org' },
    { csrfFrom: '/console/forgot' },
  );
  assert.equal(limitedNobody.status, 429);
});

test('an address with a line break or a second address never reaches a header', async () => {
  const before = smtp.received.length;
  const client = new ConsoleClient(server, '10.0.0.5');
  for (const email of [
    'victim@example.org\r\nBcc: many@example.org',
    'one@example.org,two@example.org',
    'one,two@example.org',
    '"Name" <one@example.org>',
    'one@example.org\nSubject: hi',
  ]) {
    const res = await client.post('/console/sign-up', { email, password: PASSWORD }, { csrfFrom: '/console/sign-up' });
    assert.equal(res.status, 400, email);
    const forgot = await client.post('/console/forgot', { email }, { csrfFrom: '/console/forgot' });
    assert.equal(forgot.status, 400, email);
  }
  const made = server.app.db
    .prepare("SELECT count(*) FROM accounts WHERE email LIKE '%one%' OR email LIKE '%victim%'")
    .pluck()
    .get();
  assert.equal(made, 0, 'no account stored');
  // At the outbox itself: refused before it is stored.
  for (const to of ['a@example.org\r\nBcc: b@example.org', 'a@example.org, b@example.org', 'a@example.org>']) {
    assert.throws(
      () =>
        queueMail(server.app.db, {
          accountId: null,
          to,
          kind: 'verify',
          data: { token: null, expires_at: 0 },
          now: server.clock.ms,
        }),
      /not one plain address/,
    );
  }
  await deliver();
  assert.equal(smtp.received.length, before);
  assert.equal(
    server.app.db
      .prepare("SELECT count(*) FROM mail_messages WHERE recipient NOT LIKE '%@%.%' OR recipient LIKE '%,%'")
      .pluck()
      .get(),
    0,
  );
});

/**
 * Bad input to the e-mail pages of the console (issue 35): each answers a clear 4xx page naming what
 * is wrong, changes nothing, and never a 500. SMTP_URL=log: no SMTP server is needed to refuse.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { verifyWorker } from '../../../db/human/workers.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let person: ConsoleClient;
let saved: string;

before(async () => {
  server = await startTestServer({ demo: false, inProcess: true, env: { SMTP_URL: 'log', MAIL_POLL_MS: '60000' } });
  // An account from before mail (status NULL) signs in as it always did.
  const { createAccount } = await import('../../../db/accounts.ts');
  const { hashPassword } = await import('../../../lib/passwords.ts');
  createAccount(server.app.db, 'before@example.org', server.clock.ms, await hashPassword('a long enough password'));
  person = new ConsoleClient(server);
  assert.equal((await person.signIn('before@example.org')).status, 303, 'an account from before signs in');
  const made = await person.post(
    '/console/saved-searches',
    { name: 'Solar', query: 'q=solar' },
    { csrfFrom: '/console/saved-searches' },
  );
  saved = made.headers.get('location')!;
});
after(() => server.cleanup());

const messages = () => server.app.db.prepare('SELECT count(*) FROM mail_messages').pluck().get() as number;
const alerts = () =>
  server.app.db.prepare('SELECT email, webhook FROM funding_saved_searches').get() as {
    email: string;
    webhook: number;
  };

test('the alerts and language forms refuse what they do not offer, naming it, and change nothing', async () => {
  const cases: Array<[string, Record<string, string>, number, RegExp]> = [
    [`${saved}/alerts`, { email: 'weekly' }, 400, /Choose no e-mail, each time, or the daily digest/],
    [`${saved}/alerts`, {}, 400, /Choose no e-mail/],
    [`${saved}/alerts`, { email: 'daily', webhook: 'yes' }, 400, /webhook is on or absent/],
    ['/console/saved-searches/ss_AAAAAAAAAAAAAAAAAAAA/alerts', { email: 'daily' }, 404, /No saved search/],
    ['/console/mail-language', { locale: 'fr' }, 400, /English \(en\) or Spanish \(es\)/],
  ];
  for (const [path, fields, status, message] of cases) {
    const res = await person.post(path, fields, { csrfFrom: '/console/saved-searches' });
    assert.equal(res.status, status, `${path} ${JSON.stringify(fields)}`);
    assert.match(res.text, message);
  }
  assert.deepEqual(alerts(), { email: 'off', webhook: 1 });
  assert.equal(server.app.db.prepare('SELECT DISTINCT locale FROM accounts').pluck().get(), 'en');
  // Without the form's token, or not a form: refused before anything is read.
  const noToken = await person.post(`${saved}/alerts`, { email: 'daily', csrf: 'x' });
  assert.equal(noToken.status, 403);
  const json = await person.post(
    `${saved}/alerts`,
    { email: 'daily' },
    { csrfFrom: saved, contentType: 'application/json' },
  );
  assert.equal(json.status, 415);
  assert.deepEqual(alerts(), { email: 'off', webhook: 1 });
  // Signed out: to the sign-in page.
  const stranger = new ConsoleClient(server);
  assert.equal(
    (await stranger.post(`${saved}/alerts`, { email: 'daily' }, { csrfFrom: '/console/sign-in' })).status,
    303,
  );
});

test('an account from before mail confirms its address from the console; alerts wait until it does', async () => {
  const page = await person.get('/console/saved-searches');
  assert.match(page.text, /data-unverified="yes"/);
  const before = messages();
  const sent = await person.post('/console/verify', {}, { csrfFrom: '/console/saved-searches' });
  assert.equal(sent.status, 200);
  assert.equal(messages(), before + 1);
  const again = await person.post('/console/verify', {}, { csrfFrom: '/console/saved-searches' });
  assert.equal(again.status, 429, 'one a minute per address');
  assert.equal(messages(), before + 1);
});

test('the offer-mail switch: only verified people, only on or off', async () => {
  const refused = await person.post(
    '/console/worker/offer-mail',
    { offer_mail: 'on' },
    { csrfFrom: '/console/saved-searches' },
  );
  assert.equal(refused.status, 403);
  const id = server.app.db
    .prepare("SELECT id FROM accounts WHERE email = 'before@example.org'")
    .pluck()
    .get() as number;
  verifyWorker(server.app.db, id, [{ country_iso: 'FR', city_slug: '*' }], server.clock.ms);
  const bad = await person.post(
    '/console/worker/offer-mail',
    { offer_mail: 'sometimes' },
    { csrfFrom: '/console/worker' },
  );
  assert.equal(bad.status, 400);
  assert.match(bad.text, /offer_mail is on or off/);
  assert.equal(server.app.db.prepare('SELECT offer_mail FROM human_workers').pluck().get(), 0);
});

test('forms that send a link: bad addresses are 400 and queue nothing; unsubscribe links that are not ours are 404', async () => {
  const before = messages();
  const visitor = new ConsoleClient(server);
  for (const email of ['', 'not an address', 'a@b', 'x'.repeat(250) + '@example.org']) {
    for (const path of ['/console/forgot', '/console/verify']) {
      const res = await visitor.post(path, { email }, { csrfFrom: '/console/sign-in' });
      assert.equal(res.status, 400, `${path} ${email}`);
      assert.match(res.text, /e-mail address|plain e-mail address|at most 254/);
    }
  }
  assert.equal(messages(), before);
  for (const path of [
    '/console/unsubscribe/ss_AAAAAAAAAAAAAAAAAAAA/' + 'A'.repeat(32),
    '/console/unsubscribe/everything/' + 'A'.repeat(32),
    '/console/unsubscribe/digest.1/short',
  ]) {
    assert.equal((await visitor.get(path)).status, 404, path);
    const posted = await server.request('POST', path, { body: 'List-Unsubscribe=One-Click' });
    assert.equal(posted.status, 404, path);
  }
  assert.equal((await visitor.get('/console/verify/' + 'A'.repeat(43))).status, 404);
  assert.equal((await visitor.get('/console/verify/short')).status, 404);
});

/**
 * The console's forms and cookies without a browser: sign-up and sign-in refusals, CSRF, session
 * fixation, limits on failed sign-ins, tenancy of keys, security headers, and no secret in any log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ demo: false, inProcess: true });
});
after(() => server.cleanup());

const count = (table: string) => server.app.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
let n = 0;
const email = () => `person${++n}@example.org`;

describe('sign-up', () => {
  test('creates an account, signs it in with an HttpOnly, SameSite=Lax session cookie, and lands on the keys page', async () => {
    const client = new ConsoleClient(server);
    const res = await client.signUp(email());
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/keys');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('trio_session='))!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Max-Age=604800/);
    assert.doesNotMatch(cookie, /Secure/, 'plain http here');
    const keys = await client.get('/console/keys');
    assert.equal(keys.status, 200);
    assert.match(keys.text, /Your API keys/);
  });

  test('the password is stored as a salted scrypt hash, never as typed', async () => {
    const client = new ConsoleClient(server);
    const address = email();
    await client.signUp(address, 'my very secret password');
    const hash = server.app.db
      .prepare('SELECT password_hash FROM accounts WHERE email = ?')
      .pluck()
      .get(address) as string;
    assert.match(hash, /^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const other = new ConsoleClient(server);
    const second = email();
    await other.signUp(second, 'my very secret password');
    assert.notEqual(
      server.app.db.prepare('SELECT password_hash FROM accounts WHERE email = ?').pluck().get(second),
      hash,
      'per-account salt',
    );
  });

  const refusals: Array<[string, Record<string, string>, number, RegExp]> = [
    ['a short password', { password: 'short' }, 400, /at least 10 characters/],
    ['a too-long password', { password: 'x'.repeat(201) }, 400, /at most 200 characters/],
    ['a malformed e-mail', { email: 'not-an-address' }, 400, /not an e-mail address/],
    ['a too-long e-mail', { email: `${'a'.repeat(250)}@example.org` }, 400, /at most 254 characters/],
    ['no e-mail', { email: '' }, 400, /Enter your e-mail/],
    [
      'a field sent twice',
      { password: ['a long enough password', 'another long password'] as unknown as string },
      400,
      /more than once/,
    ],
  ];
  for (const [name, change, status, message] of refusals) {
    test(`refuses ${name} with a clear message and stores nothing`, async () => {
      const before = count('accounts');
      const client = new ConsoleClient(server);
      const res = await client.post(
        '/console/sign-up',
        { email: email(), password: 'a long enough password', ...change },
        { csrfFrom: '/console/sign-up' },
      );
      assert.equal(res.status, status);
      assert.match(res.text, message);
      assert.equal(count('accounts'), before);
      assert.ok(
        !res.headers.getSetCookie().some((c) => c.startsWith('trio_session=') && !/Max-Age=0/.test(c)),
        'not signed in',
      );
    });
  }

  test('a taken e-mail (in any case) is refused clearly', async () => {
    const address = email();
    await new ConsoleClient(server).signUp(address);
    const res = await new ConsoleClient(server).signUp(address.toUpperCase());
    assert.equal(res.status, 409);
    assert.match(res.text, /exists already/);
  });
});

describe('sign-in', () => {
  test('the right password signs in with a fresh session id (no fixation); the old one is worthless', async () => {
    const address = email();
    const first = new ConsoleClient(server);
    await first.signUp(address);
    const planted = first.cookies.get('trio_session')!;
    const res = await first.signIn(address);
    assert.equal(res.status, 303);
    const fresh = first.cookies.get('trio_session')!;
    assert.notEqual(fresh, planted, 'sign-in always issues a new session id');
    const attacker = new ConsoleClient(server);
    attacker.cookies.set('trio_session', planted);
    assert.equal((await attacker.get('/console/keys')).status, 303, 'the session from before sign-in no longer works');
    const forged = new ConsoleClient(server);
    forged.cookies.set('trio_session', 'A'.repeat(43));
    assert.equal((await forged.get('/console/keys')).status, 303);
  });

  test('a wrong password and an unknown e-mail get the same answer', async () => {
    const address = email();
    await new ConsoleClient(server).signUp(address);
    const wrong = await new ConsoleClient(server).signIn(address, 'not the password at all');
    const unknown = await new ConsoleClient(server).signIn(email(), 'not the password at all');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    const message = (t: string) => /role="alert">([^<]+)</.exec(t)?.[1];
    assert.equal(message(wrong.text), message(unknown.text));
  });

  test('5 failures lock the account for 15 minutes, even for the right password; then it works', async () => {
    const address = email();
    await new ConsoleClient(server).signUp(address);
    for (let i = 0; i < 5; i++)
      assert.equal((await new ConsoleClient(server, '').signIn(address, 'wrong password!!')).status, 401);
    const locked = await new ConsoleClient(server).signIn(address);
    assert.equal(locked.status, 429);
    assert.match(locked.text, /Too many failed sign-ins/);
    assert.match(locked.headers.get('retry-after')!, /^\d+$/);
    server.clock.advance(15 * 60_000 + 1000);
    assert.equal((await new ConsoleClient(server).signIn(address)).status, 303);
  });

  test('failures from one address across many accounts are limited too', async () => {
    server.clock.advance(60 * 60_000);
    for (let i = 0; i < 20; i++) await new ConsoleClient(server).signIn(email(), 'wrong password!!');
    const res = await new ConsoleClient(server).signIn(email(), 'wrong password!!');
    assert.equal(res.status, 429);
    server.clock.advance(16 * 60_000);
  });

  test('sign-out ends the session on the server', async () => {
    const client = new ConsoleClient(server);
    await client.signUp(email());
    const token = client.cookies.get('trio_session')!;
    const res = await client.post('/console/sign-out', {}, { csrfFrom: '/console/keys' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/sign-in');
    const replay = new ConsoleClient(server);
    replay.cookies.set('trio_session', token);
    assert.equal((await replay.get('/console/keys')).status, 303, 'the old cookie no longer signs in');
  });
});

describe('CSRF', () => {
  test('a form without its token, or with a wrong one, is refused and changes nothing', async () => {
    const client = new ConsoleClient(server);
    await client.signUp(email());
    const keysBefore = count('api_keys');
    const missing = await client.post('/console/keys', { service: 'funding', name: 'x' });
    assert.equal(missing.status, 403);
    assert.match(missing.text, /expired or did not come from this site/);
    const wrong = await client.post('/console/keys', { service: 'funding', name: 'x', csrf: 'A'.repeat(43) });
    assert.equal(wrong.status, 403);
    const accountsBefore = count('accounts');
    const signup = await new ConsoleClient(server).post('/console/sign-up', {
      email: email(),
      password: 'a long enough password',
    });
    assert.equal(signup.status, 403);
    assert.equal(count('api_keys'), keysBefore);
    assert.equal(count('accounts'), accountsBefore);
  });

  test('a token from another visitor, or from before sign-in, does not work', async () => {
    const mine = new ConsoleClient(server);
    await mine.signUp(email());
    const theirs = new ConsoleClient(server);
    await theirs.signUp(email());
    const theirToken = ConsoleClient.csrf((await theirs.get('/console/keys')).text);
    assert.equal((await mine.post('/console/keys', { service: 'funding', name: 'x', csrf: theirToken })).status, 403);
    const anonymous = new ConsoleClient(server);
    const preToken = ConsoleClient.csrf((await anonymous.get('/console/sign-in')).text);
    await anonymous.signUp(email());
    assert.equal(
      (await anonymous.post('/console/keys', { service: 'funding', name: 'x', csrf: preToken })).status,
      403,
    );
  });

  test('forms must be urlencoded', async () => {
    const client = new ConsoleClient(server);
    const res = await client.post(
      '/console/sign-in',
      { email: 'a@b.cd', password: 'x' },
      { csrfFrom: '/console/sign-in', contentType: 'application/json' },
    );
    assert.equal(res.status, 415);
  });
});

describe('keys in the console', () => {
  test('create shows the key once; the list never shows it; another account cannot touch it', async () => {
    const owner = new ConsoleClient(server);
    await owner.signUp(email());
    const created = await owner.createKey('funding', 'laptop');
    assert.equal(created.status, 201);
    assert.match(created.key!, /^fnd_/);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const list = await owner.get('/console/keys');
    assert.ok(!list.text.includes(created.key!), 'the list has no secret');
    assert.match(list.text, new RegExp(`${created.key!.slice(0, 8)}…`));
    const id = server.app.db.prepare('SELECT max(id) FROM api_keys').pluck().get() as number;
    const intruder = new ConsoleClient(server);
    await intruder.signUp(email());
    for (const action of ['rotate', 'revoke']) {
      const res = await intruder.post(`/console/keys/${id}/${action}`, {}, { csrfFrom: '/console/keys' });
      assert.equal(res.status, 404, action);
    }
    assert.equal(server.app.db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').pluck().get(id), null);
  });

  test('human keys: environment and scopes; bad choices refused', async () => {
    const client = new ConsoleClient(server);
    await client.signUp(email());
    const live = await client.createKey('human', 'agent', { environment: 'live', scopes: ['tasks:read'] });
    assert.match(live.key!, /^ho_live_/);
    const row = server.app.db
      .prepare('SELECT environment, scopes FROM api_keys WHERE display_prefix = ?')
      .get(live.key!.slice(0, 12));
    assert.deepEqual(row, { environment: 'live', scopes: 'tasks:read' });
    const test_ = await client.createKey('human', 'sandbox', {
      environment: 'test',
      scopes: ['tasks:read', 'tasks:write'],
    });
    assert.match(test_.key!, /^ho_test_/);
    const none = await client.post(
      '/console/keys',
      { service: 'human', name: 'x', environment: 'test' },
      { csrfFrom: '/console/keys' },
    );
    assert.equal(none.status, 400);
    assert.match(none.text, /tasks:read, tasks:write or both/);
    const bad = await client.post('/console/keys', { service: 'weather', name: 'x' }, { csrfFrom: '/console/keys' });
    assert.equal(bad.status, 400);
    const long = await client.post(
      '/console/keys',
      { service: 'impact', name: 'x'.repeat(81) },
      { csrfFrom: '/console/keys' },
    );
    assert.equal(long.status, 400);
    assert.match(long.text, /at most 80 characters/);
  });

  test('the funding tier shown is decided live from the subscription', async () => {
    const client = new ConsoleClient(server);
    const address = email();
    await client.signUp(address);
    assert.match((await client.get('/console/keys')).text, /data-tier="basic"/);
    const { setSubscription, findAccount } = await import('../../../db/accounts.ts');
    setSubscription(server.app.db, findAccount(server.app.db, address)!.id, 'pro', server.clock.ms);
    assert.match((await client.get('/console/keys')).text, /data-tier="pro"/);
  });

  test('signed-out visitors are sent to sign in', async () => {
    const res = await new ConsoleClient(server).get('/console/keys');
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/console/sign-in');
  });
});

test('console pages carry the security headers', async () => {
  const res = await new ConsoleClient(server).get('/console/sign-in');
  const csp = res.headers.get('content-security-policy')!;
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.doesNotMatch(res.text, /<script>|\son\w+="/, 'no inline script or handlers');
  const css = await new ConsoleClient(server).get('/console/assets/console.css');
  assert.equal(css.status, 200);
  assert.equal((await new ConsoleClient(server).get('/console/nope')).status, 404);
});

test('no password, key, session cookie or CSRF token ever reaches a log line', async () => {
  const client = new ConsoleClient(server);
  await client.signUp(email(), 'a password to look for in logs');
  const { key } = await client.createKey('impact', 'logged?');
  const joined = server.logs.join('\n');
  assert.ok(!joined.includes('a password to look for in logs'));
  assert.ok(!joined.includes(key!));
  assert.ok(!joined.includes(client.cookies.get('trio_session')!));
  assert.ok(!joined.includes(client.cookies.get('trio_csrf')!));
  assert.ok(!joined.includes(ConsoleClient.csrf((await client.get('/console/keys')).text)));
  assert.ok(server.logs.length > 50, 'the log was captured');
});

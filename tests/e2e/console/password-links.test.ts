/**
 * Accounts made by an operator reach the console (issue 26: `account create` made an account no one
 * could use: sign-up said 409, sign-in 401). The CLI prints a one-time link; the person opens it,
 * chooses a password and is signed in; the link then stops working. `account password-link` issues a
 * reset, which ends the account's sessions. Expired, reused and replaced links are refused.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ConsoleClient } from '../../helpers/console.ts';
import { ROOT, runInProcess } from '../../helpers/cli.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ demo: false, inProcess: true });
});
after(() => server.cleanup());

const PASSWORD = 'a long enough password';

/**
 * The operator's command with --json: the first as a real process, the others through main.ts's same
 * dispatch in this process (tests/helpers/cli.ts), which the first has shown to be what the process runs.
 */
let spawned = false;
async function cli(...args: string[]) {
  const env = {
    ...process.env,
    DATABASE_PATH: server.databasePath,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '8080',
  };
  let stdout: string;
  if (!spawned) {
    spawned = true;
    ({ stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'main.ts', ...args, '--json'], {
      cwd: ROOT,
      env,
    }));
  } else {
    const res = await runInProcess(env, [...args, '--json']);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    stdout = res.stdout;
  }
  return JSON.parse(stdout) as {
    password_link: string;
    password_link_purpose: string;
    password_link_expires_at: string;
  };
}

/** Opens a link's page, submits the password twice; the response. */
async function choose(client: ConsoleClient, link: string, password = PASSWORD, confirm = password) {
  const path = new URL(link).pathname;
  return client.post(path, { password, confirm }, { csrfFrom: path });
}

test('account create prints a link; the person sets a password with it and is signed in; then signs in again', async () => {
  const made = await cli('account', 'create', '--email', 'walker@example.org');
  assert.match(made.password_link, /^http:\/\/127\.0\.0\.1:8080\/console\/password\/[A-Za-z0-9_-]{43}$/);
  assert.equal(made.password_link_purpose, 'set');
  const person = new ConsoleClient(server);
  const page = await person.get(new URL(made.password_link).pathname);
  assert.equal(page.status, 200);
  assert.match(page.text, /Choose a password for <strong>walker@example\.org<\/strong>/);
  // Two different passwords, or a short one: the form again, saying why; the link still works.
  assert.match(
    (await choose(person, made.password_link, PASSWORD, 'another long password')).text,
    /The two passwords differ/,
  );
  assert.match((await choose(person, made.password_link, 'short')).text, /at least 10 characters/);
  const done = await choose(person, made.password_link);
  assert.equal(done.status, 303, done.text.slice(0, 200));
  assert.equal(done.headers.get('location'), '/console/keys');
  assert.equal((await person.get('/console/keys')).status, 200, 'signed in');
  // The link works once.
  const again = await person.get(new URL(made.password_link).pathname);
  assert.equal(again.status, 404);
  assert.match(again.text, /This link was used already, or a newer one replaced it/);
  // A fresh browser signs in with the password.
  const later = new ConsoleClient(server);
  const signedIn = await later.signIn('walker@example.org', PASSWORD);
  assert.equal(signedIn.headers.get('location'), '/console/keys');
});

test('a reset link: a new password, every session ended, older links refused', async () => {
  const first = await cli(
    'account',
    'create',
    '--email',
    'reset@example.org',
    '--base-url',
    'https://trio.example.org/',
  );
  assert.match(first.password_link, /^https:\/\/trio\.example\.org\/console\/password\//);
  const browserA = new ConsoleClient(server);
  await choose(browserA, first.password_link);
  assert.equal((await browserA.get('/console/keys')).status, 200);
  const older = await cli('account', 'password-link', '--email', 'reset@example.org');
  const reset = await cli('account', 'password-link', '--email', 'reset@example.org');
  assert.equal(reset.password_link_purpose, 'reset');
  assert.equal(Date.parse(reset.password_link_expires_at) - Date.now() <= 86_400_000, true, 'a reset lasts a day');
  assert.equal((await new ConsoleClient(server).get(new URL(older.password_link).pathname)).status, 404, 'replaced');
  const browserB = new ConsoleClient(server);
  await choose(browserB, reset.password_link, 'a brand new password');
  assert.notEqual((await browserA.get('/console/keys')).status, 200, 'the old session ended');
  assert.equal((await new ConsoleClient(server).signIn('reset@example.org', PASSWORD)).status, 401);
  const ok = await new ConsoleClient(server).signIn('reset@example.org', 'a brand new password');
  assert.equal(ok.headers.get('location'), '/console/keys');
});

test('an expired link is refused; sign-up of an operator-made account says how to get in', async () => {
  const made = await cli('account', 'create', '--email', 'late@example.org');
  server.clock.set(made.password_link_expires_at); // the CLI's clock is the real one
  server.clock.advance(1);
  const expired = await new ConsoleClient(server).get(new URL(made.password_link).pathname);
  assert.equal(expired.status, 404);
  assert.match(expired.text, /This link has expired\./, 'the page says which');
  const signUp = await new ConsoleClient(server).signUp('late@example.org');
  assert.equal(signUp.status, 409);
  assert.match(signUp.text, /ask them for a one-time link/);
  const signIn = await new ConsoleClient(server).get('/console/sign-in');
  assert.match(signIn.text, /account password-link/);
  // A made-up (or altered) token is refused, saying so.
  const madeUp = await new ConsoleClient(server).get('/console/password/' + 'A'.repeat(43));
  assert.equal(madeUp.status, 404);
  assert.match(madeUp.text, /not one this site made/);
});

/**
 * The operator CLI as operators run it: `tsx main.ts …` in a child process against a temp database,
 * and the many command lines of one check through the same dispatch in this process (cliInProcess,
 * tests/helpers/cli.ts), each test keeping real spawns for what only the process shows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { hashKey } from '../../lib/keys.ts';
import { cliOnTempDatabase } from '../helpers/cli.ts';

const { cli, cliInProcess, databasePath } = cliOnTempDatabase('trio-cli-');

const json = async (...args: string[]) => {
  const res = await cliInProcess(...args, '--json');
  assert.equal(res.code, 0, res.stdout + res.stderr);
  return JSON.parse(res.stdout);
};

test('every command has --help; no command prints the overview', async () => {
  const overview = await cli();
  assert.equal(overview.code, 0);
  // One --help through the real entry: what a shell sees (stdout, exit 0). The others through the
  // same dispatch in-process: the text, the exit code and where it was written are the same code.
  const spawned = await cli('key', 'list', '--help');
  assert.equal(spawned.code, 0);
  assert.match(spawned.stdout, /^usage: main.ts key list/);
  assert.equal(spawned.stderr, '');
  for (const words of [
    'serve',
    'migrate',
    'demo',
    'funding import',
    'funding reapply-rules',
    'funding optimize-index',
    'account create',
    'key create',
    'key list',
    'key revoke',
    'key rotate',
    'subscription set',
    'impact run',
    'balance credit',
    'worker verify',
    'dispute resolve',
  ]) {
    assert.match(overview.stdout, new RegExp(words));
    const help = await cliInProcess(...words.split(' '), '--help');
    assert.equal(help.code, 0, words);
    assert.match(help.stdout, new RegExp(`^usage: main.ts ${words}`), words);
    assert.match(help.stdout, /--json/);
    assert.doesNotMatch(help.stdout, /every command takes --help/, `${words}: its own help, not the overview`);
  }
  const unknown = await cli('frobnicate');
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^usage: main.ts <command>/, 'an unknown command: the overview on stderr');
});

test('accounts, keys and subscriptions from the command line', async () => {
  assert.deepEqual((await json('migrate')).applied.length > 0, true);
  const account = (await json('account', 'create', '--email', 'ops@example.org')).account;
  assert.equal(account.email, 'ops@example.org');
  const taken = await cli('account', 'create', '--email', 'ops@example.org');
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /exists already/);

  const created = await json(
    'key',
    'create',
    '--account',
    'ops@example.org',
    '--service',
    'funding',
    '--name',
    'laptop',
  );
  assert.match(created.key, /^fnd_[0-9A-Za-z]{49}$/);
  assert.equal(created.display_prefix, created.key.slice(0, 8));
  const human = await json(
    'key',
    'create',
    '--account',
    'ops@example.org',
    '--service',
    'human',
    '--env',
    'live',
    '--scopes',
    'tasks:read',
  );
  assert.match(human.key, /^ho_live_/);
  assert.deepEqual(human.scopes, ['tasks:read']);

  const db = openDatabase(databasePath, { readonly: true });
  const stored = db.prepare('SELECT hash FROM api_keys WHERE id = ?').pluck().get(created.id);
  db.close();
  assert.equal(stored, hashKey(created.key), 'only the hash is stored');

  const listed = await cli('key', 'list', '--account', 'ops@example.org');
  assert.equal(listed.code, 0);
  assert.ok(!listed.stdout.includes(created.key), 'key list never shows a secret');
  assert.match(listed.stdout, /laptop/);

  const rotated = await json('key', 'rotate', String(created.id), '--expire-old-in', '24h');
  assert.notEqual(rotated.key, created.key);
  assert.equal(rotated.name, 'laptop');
  assert.equal(rotated.rotated_from, created.id);
  assert.ok(rotated.old_key_expires_at);

  const revoked = await json('key', 'revoke', String(created.id));
  assert.ok(revoked.revoked.revoked_at);

  assert.deepEqual(await json('subscription', 'set', '--account', 'ops@example.org', '--plan', 'pro'), {
    account: 'ops@example.org',
    plan: 'pro',
    until: null,
    source: 'operator',
    replaced: null,
    warning: null,
  });
  const ended = await json('subscription', 'set', '--account', 'ops@example.org', '--plan', 'none');
  assert.equal(ended.plan, 'none');
  assert.deepEqual(ended.replaced, { plan: 'pro', source: 'operator', stripe_subscription: null, until: null });
});

test('bad input: a clear message and a non-zero exit, nothing written', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['key', 'create', '--account', 'nobody@example.org', '--service', 'funding'], /no account with e-mail/],
    [['key', 'create', '--account', 'ops@example.org', '--service', 'weather'], /--service is one of/],
    [['key', 'create', '--account', 'ops@example.org', '--service', 'funding', '--env', 'live'], /only for human keys/],
    [
      ['key', 'create', '--account', 'ops@example.org', '--service', 'human', '--scopes', 'tasks:delete'],
      /scope tasks:delete does not exist/,
    ],
    [['key', 'revoke', 'abc'], /key id/],
    [['key', 'rotate', '1', '--expire-old-in', '30d'], /at most 7d/],
    [['account', 'create', '--email', 'not-an-address'], /not an e-mail address/],
    [['subscription', 'set', '--account', 'ops@example.org', '--plan', 'gold'], /--plan is pro or none/],
    [['funding', 'import', '--source', 'eu'], /expected FILE/],
    [['funding', 'import', '--source', 'nasa', 'x.json'], /--source is one of/],
    [['key', 'list', '--bogus'], /Unknown option/],
  ];
  for (const [args, message] of cases) {
    const res = await cliInProcess(...args);
    assert.notEqual(res.code, 0, args.join(' '));
    assert.match(res.stderr, message, args.join(' '));
  }
  // Through the real entry: a usage error exits 2 with its message on stderr, a failed command 1.
  const usage = await cli('key', 'list', '--bogus');
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Unknown option '--bogus'/);
  const asJson = await cli('key', 'revoke', '999', '--json');
  assert.equal(asJson.code, 1);
  assert.match(JSON.parse(asJson.stdout).error, /no key with id 999/);
});

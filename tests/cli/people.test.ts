/**
 * The operator commands for people (issue 26): `worker verify` with capabilities and duty, and the
 * password links of `account create` and `account password-link`, with their refusals.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { cliOnTempDatabase } from '../helpers/cli.ts';

// Real spawns of main.ts for the first command line of each kind (text and --json); the refusals and
// repeats through the same dispatch in-process (tests/helpers/cli.ts).
const { cli, cliInProcess, databasePath } = cliOnTempDatabase('trio-cli-people-');

test('worker verify: capabilities and duty, said back; bad ones refused', async () => {
  await cliInProcess('migrate');
  const db = openDatabase(databasePath);
  loadCatalogue(db, DEMO_CATALOGUE);
  db.close();
  const created = await cli('account', 'create', '--email', 'walker@example.org');
  assert.equal(created.code, 0, created.stderr);
  assert.match(
    created.stdout,
    /^created account walker@example.org\nhttp:\/\/127\.0\.0\.1:8080\/console\/password\/[A-Za-z0-9_-]{43}\n/,
  );
  assert.match(created.stdout, /shown this once/);
  const verified = await cli(
    'worker',
    'verify',
    '--account',
    'walker@example.org',
    '--cities',
    'paris',
    '--capabilities',
    'human.photo,human.verify',
    '--on-duty',
    '--json',
  );
  assert.equal(verified.code, 0, verified.stderr);
  assert.deepEqual(JSON.parse(verified.stdout), {
    account: 'walker@example.org',
    verified: true,
    areas: ['FR/paris'],
    capabilities: ['human.photo', 'human.verify'],
    on_duty: true,
  });
  const text = await cliInProcess(
    'worker',
    'verify',
    '--account',
    'walker@example.org',
    '--countries',
    'FR',
    '--off-duty',
  );
  assert.match(text.stdout, /verified for FR \(capabilities: all\); off duty/);
  for (const [args, message] of [
    [['--countries', 'FR', '--capabilities', 'human.nope'], /no capability 'human.nope'/],
    [['--countries', 'FR', '--on-duty', '--off-duty'], /--on-duty or --off-duty, not both/],
  ] as const) {
    const res = await cliInProcess('worker', 'verify', '--account', 'walker@example.org', ...args);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr + res.stdout, message);
  }
});

test('account password-link: a new link for an existing account; refusals name what is wrong', async () => {
  await cliInProcess('account', 'create', '--email', 'ops@example.org');
  const link = await cli(
    'account',
    'password-link',
    '--email',
    'ops@example.org',
    '--base-url',
    'https://trio.example.org',
    '--json',
  );
  assert.equal(link.code, 0, link.stderr);
  const out = JSON.parse(link.stdout);
  assert.match(out.password_link, /^https:\/\/trio\.example\.org\/console\/password\//);
  assert.equal(out.password_link_purpose, 'set', 'no password yet: still a first one');
  const unknown = await cliInProcess('account', 'password-link', '--email', 'nobody@example.org');
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr + unknown.stdout, /no account with e-mail nobody@example.org/);
  const badBase = await cliInProcess('account', 'create', '--email', 'x@example.org', '--base-url', 'ftp://x');
  assert.notEqual(badBase.code, 0);
  assert.match(badBase.stderr + badBase.stdout, /--base-url is the console's address/);
  const again = await cliInProcess('account', 'password-link', '--email', 'x@example.org');
  assert.notEqual(again.code, 0, 'the refused create made no account');
});

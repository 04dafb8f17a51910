/**
 * The human operator commands (cli/human.ts), run as main.ts runs them (parseArgs on the command's
 * options, then run) on their own connection to a migrated database file: credits, verification,
 * dispute resolution, catalogue loading and the ledger check, with their refusals.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { humanCommands } from '../../cli/human.ts';
import { createAccount } from '../../db/accounts.ts';
import { openDatabase } from '../../db/connection.ts';
import { workerOf } from '../../db/human/workers.ts';
import { migrate } from '../../db/migrate.ts';
import { operator } from '../e2e/human/operator.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-cli-human-'));
const path = join(dir, 'trio.sqlite');
const NOW = Date.parse('2026-11-22T10:00:00Z');
const run = (...argv: string[]) => operator(path, NOW, ...argv);
before(() => {
  const db = openDatabase(path);
  migrate(db);
  createAccount(db, 'ops@example.org', NOW);
  createAccount(db, 'walker@example.org', NOW);
  db.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("every command has a usage line and a summary, and the SPEC's three exist", () => {
  const words = humanCommands.map((c) => c.words.join(' '));
  for (const w of ['balance credit', 'worker verify', 'dispute resolve']) assert.ok(words.includes(w), w);
  for (const c of humanCommands) assert.ok(c.usage.startsWith(c.words.join(' ')) && c.summary.length > 20, c.usage);
});

test('catalogue load: the demo one, or a file; a bad file is refused with the reason', async () => {
  const loaded = await run('catalogue', 'load');
  assert.equal(loaded.capabilities, 3);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"currency": "EUR"}');
  await assert.rejects(run('catalogue', 'load', '--file', bad), /bad.json: slas/);
});

test('balance credit: cents onto the available balance, durably; refusals name the fix', async () => {
  const out = await run(
    'balance',
    'credit',
    '--account',
    'ops@example.org',
    '--amount',
    '5000',
    '--memo',
    'bank transfer 2026-11-21',
  );
  assert.deepEqual([out.credited_cents, out.available_cents, out.held_cents], [5000, 5000, 0]);
  assert.equal(
    (await run('balance', 'credit', '--account', 'ops@example.org', '--amount', '250')).available_cents,
    5250,
  );
  const text = humanCommands.find((c) => c.words.join(' ') === 'balance credit')!.text!(out);
  assert.match(text, /credited 5000 cents to ops@example.org/);
  for (const [args, message] of [
    [['--account', 'ops@example.org', '--amount', '12.50'], /positive whole number of cents/],
    [['--account', 'ops@example.org', '--amount', '0'], /positive whole number/],
    [['--account', 'ops@example.org', '--amount=-5'], /positive whole number/],
    [['--account', 'nobody@example.org', '--amount', '5'], /no account with e-mail nobody@example.org/],
    [['--amount', '5'], /--account is required/],
  ] as Array<[string[], RegExp]>)
    await assert.rejects(run('balance', 'credit', ...args), message, args.join(' '));
  assert.deepEqual((await run('ledger', 'check')).violations, []);
});

test('worker verify: whole countries, cities (bare or COUNTRY/city), within countries; revoke', async () => {
  assert.deepEqual((await run('worker', 'verify', '--account', 'walker@example.org', '--countries', 'fr,ES')).areas, [
    'ES',
    'FR',
  ]);
  assert.deepEqual(
    (await run('worker', 'verify', '--account', 'walker@example.org', '--cities', 'paris,ES/madrid')).areas,
    ['ES/madrid', 'FR/paris'],
  );
  assert.deepEqual(
    (await run('worker', 'verify', '--account', 'walker@example.org', '--countries', 'DE', '--cities', 'berlin')).areas,
    ['DE/berlin'],
  );
  for (const [args, message] of [
    [['--countries', 'France'], /two-letter codes/],
    [['--cities', 'atlantis'], /no city 'atlantis'/],
    [['--countries', 'FR', '--cities', 'madrid'], /no city 'madrid' in FR/],
    [[], /give --countries, --cities or both/],
  ] as Array<[string[], RegExp]>)
    await assert.rejects(run('worker', 'verify', '--account', 'walker@example.org', ...args), message, args.join(' '));
  const revoked = await run('worker', 'verify', '--account', 'walker@example.org', '--revoke');
  assert.equal(revoked.verified, false);
  const db = openDatabase(path);
  const id = db.prepare("SELECT id FROM accounts WHERE email = 'walker@example.org'").pluck().get() as number;
  assert.notEqual(workerOf(db, id)!.revoked_at, null);
  db.close();
  await assert.rejects(run('worker', 'verify', '--account', 'ops@example.org', '--revoke'), /never verified/);
});

test('dispute resolve: refusals for a bad outcome, an unknown task, a task not disputed', async () => {
  await assert.rejects(
    run('dispute', 'resolve', '--task', 'tsk_00000000000000000000', '--outcome', 'maybe'),
    /--outcome is stands or refund/,
  );
  await assert.rejects(
    run('dispute', 'resolve', '--task', 'tsk_00000000000000000000', '--outcome', 'refund'),
    /No task tsk_00000000000000000000/,
  );
  await assert.rejects(run('dispute', 'resolve', '--outcome', 'refund'), /--task is required/);
});

test('ledger check fails loudly on a violation', async () => {
  const db = openDatabase(path);
  db.prepare("UPDATE human_ledger_accounts SET balance = balance + 1 WHERE kind = 'customer_available'").run();
  db.close();
  await assert.rejects(run('ledger', 'check'), /1 violation\(s\):\ncached balance differs/);
});

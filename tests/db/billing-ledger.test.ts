/**
 * Migration 024 and the ledger's debit (issue 36) on a real SQLite file: a database with journals
 * written before 024 keeps every journal and posting through the rebuild (and its invariants), the
 * rebuilt tables refuse what the old ones refused, and a debit takes at most what is available.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createAccount } from '../../db/accounts.ts';
import { openDatabase } from '../../db/connection.ts';
import { ledgerViolations } from '../../db/human/invariants.ts';
import { balanceOf, credit, debitAvailable } from '../../db/human/ledger.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-billing-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const NOW = Date.parse('2026-11-22T10:00:00Z');

test('024 keeps the journals and postings written before it, and their foreign keys', () => {
  const db = openDatabase(join(dir, 'before-024.sqlite'));
  const all = loadMigrations();
  migrate(
    db,
    all.filter((m) => m.version < 24),
    NOW,
  );
  const a = createAccount(db, 'old@example.org', NOW);
  db.transaction(() => {
    credit(db, a.id, 5000, 'top-up by an operator', NOW);
    credit(db, a.id, 250, 'another', NOW);
  }).immediate();
  const dump = () => ({
    journals: db.prepare('SELECT * FROM human_journals ORDER BY id').all(),
    postings: db.prepare('SELECT * FROM human_postings ORDER BY journal_id, ledger_account_id').all(),
  });
  const before = dump();
  assert.throws(() => db.prepare("INSERT INTO human_journals (kind, memo, created_at) VALUES ('debit', 'x', 1)").run());
  migrate(db, all, NOW);
  assert.deepEqual(dump(), before);
  assert.deepEqual(ledgerViolations(db), []);
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  // The rebuilt tables still refuse a posting to no journal, a hold journal without its hold, a bad kind.
  assert.throws(() => db.prepare('INSERT INTO human_postings VALUES (999, 1, 5, 5)').run(), /FOREIGN KEY/);
  assert.throws(
    () => db.prepare("INSERT INTO human_journals (kind, memo, created_at) VALUES ('hold', 'x', 1)").run(),
    /CHECK/,
  );
  assert.throws(
    () => db.prepare("INSERT INTO human_journals (kind, memo, created_at) VALUES ('gift', 'x', 1)").run(),
    /CHECK/,
  );
  // The indexes came back.
  const indexes = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'human_%' AND name LIKE 'human_journals%' OR name = 'human_postings_by_account'",
    )
    .pluck()
    .all();
  assert.deepEqual([...indexes].sort(), [
    'human_journals_hold_placed',
    'human_journals_hold_resolved',
    'human_postings_by_account',
  ]);
  db.close();
});

test('a debit takes at most what is available, as one balanced journal, and says what it could not', () => {
  const db = openDatabase(join(dir, 'debit.sqlite'));
  migrate(db, undefined, NOW);
  const a = createAccount(db, 'debit@example.org', NOW);
  const run = <T>(fn: () => T) => db.transaction(fn).immediate();
  assert.deepEqual(
    run(() => debitAvailable(db, a.id, 100, 'nothing there', NOW)),
    { debited: 0, shortfall: 100, journalId: null },
  );
  run(() => credit(db, a.id, 1000, 'top-up', NOW));
  const partial = run(() => debitAvailable(db, a.id, 400, 'refund', NOW));
  assert.equal(partial.debited, 400);
  assert.equal(partial.shortfall, 0);
  const more = run(() => debitAvailable(db, a.id, 900, 'dispute', NOW));
  assert.deepEqual([more.debited, more.shortfall], [600, 300]);
  assert.equal(balanceOf(db, a.id).available_cents, 0);
  assert.throws(() => debitAvailable(db, a.id, 0, 'x', NOW), RangeError);
  assert.throws(() => debitAvailable(db, a.id, 1.5, 'x', NOW), RangeError);
  // The world outside got back exactly what left the balance.
  const external = db.prepare("SELECT balance FROM human_ledger_accounts WHERE kind = 'external'").pluck().get();
  assert.equal(external, -1000 + 400 + 600);
  assert.deepEqual(ledgerViolations(db), []);
  db.close();
});

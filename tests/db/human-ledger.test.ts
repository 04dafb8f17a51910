/**
 * The ledger on a real SQLite file: credits, holds, captures and releases as balanced journals; the
 * conditional hold never overdraws; a hold resolves once; the invariants catch each kind of damage.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, test } from 'node:test';
import { createAccount, createKey } from '../../db/accounts.ts';
import { openDatabase, type Db } from '../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { ledgerViolations } from '../../db/human/invariants.ts';
import {
  balanceOf,
  captureHold,
  credit,
  ledgerEntries,
  placeHold,
  releaseHold,
  WORKER_SHARE_BPS,
} from '../../db/human/ledger.ts';
import { insertTask, type TaskRow } from '../../db/human/tasks.ts';
import { migrate } from '../../db/migrate.ts';
import { isHumanError } from '../../lib/human/errors.ts';
import { HUMAN_STATUS } from '../../routes/human/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-ledger-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let db: Db;
let n = 0;
const NOW = Date.parse('2026-11-22T10:00:00Z');
beforeEach(() => {
  db?.close();
  db = openDatabase(join(dir, `l${++n}.sqlite`));
  migrate(db, undefined, NOW);
  loadCatalogue(db, DEMO_CATALOGUE, NOW);
});

function customer(balance: number) {
  const account = createAccount(db, `c${Math.random()}@example.org`, NOW);
  const key = createKey(db, { accountId: account.id, service: 'human', name: 'k', environment: 'live' }, NOW).row;
  if (balance) credit(db, account.id, balance, 'top-up', NOW);
  return { account, key };
}

function task(c: ReturnType<typeof customer>, price: number): TaskRow {
  return insertTask(
    db,
    {
      ref: `tsk_${String(++n).padStart(20, '0')}`,
      account_id: c.account.id,
      key_id: c.key.id,
      environment: 'live',
      capability: 'human.verify',
      spec: '{}',
      country_iso: 'FR',
      city_slug: 'paris',
      sla: 'standard',
      price_cents: price,
      max_price_cents: price,
      currency: 'EUR',
      sandbox_plan: null,
      created_at: NOW,
      due_at: NOW + 1,
      accept_by: null,
      metadata: null,
      client_reference: null,
    },
    1000,
  );
}

const setStatus = (t: TaskRow, status: string) =>
  db.prepare('UPDATE human_tasks SET status = ? WHERE id = ?').run(status, t.id);

test('credit, hold, capture and release keep every journal balanced and the balances right', () => {
  const c = customer(10_000);
  const worker = customer(0);
  const a = task(c, 1800);
  const b = task(c, 1200);
  placeHold(db, c.account.id, a.id, 1800, 'a', NOW);
  placeHold(db, c.account.id, b.id, 1200, 'b', NOW);
  assert.deepEqual(balanceOf(db, c.account.id), {
    available_cents: 7000,
    held_cents: 3000,
    open_holds: 2,
    payable_cents: 0,
  });
  captureHold(db, a.id, worker.account.id, 'a done', NOW);
  setStatus(a, 'completed');
  releaseHold(db, b.id, 'b cancelled', NOW);
  setStatus(b, 'cancelled');
  assert.deepEqual(balanceOf(db, c.account.id), {
    available_cents: 8200,
    held_cents: 0,
    open_holds: 0,
    payable_cents: 0,
  });
  assert.equal(balanceOf(db, worker.account.id).payable_cents, Math.floor((1800 * WORKER_SHARE_BPS) / 10_000));
  assert.deepEqual(ledgerViolations(db), []);
  const entries = ledgerEntries(db, c.account.id, { limit: 10 });
  assert.deepEqual(
    entries.map((e) => [e.kind, e.available_change, e.held_change, e.available_after, e.held_after]),
    [
      ['release', 1200, -1200, 8200, 0],
      ['capture', 0, -1800, 7000, 1200],
      ['hold', -1200, 1200, 7000, 3000],
      ['hold', -1800, 1800, 8200, 1800],
      ['credit', 10_000, 0, 10_000, 0],
    ],
  );
  assert.deepEqual(
    ledgerEntries(db, c.account.id, { limit: 2, before: entries[1]!.id }).map((e) => e.kind),
    ['hold', 'hold'],
  );
});

test('a hold the available balance does not cover is 402 and changes nothing', () => {
  const c = customer(1000);
  const t = task(c, 1800);
  assert.throws(
    () => db.transaction(() => placeHold(db, c.account.id, t.id, 1800, 'x', NOW))(),
    (e: unknown) => isHumanError(e) && HUMAN_STATUS[e.code] === 402 && e.code === 'insufficient_balance',
  );
  const nobody = customer(0);
  assert.throws(() => placeHold(db, nobody.account.id, task(nobody, 1).id, 1, 'x', NOW), /does not cover/);
  assert.deepEqual(balanceOf(db, c.account.id), {
    available_cents: 1000,
    held_cents: 0,
    open_holds: 0,
    payable_cents: 0,
  });
  assert.equal(db.prepare('SELECT count(*) FROM human_holds').pluck().get(), 0);
});

test('a hold resolves once: a second capture or release is refused', () => {
  const c = customer(5000);
  const t = task(c, 1000);
  placeHold(db, c.account.id, t.id, 1000, 'x', NOW);
  releaseHold(db, t.id, 'once', NOW);
  assert.throws(() => releaseHold(db, t.id, 'twice', NOW), /no open hold/);
  assert.throws(() => captureHold(db, t.id, null, 'after release', NOW), /no open hold/);
});

test('the invariants catch each kind of damage', () => {
  const c = customer(5000);
  const t = task(c, 1000);
  placeHold(db, c.account.id, t.id, 1000, 'x', NOW);
  assert.deepEqual(ledgerViolations(db), []);
  const damage: Array<[string, string, RegExp]> = [
    [
      'an unbalanced posting',
      'UPDATE human_postings SET amount = amount + 1 WHERE journal_id = (SELECT max(journal_id) FROM human_postings) AND amount > 0',
      /journal does not balance/,
    ],
    [
      'a cached balance off its postings',
      "UPDATE human_ledger_accounts SET balance = balance + 5 WHERE kind = 'customer_available'",
      /cached balance differs/,
    ],
    ['held differing from open holds', 'UPDATE human_holds SET amount = 999', /held differs from open holds/],
    [
      'a hold resolved without a journal',
      "UPDATE human_holds SET status = 'released', resolved_at = 1",
      /hold resolved other than once/,
    ],
    [
      'a live task without its hold state',
      "UPDATE human_tasks SET status = 'completed'",
      /live task and hold disagree/,
    ],
  ];
  for (const [name, sql, message] of damage) {
    db.exec('SAVEPOINT damage');
    db.exec(sql);
    assert.ok(
      ledgerViolations(db).some((v) => message.test(v)),
      `${name}: ${ledgerViolations(db).join('; ')}`,
    );
    db.exec('ROLLBACK TO damage');
    db.exec('RELEASE damage');
  }
  assert.deepEqual(ledgerViolations(db), []);
});

test('the database itself refuses a negative customer balance', () => {
  const c = customer(100);
  assert.throws(
    () =>
      db
        .prepare("UPDATE human_ledger_accounts SET balance = -1 WHERE kind = 'customer_available' AND account_id = ?")
        .run(c.account.id),
    /CHECK constraint/,
  );
});

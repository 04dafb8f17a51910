/**
 * What must be true of the database file after a SIGKILL and a restart, checked in one read
 * transaction (one consistent snapshot) on a read-only connection of the test's own, against what
 * the server acknowledged before it died (load.ts). Each returned string is one violation.
 *
 *  - the file is sound: PRAGMA integrity_check is ok, and the funding full-text index is consistent
 *    and indexes exactly the calls that are not withheld;
 *  - every order acknowledged with 201 exists, in its acknowledged state or one reachable from it
 *    (lib/human/states.ts), and its Idempotency-Key still names it; every acknowledged cancel is
 *    cancelled; every task has exactly one idempotency record (no order written twice);
 *  - money: every journal's postings sum to zero and the whole ledger does; no hold is resolved
 *    twice (db/human/ledger.ts resolves a hold by moving its status from 'open' and writing one
 *    capture or release journal for it); no available or held balance below zero; and the rest of
 *    db/human/invariants.ts (ledgerViolations) is empty;
 *  - no funding file is half imported: a file's calls (`eu:<identifier>`) and its funding_imports
 *    row are either all there or all absent, and all there when the import process exited 0;
 *  - the published impact runs, every row of every run table for them, hash the same as before the
 *    first kill.
 * The daily counts are read here too; the test compares them with the counts acknowledged.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Db } from '../../../db/connection.ts';
import { ledgerViolations } from '../../../db/human/invariants.ts';
import { TRANSITIONS, type Status } from '../../../lib/human/states.ts';
import type { ImportAttempt } from './import-process.ts';
import type { AckedCancel, AckedOrder } from './load.ts';

export interface Expected {
  orders: AckedOrder[];
  cancels: AckedCancel[];
  imports: ImportAttempt[];
  /** publishedRunsHash before the first kill; null on the first check (nothing to compare yet). */
  publishedHash: string | null;
  /** The buckets whose daily counts are wanted, and the UTC day. */
  buckets: string[];
  day: string;
}

export interface Findings {
  violations: string[];
  publishedHash: string;
  /** Persisted daily count per bucket (0 when none). */
  counts: Map<string, number>;
  /** Each import attempt's file as found: all in, all absent, or half (a violation). */
  importStates: Array<'in' | 'absent' | 'half'>;
}

/** Every state a task can be in after `from` (itself included), from the transition table. */
export function reachableFrom(from: Status): Set<Status> {
  const seen = new Set<Status>([from]);
  for (let grew = true; grew;) {
    grew = false;
    for (const t of Object.values(TRANSITIONS)) {
      if (t.from.some((s) => seen.has(s)) && !seen.has(t.to)) {
        seen.add(t.to);
        grew = true;
      }
    }
  }
  return seen;
}

export function checkDatabase(path: string, expected: Expected): Findings {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    return db.transaction(() => check(db, expected))();
  } finally {
    db.close();
  }
}

function check(db: Db, expected: Expected): Findings {
  const violations: string[] = [];
  const rows = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  const value = <T>(sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .get(...params) as T;

  // The file itself.
  const integrity = db.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>;
  if (integrity.map((r) => r.integrity_check).join('; ') !== 'ok')
    violations.push(`integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
  const fts = ftsIndexMismatch(db);
  if (fts) violations.push(fts);

  // Orders, cancels, idempotency.
  const byRef = db.prepare('SELECT id, status, environment FROM human_tasks WHERE ref = ?');
  const idem = db
    .prepare(
      `SELECT t.ref FROM human_idempotency i JOIN human_tasks t ON t.id = i.task_id
    WHERE i.account_id = ? AND i.environment = 'live' AND i.idempotency_key = ?`,
    )
    .pluck();
  for (const order of expected.orders) {
    const task = byRef.get(order.ref) as { id: number; status: Status; environment: string } | undefined;
    if (!task) {
      violations.push(`acknowledged order ${order.ref} is missing`);
      continue;
    }
    if (!reachableFrom(order.status as Status).has(task.status))
      violations.push(`acknowledged order ${order.ref} was ${order.status}, is ${task.status}`);
    const named = idem.get(order.caller.accountId, order.idempotencyKey.toLowerCase());
    if (named !== order.ref)
      violations.push(`Idempotency-Key ${order.idempotencyKey} of ${order.ref} names ${named ?? 'nothing'}`);
  }
  for (const cancel of expected.cancels) {
    const task = byRef.get(cancel.ref) as { status: string } | undefined;
    if (task?.status !== 'cancelled')
      violations.push(`acknowledged cancel of ${cancel.ref}: the task is ${task?.status ?? 'missing'}`);
  }
  for (const r of rows<{
    ref: string;
    records: number;
  }>(`SELECT t.ref, (SELECT count(*) FROM human_idempotency i WHERE i.task_id = t.id) AS records
    FROM human_tasks t WHERE (SELECT count(*) FROM human_idempotency i WHERE i.task_id = t.id) <> 1`)) {
    violations.push(`task ${r.ref} has ${r.records} idempotency records (an order is written once, with its key)`);
  }

  // Money.
  for (const r of rows<{
    id: number;
    kind: string;
    total: number;
  }>(`SELECT j.id, j.kind, ifnull(sum(p.amount), 0) AS total
    FROM human_journals j LEFT JOIN human_postings p ON p.journal_id = j.id GROUP BY j.id HAVING total <> 0`)) {
    violations.push(`journal ${r.id} (${r.kind}) sums to ${r.total}`);
  }
  const ledgerTotal = value<number>('SELECT ifnull(sum(amount), 0) FROM human_postings');
  if (ledgerTotal !== 0) violations.push(`the ledger's postings sum to ${ledgerTotal}`);
  for (const r of rows<{ id: number; status: string; resolutions: number; amount: number; released: number }>(`
    SELECT h.id, h.status, h.amount, count(j.id) AS resolutions,
      ifnull(-sum((SELECT p.amount FROM human_postings p JOIN human_ledger_accounts a ON a.id = p.ledger_account_id
        WHERE p.journal_id = j.id AND a.kind = 'customer_held')), 0) AS released
    FROM human_holds h LEFT JOIN human_journals j ON j.hold_id = h.id AND j.kind IN ('capture', 'release')
    GROUP BY h.id
    HAVING resolutions > 1 OR (h.status = 'open') <> (resolutions = 0) OR (resolutions = 1 AND released <> h.amount)`)) {
    violations.push(
      `hold ${r.id} (${r.status}, ${r.amount}): resolved ${r.resolutions} times, ${r.released} taken off held`,
    );
  }
  for (const r of rows<{
    kind: string;
    account_id: number;
    balance: number;
  }>(`SELECT kind, account_id, balance FROM human_ledger_accounts
    WHERE kind IN ('customer_available', 'customer_held') AND balance < 0`)) {
    violations.push(`${r.kind} of account ${r.account_id} is ${r.balance}`);
  }
  violations.push(...ledgerViolations(db).map((v) => `ledgerViolations: ${v}`));

  // Funding files: all or nothing.
  const importStates: Findings['importStates'] = [];
  for (const attempt of expected.imports) {
    const calls = value<number>(
      "SELECT count(*) FROM funding_calls WHERE source = 'eu' AND source_id >= ? AND source_id < ?",
      attempt.file.prefix,
      `${attempt.file.prefix}\uffff`,
    );
    const logged = value<number>('SELECT count(*) FROM funding_imports WHERE file_sha256 = ?', attempt.sha256);
    const total = attempt.file.identifiers.length;
    const whole = calls === total && logged === 1;
    const none = calls === 0 && logged === 0;
    importStates.push(whole ? 'in' : none ? 'absent' : 'half');
    if (!whole && !none)
      violations.push(
        `funding file ${attempt.file.prefix} half imported: ${calls} of ${total} calls, ${logged} import rows (${attempt.outcome} after ${attempt.ms} ms)`,
      );
    if (attempt.outcome === 'completed' && !whole)
      violations.push(`funding file ${attempt.file.prefix}: the import exited 0 but the file is not all in`);
  }

  const publishedHash = publishedRunsHash(db);
  if (expected.publishedHash !== null && publishedHash !== expected.publishedHash)
    violations.push(`the published impact runs changed: ${expected.publishedHash} → ${publishedHash}`);

  const count = db.prepare('SELECT count FROM quota_daily WHERE bucket = ? AND day = ?').pluck();
  const counts = new Map(expected.buckets.map((b) => [b, (count.get(b, expected.day) as number | undefined) ?? 0]));
  return { violations, publishedHash, counts, importStates };
}

/**
 * The funding full-text index: internally consistent (FTS5 'integrity-check'), and indexing exactly
 * the calls that are not withheld. (Its 'integrity-check' against the content table cannot be used:
 * withheld calls are in the content table and deliberately not indexed, db/migrations/002_funding.sql.) The
 * check is an INSERT in form, so it runs on a second, writable connection; it writes nothing.
 */
function ftsIndexMismatch(readOnly: Db): string | null {
  const unindexed = readOnly
    .prepare(
      `SELECT count(*) FROM funding_calls c WHERE c.personal_data = 0
    AND NOT EXISTS (SELECT 1 FROM funding_calls_fts_docsize d WHERE d.id = c.seq)`,
    )
    .pluck()
    .get() as number;
  const stray = readOnly
    .prepare(
      `SELECT count(*) FROM funding_calls_fts_docsize d
    WHERE NOT EXISTS (SELECT 1 FROM funding_calls c WHERE c.seq = d.id AND c.personal_data = 0)`,
    )
    .pluck()
    .get() as number;
  if (unindexed || stray)
    return `funding_calls_fts: ${unindexed} public calls not indexed, ${stray} index entries for no public call`;
  const db = new Database(readOnly.name, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare("INSERT INTO funding_calls_fts(funding_calls_fts, rank) VALUES ('integrity-check', 0)").run();
    return null;
  } catch (err) {
    return `funding_calls_fts integrity-check: ${(err as Error).message}`;
  } finally {
    db.close();
  }
}

/**
 * A SHA-256 of the published impact runs: impact_current_runs, their impact_runs rows, and every row
 * of every impact table with a run_id for them (figures, contributions, draws…), each table's rows
 * sorted by all their columns. Tables are found from the schema, so a run table added later is
 * covered without touching this.
 */
export function publishedRunsHash(db: Db): string {
  const hash = createHash('sha256');
  const tables = (
    db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'impact\\_%' ESCAPE '\\' ORDER BY name",
      )
      .pluck()
      .all() as string[]
  ).filter((t) => (db.pragma(`table_info(${t})`) as Array<{ name: string }>).some((c) => c.name === 'run_id'));
  const dump = (label: string, sql: string) => {
    const stmt = db.prepare(sql).raw();
    const columns = stmt.columns().length;
    const ordered = db.prepare(`${sql} ORDER BY ${Array.from({ length: columns }, (_, i) => i + 1).join(', ')}`).raw();
    hash.update(`${label}\n`);
    for (const row of ordered.all() as unknown[][]) {
      hash.update(JSON.stringify(row.map((v) => (Buffer.isBuffer(v) ? `blob:${v.toString('hex')}` : v))) + '\n');
    }
  };
  dump('impact_runs', 'SELECT * FROM impact_runs WHERE id IN (SELECT run_id FROM impact_current_runs)');
  for (const table of tables)
    dump(table, `SELECT * FROM ${table} WHERE run_id IN (SELECT run_id FROM impact_current_runs)`);
  return hash.digest('hex');
}

/**
 * Prepaid balances on a double-entry ledger (SPEC "states and money"). Every money movement is a
 * journal whose postings sum to zero; a posting is the signed change of one ledger account's balance,
 * which is cached on the account (and checked against the postings by ledgerViolations).
 *
 *   credit   external −x, customer_available +x           a top-up: an operator's (`balance credit`) or a paid
 *                                                         Stripe Checkout session (db/billing/effects.ts)
 *   debit    customer_available −x, external +x           money back out: a Stripe refund or lost dispute,
 *                                                         at most what is available (db/billing/effects.ts)
 *   hold     customer_available −p, customer_held +p       a live order, in the order's transaction
 *   capture  customer_held −p, worker_payable +w, platform_revenue +(p−w)   the task completed
 *   release  customer_held −p, customer_available +p       cancelled, failed, expired or refunded
 *
 * The hold is conditional (`balance >= p` in the UPDATE itself), so concurrent orders can never take
 * available below zero, and a CHECK constraint backs that up. A hold is resolved at most once: its
 * status moves from 'open' by compare-and-set, and unique indexes allow one resolving journal.
 * Every function here runs inside the caller's transaction.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { insufficientBalance } from '../../lib/human/errors.ts';

/** The person's share of a captured price, in basis points; the rest is the platform's margin. */
export const WORKER_SHARE_BPS = 8_000;

type Kind = 'customer_available' | 'customer_held' | 'worker_payable' | 'platform_revenue' | 'external';

const statements = statementsFor((db) => ({
  find: db.prepare('SELECT id FROM human_ledger_accounts WHERE kind = ? AND ifnull(account_id, 0) = ?').pluck(),
  make: db.prepare('INSERT INTO human_ledger_accounts (kind, account_id) VALUES (?, ?)'),
  add: db.prepare('UPDATE human_ledger_accounts SET balance = balance + ? WHERE id = ? RETURNING balance').pluck(),
  take: db
    .prepare(
      'UPDATE human_ledger_accounts SET balance = balance - @amount WHERE id = @id AND balance >= @amount RETURNING balance',
    )
    .pluck(),
  journal: db.prepare('INSERT INTO human_journals (kind, hold_id, memo, created_at) VALUES (?, ?, ?, ?)'),
  posting: db.prepare(
    'INSERT INTO human_postings (journal_id, ledger_account_id, amount, balance_after) VALUES (?, ?, ?, ?)',
  ),
  hold: db.prepare(
    "INSERT INTO human_holds (task_id, account_id, amount, status, created_at) VALUES (?, ?, ?, 'open', ?)",
  ),
  resolve: db.prepare(
    "UPDATE human_holds SET status = ?, resolved_at = ? WHERE task_id = ? AND status = 'open' RETURNING id, account_id, amount",
  ),
  balances: db.prepare(
    `SELECT kind, balance FROM human_ledger_accounts WHERE account_id = ? AND kind IN ('customer_available', 'customer_held', 'worker_payable')`,
  ),
  balanceOf: db.prepare('SELECT balance FROM human_ledger_accounts WHERE id = ?').pluck(),
  openHolds: db.prepare("SELECT count(*) FROM human_holds WHERE account_id = ? AND status = 'open'").pluck(),
  entries: db.prepare(`
      SELECT j.id, j.kind, j.memo, j.created_at, t.ref AS task_ref,
        sum(CASE WHEN a.kind = 'customer_available' THEN p.amount ELSE 0 END) AS available_change,
        sum(CASE WHEN a.kind = 'customer_held' THEN p.amount ELSE 0 END) AS held_change,
        ifnull((SELECT balance_after FROM human_postings q WHERE q.ledger_account_id = @available AND q.journal_id <= j.id ORDER BY q.journal_id DESC LIMIT 1), 0) AS available_after,
        ifnull((SELECT balance_after FROM human_postings q WHERE q.ledger_account_id = @held AND q.journal_id <= j.id ORDER BY q.journal_id DESC LIMIT 1), 0) AS held_after
      FROM human_postings p
      JOIN human_ledger_accounts a ON a.id = p.ledger_account_id
      JOIN human_journals j ON j.id = p.journal_id
      LEFT JOIN human_holds h ON h.id = j.hold_id
      LEFT JOIN human_tasks t ON t.id = h.task_id
      WHERE p.ledger_account_id IN (@available, @held) AND (@before IS NULL OR j.id < @before)
      GROUP BY j.id ORDER BY j.id DESC LIMIT @limit`),
}));

/** The ledger account of a kind and owner, made on first use. */
function account(db: Db, kind: Kind, owner: number | null, create = true): number | undefined {
  const s = statements(db);
  const id = s.find.get(kind, owner ?? 0) as number | undefined;
  if (id !== undefined || !create) return id;
  return Number(s.make.run(kind, owner).lastInsertRowid);
}

function journal(
  db: Db,
  kind: 'credit' | 'debit' | 'hold' | 'capture' | 'release',
  holdId: number | null,
  memo: string,
  now: number,
  postings: Array<[number, number]>,
): number {
  const s = statements(db);
  if (postings.reduce((sum, [, amount]) => sum + amount, 0) !== 0) throw new Error(`journal ${kind} does not balance`);
  const id = Number(s.journal.run(kind, holdId, memo, now).lastInsertRowid);
  for (const [accountId, amount] of postings) {
    if (amount === 0) continue;
    const after = s.add.get(amount, accountId) as number;
    s.posting.run(id, accountId, amount, after);
  }
  return id;
}

/** An operator's top-up: money from outside onto an account's available balance. */
export function credit(db: Db, accountId: number, amount: number, memo: string, now: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError('a credit is a positive whole number of cents');
  return journal(db, 'credit', null, memo, now, [
    [account(db, 'external', null)!, -amount],
    [account(db, 'customer_available', accountId)!, amount],
  ]);
}

/**
 * Takes up to `amount` back out of an account's available balance (a refund or a lost dispute of a
 * top-up): never below zero, so what is held for orders in progress or already spent stays where it
 * is. Returns what was debited (and its journal, null when nothing was available) and what was not.
 */
export function debitAvailable(
  db: Db,
  accountId: number,
  amount: number,
  memo: string,
  now: number,
): { debited: number; shortfall: number; journalId: number | null } {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('a debit is a positive whole number of cents');
  const available = account(db, 'customer_available', accountId, false);
  const balance = available === undefined ? 0 : (statements(db).balanceOf.get(available) as number);
  const debited = Math.min(amount, balance);
  if (debited === 0) return { debited: 0, shortfall: amount, journalId: null };
  const journalId = journal(db, 'debit', null, memo, now, [
    [available!, -debited],
    [account(db, 'external', null)!, debited],
  ]);
  return { debited, shortfall: amount - debited, journalId };
}

/**
 * Moves a live order's price from available to held; insufficient_balance (402 at the edge) when available is short. The decrement is
 * conditional in SQL, so it holds under any interleaving of orders.
 */
export function placeHold(
  db: Db,
  accountId: number,
  taskId: number,
  amount: number,
  memo: string,
  now: number,
  /** How the caller reads its balance (`GET /balance`, `get_balance`), named in the refusal. */
  balanceCall = 'GET /balance',
): number {
  const s = statements(db);
  const available = account(db, 'customer_available', accountId, false);
  const short = () =>
    insufficientBalance(
      `The available balance does not cover ${amount} cents; nothing was ordered or held. ${balanceCall} shows what is available; top up on the console's balance page (/console/balance), or ask the site's operator.`,
    );
  if (available === undefined) throw short();
  const after = s.take.get({ amount, id: available }) as number | undefined;
  if (after === undefined) throw short();
  const held = account(db, 'customer_held', accountId)!;
  const holdId = Number(s.hold.run(taskId, accountId, amount, now).lastInsertRowid);
  const journalId = Number(s.journal.run('hold', holdId, memo, now).lastInsertRowid);
  s.posting.run(journalId, available, -amount, after);
  s.posting.run(journalId, held, amount, s.add.get(amount, held) as number);
  return holdId;
}

/** Captures a task's open hold: the person's share to them, the rest to the platform. */
export function captureHold(db: Db, taskId: number, workerAccountId: number | null, memo: string, now: number): void {
  const hold = statements(db).resolve.get('captured', now, taskId) as
    { id: number; account_id: number; amount: number } | undefined;
  if (!hold) throw new Error(`task ${taskId} has no open hold to capture`);
  const share = workerAccountId === null ? 0 : Math.floor((hold.amount * WORKER_SHARE_BPS) / 10_000);
  const postings: Array<[number, number]> = [
    [account(db, 'customer_held', hold.account_id)!, -hold.amount],
    [account(db, 'platform_revenue', null)!, hold.amount - share],
  ];
  if (share > 0) postings.push([account(db, 'worker_payable', workerAccountId)!, share]);
  journal(db, 'capture', hold.id, memo, now, postings);
}

/** Returns a task's open hold to the available balance. */
export function releaseHold(db: Db, taskId: number, memo: string, now: number): void {
  const hold = statements(db).resolve.get('released', now, taskId) as
    { id: number; account_id: number; amount: number } | undefined;
  if (!hold) throw new Error(`task ${taskId} has no open hold to release`);
  journal(db, 'release', hold.id, memo, now, [
    [account(db, 'customer_held', hold.account_id)!, -hold.amount],
    [account(db, 'customer_available', hold.account_id)!, hold.amount],
  ]);
}

export interface Balance {
  available_cents: number;
  held_cents: number;
  open_holds: number;
  payable_cents: number;
}

export function balanceOf(db: Db, accountId: number): Balance {
  const s = statements(db);
  const rows = s.balances.all(accountId) as Array<{ kind: Kind; balance: number }>;
  const of = (kind: Kind) => rows.find((r) => r.kind === kind)?.balance ?? 0;
  return {
    available_cents: of('customer_available'),
    held_cents: of('customer_held'),
    open_holds: s.openHolds.get(accountId) as number,
    payable_cents: of('worker_payable'),
  };
}

export interface LedgerEntry {
  id: number;
  kind: string;
  memo: string;
  created_at: number;
  task_ref: string | null;
  available_change: number;
  held_change: number;
  available_after: number;
  held_after: number;
}

/** The journals that touched an account's available or held balance, newest first. */
export function ledgerEntries(
  db: Db,
  accountId: number,
  page: { before?: number | null; limit: number },
): LedgerEntry[] {
  const available = account(db, 'customer_available', accountId, false) ?? -1;
  const held = account(db, 'customer_held', accountId, false) ?? -1;
  return statements(db).entries.all({
    available,
    held,
    before: page.before ?? null,
    limit: page.limit,
  }) as LedgerEntry[];
}

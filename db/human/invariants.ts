/**
 * The ledger's invariants, checked as queries over the whole database. The end-to-end tests run this
 * after every test; an operator can run it too. Each returned string is one violation; [] means sound.
 *
 * 1. Every journal has at least two postings and they sum to zero.
 * 2. Every ledger account's cached balance equals the sum of its postings.
 * 3. No customer's available or held balance is negative.
 * 4. A customer's held balance equals the sum of their open holds.
 * 5. A hold is placed by exactly one journal and resolved by at most one (exactly one unless open).
 * 6. Live tasks and holds agree: an unfinished live task has an open hold of its price; a completed
 *    one a captured hold; a cancelled, failed, expired or refunded one a released hold. Sandbox
 *    tasks have no hold and no journal.
 * 7. A Stripe top-up (db/billing/effects.ts) is one credit journal of its amount to its account's
 *    available balance; a refund or lost dispute's debit takes exactly what it says it took.
 */
import type { Db } from '../connection.ts';

const CHECKS: Array<[string, string]> = [
  [
    'journal does not balance',
    `SELECT j.id || ' (' || j.kind || '): sum ' || ifnull(sum(p.amount), 0) || ', ' || count(p.journal_id) || ' postings'
    FROM human_journals j LEFT JOIN human_postings p ON p.journal_id = j.id GROUP BY j.id HAVING ifnull(sum(p.amount), 0) <> 0 OR count(p.journal_id) < 2`,
  ],
  [
    'cached balance differs from postings',
    `SELECT a.id || ' ' || a.kind || ': cached ' || a.balance || ', postings ' || ifnull((SELECT sum(amount) FROM human_postings p WHERE p.ledger_account_id = a.id), 0)
    FROM human_ledger_accounts a WHERE a.balance <> ifnull((SELECT sum(amount) FROM human_postings p WHERE p.ledger_account_id = a.id), 0)`,
  ],
  [
    'negative customer balance',
    `SELECT a.kind || ' of account ' || a.account_id || ': ' || a.balance
    FROM human_ledger_accounts a WHERE a.kind IN ('customer_available', 'customer_held') AND a.balance < 0`,
  ],
  [
    'held differs from open holds',
    `SELECT 'account ' || owner || ': held ' || held || ', open holds ' || open FROM (
      SELECT owner, sum(held) AS held, sum(open) AS open FROM (
        SELECT account_id AS owner, balance AS held, 0 AS open FROM human_ledger_accounts WHERE kind = 'customer_held'
        UNION ALL SELECT account_id, 0, amount FROM human_holds WHERE status = 'open')
      GROUP BY owner) WHERE held <> open`,
  ],
  [
    'hold placed other than once',
    `SELECT h.id || ': ' || (SELECT count(*) FROM human_journals j WHERE j.hold_id = h.id AND j.kind = 'hold') || ' hold journals'
    FROM human_holds h WHERE (SELECT count(*) FROM human_journals j WHERE j.hold_id = h.id AND j.kind = 'hold') <> 1`,
  ],
  [
    'hold resolved other than once',
    `SELECT h.id || ' (' || h.status || '): ' || (SELECT count(*) FROM human_journals j WHERE j.hold_id = h.id AND j.kind IN ('capture', 'release')) || ' resolving journals'
    FROM human_holds h WHERE (SELECT count(*) FROM human_journals j WHERE j.hold_id = h.id AND j.kind IN ('capture', 'release'))
      <> CASE h.status WHEN 'open' THEN 0 ELSE 1 END
      OR EXISTS (SELECT 1 FROM human_journals j WHERE j.hold_id = h.id AND j.kind = CASE h.status WHEN 'captured' THEN 'release' WHEN 'released' THEN 'capture' ELSE '' END)`,
  ],
  [
    'live task and hold disagree',
    `SELECT t.ref || ' ' || t.status || ': hold ' || ifnull(h.status, 'missing') || ' of ' || ifnull(h.amount, 0) || ' for price ' || t.price_cents
    FROM human_tasks t LEFT JOIN human_holds h ON h.task_id = t.id WHERE t.environment = 'live' AND (h.id IS NULL OR h.amount <> t.price_cents OR h.status <> CASE
      WHEN t.status IN ('pending', 'dispatched', 'in_progress', 'delivered', 'disputed') THEN 'open'
      WHEN t.status = 'completed' THEN 'captured' ELSE 'released' END)`,
  ],
  [
    'sandbox task touched money',
    `SELECT t.ref FROM human_tasks t JOIN human_holds h ON h.task_id = t.id WHERE t.environment = 'test'`,
  ],
  [
    'Stripe top-up and its journal disagree',
    `SELECT s.session_id || ': ' || s.amount_cents || ' cents for account ' || s.account_id || ', journal ' || j.id || ' (' || j.kind || ') moved ' || ifnull(p.amount, 0)
    FROM stripe_topups s JOIN human_journals j ON j.id = s.journal_id
    LEFT JOIN human_postings p ON p.journal_id = j.id AND p.ledger_account_id = (SELECT id FROM human_ledger_accounts WHERE kind = 'customer_available' AND account_id = s.account_id)
    WHERE j.kind <> 'credit' OR p.amount IS NOT s.amount_cents`,
  ],
  [
    'Stripe reversal and its journal disagree',
    `SELECT r.kind || ' ' || r.source_id || ': debited ' || r.debited_cents || ', journal ' || j.id || ' (' || j.kind || ') moved ' || ifnull(p.amount, 0)
    FROM stripe_reversals r JOIN stripe_topups s ON s.session_id = r.session_id JOIN human_journals j ON j.id = r.journal_id
    LEFT JOIN human_postings p ON p.journal_id = j.id AND p.ledger_account_id = (SELECT id FROM human_ledger_accounts WHERE kind = 'customer_available' AND account_id = s.account_id)
    WHERE j.kind <> 'debit' OR p.amount IS NOT -r.debited_cents`,
  ],
];

export function ledgerViolations(db: Db): string[] {
  const out: string[] = [];
  for (const [what, sql] of CHECKS) {
    for (const row of db.prepare(sql).pluck().all() as string[]) out.push(`${what}: ${row}`);
  }
  return out;
}

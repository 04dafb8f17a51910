/**
 * The rows Stripe payments keep (migration 024): customers tied to accounts, the events processed
 * once, paid top-ups and what was taken back of them, and the Stripe subscriptions of the pro plan.
 * Every writer here runs inside the caller's transaction (db/billing/effects.ts, in the human
 * service's group commit).
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

export type EventOutcome = 'credited' | 'debited' | 'shortfall' | 'subscription' | 'ignored' | 'refused';

export interface TopUpRow {
  session_id: string;
  payment_intent: string | null;
  account_id: number;
  amount_cents: number;
  currency: string;
  journal_id: number;
  refunded_cents: number;
  disputed_cents: number;
  created_at: number;
}

export interface StripeSubscriptionRow {
  id: string;
  account_id: number;
  customer_id: string;
  status: string;
  current_period_end: number | null;
  cancel_at_period_end: number;
  updated_at: number;
}

export interface ReportRow {
  id: string;
  type: string;
  received_at: number;
  account_id: number | null;
  email: string | null;
  outcome: EventOutcome;
  detail: string;
}

export const statements = statementsFor((db) => ({
  customerOfAccount: db.prepare('SELECT customer_id FROM stripe_customers WHERE account_id = ?').pluck(),
  accountOfCustomer: db.prepare('SELECT account_id FROM stripe_customers WHERE customer_id = ?').pluck(),
  tie: db.prepare('INSERT INTO stripe_customers (customer_id, account_id, created_at) VALUES (?, ?, ?)'),
  accountExists: db.prepare('SELECT 1 FROM accounts WHERE id = ?').pluck(),
  eventSeen: db.prepare('SELECT 1 FROM stripe_events WHERE id = ?').pluck(),
  recordEvent: db.prepare(
    `INSERT INTO stripe_events (id, type, created, received_at, account_id, outcome, detail)
     VALUES (@id, @type, @created, @received_at, @account_id, @outcome, @detail) ON CONFLICT (id) DO NOTHING`,
  ),
  topUp: db.prepare('SELECT * FROM stripe_topups WHERE session_id = ?'),
  topUpByPayment: db.prepare('SELECT * FROM stripe_topups WHERE payment_intent = ?'),
  insertTopUp: db.prepare(
    `INSERT INTO stripe_topups (session_id, payment_intent, account_id, amount_cents, currency, journal_id, created_at)
     VALUES (@session_id, @payment_intent, @account_id, @amount_cents, @currency, @journal_id, @created_at)`,
  ),
  setRefunded: db.prepare('UPDATE stripe_topups SET refunded_cents = ? WHERE session_id = ?'),
  addDisputed: db.prepare('UPDATE stripe_topups SET disputed_cents = disputed_cents + ? WHERE session_id = ?'),
  disputeSeen: db.prepare("SELECT 1 FROM stripe_reversals WHERE kind = 'dispute' AND source_id = ?").pluck(),
  insertReversal: db.prepare(
    `INSERT INTO stripe_reversals (session_id, kind, source_id, requested_cents, debited_cents, shortfall_cents, journal_id, created_at)
     VALUES (@session_id, @kind, @source_id, @requested_cents, @debited_cents, @shortfall_cents, @journal_id, @created_at)`,
  ),
  subscription: db.prepare('SELECT * FROM stripe_subscriptions WHERE id = ?'),
  upsertSubscription: db.prepare(
    `INSERT INTO stripe_subscriptions (id, account_id, customer_id, status, current_period_end, cancel_at_period_end, updated_at)
     VALUES (@id, @account_id, @customer_id, @status, @current_period_end, @cancel_at_period_end, @updated_at)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, current_period_end = excluded.current_period_end,
       cancel_at_period_end = excluded.cancel_at_period_end, updated_at = excluded.updated_at`,
  ),
  latestSubscriptionOf: db.prepare(
    'SELECT * FROM stripe_subscriptions WHERE account_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT 1',
  ),
  currentPlan: db.prepare(
    `SELECT id, plan, source, stripe_subscription_id, ends_at FROM subscriptions WHERE account_id = ? AND service = 'funding'
       AND starts_at <= @now AND (ends_at IS NULL OR ends_at > @now) ORDER BY starts_at DESC, id DESC LIMIT 1`,
  ),
  livePlanOfStripe: db
    .prepare(
      `SELECT id FROM subscriptions WHERE stripe_subscription_id = ? AND starts_at <= @now AND (ends_at IS NULL OR ends_at > @now)
     ORDER BY id DESC LIMIT 1`,
    )
    .pluck(),
  endPlan: db.prepare('UPDATE subscriptions SET ends_at = ? WHERE id = ?'),
  extendPlan: db.prepare('UPDATE subscriptions SET ends_at = ? WHERE id = ?'),
  startStripePlan: db.prepare(
    `INSERT INTO subscriptions (account_id, service, plan, starts_at, ends_at, created_at, source, stripe_subscription_id)
     VALUES (?, 'funding', 'pro', ?, ?, ?, 'stripe', ?)`,
  ),
  report: db.prepare(
    `SELECT e.id, e.type, e.received_at, e.account_id, a.email, e.outcome, e.detail FROM stripe_events e
     LEFT JOIN accounts a ON a.id = e.account_id
     WHERE (@all = 1 OR e.outcome IN ('refused', 'shortfall')) AND e.received_at >= @since
     ORDER BY e.received_at DESC, e.rowid DESC LIMIT @limit`,
  ),
}));

export const customerOf = (db: Db, accountId: number) =>
  statements(db).customerOfAccount.get(accountId) as string | undefined;

export const accountOfCustomer = (db: Db, customerId: string) =>
  statements(db).accountOfCustomer.get(customerId) as number | undefined;

/** Ties a Stripe customer to an account (each at most once: the unique keys refuse a second tie). */
export function tieCustomer(db: Db, customerId: string, accountId: number, now: number): void {
  statements(db).tie.run(customerId, accountId, now);
}

export const eventSeen = (db: Db, id: string) => statements(db).eventSeen.get(id) === 1;

export const topUpOf = (db: Db, sessionId: string) => statements(db).topUp.get(sessionId) as TopUpRow | undefined;

export const topUpByPayment = (db: Db, paymentIntent: string) =>
  statements(db).topUpByPayment.get(paymentIntent) as TopUpRow | undefined;

/** The newest Stripe subscription of an account (the console shows its state). */
export const stripeSubscriptionOf = (db: Db, accountId: number) =>
  statements(db).latestSubscriptionOf.get(accountId) as StripeSubscriptionRow | undefined;

/** The account's current funding plan row and who granted it (an operator, or a Stripe subscription). */
export const currentPlanOf = (db: Db, accountId: number, now: number) =>
  statements(db).currentPlan.get(accountId, { now }) as
    | {
        id: number;
        plan: string;
        source: 'operator' | 'stripe';
        stripe_subscription_id: string | null;
        ends_at: number | null;
      }
    | undefined;

/** What payments did, for the operator: refusals and shortfalls only unless `all`. */
export function billingReport(db: Db, options: { all: boolean; since: number; limit: number }): ReportRow[] {
  return statements(db).report.all({
    all: options.all ? 1 : 0,
    since: options.since,
    limit: options.limit,
  }) as ReportRow[];
}

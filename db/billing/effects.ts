/**
 * What a signed Stripe event does to trio's books, as synchronous functions of the facts read from
 * the event or re-read from Stripe (db/billing/stripe-service.ts reads them; this module only writes).
 * Each runs inside one job of the human service's group commit, with the event's id recorded first:
 * the id and the effect commit together or not at all, so an event is applied once however often
 * Stripe delivers it.
 *
 * Money is exact: integer cents, read from the objects Stripe signed or returned (the Checkout
 * session's amount_total, the charge's amount_refunded, the dispute's amount), never from the browser;
 * only the currency of the site's prices is credited.
 */
import type { Db } from '../connection.ts';
import { credit, debitAvailable } from '../human/ledger.ts';
import { centsText } from '../../lib/billing/config.ts';
import {
  accountOfCustomer,
  customerOf,
  statements,
  tieCustomer,
  topUpByPayment,
  topUpOf,
  type EventOutcome,
  type TopUpRow,
} from './store.ts';

/** A Stripe subscription's plan outlives its paid period by this much, in case its renewal event is late. */
export const PLAN_GRACE_MS = 2 * 86_400_000;

/** The Stripe subscription statuses that grant the plan: paid for (or in a trial). */
export const LIVE_STATUSES = new Set(['active', 'trialing']);

export interface Effect {
  outcome: EventOutcome;
  accountId: number | null;
  detail: string;
}

export interface SessionFacts {
  id: string;
  mode: string;
  paymentStatus: string;
  currency: string | null;
  amountTotal: number | null;
  paymentIntent: string | null;
  customer: string | null;
  /** client_reference_id: the account id the site put on the session. */
  clientReference: string | null;
  /** metadata.trio_purpose: 'topup' or 'pro' on sessions this site created. */
  purpose: string | null;
}

export interface ChargeFacts {
  id: string;
  paymentIntent: string | null;
  amountRefunded: number;
  currency: string;
}

export interface DisputeFacts {
  id: string;
  paymentIntent: string | null;
  amount: number;
  currency: string;
  status: string;
}

export interface SubscriptionFacts {
  id: string;
  customer: string;
  status: string;
  /** The end of the paid period (the latest of its items'), epoch ms. */
  periodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  /** One of its items is the pro plan's price (STRIPE_PRO_PRICE). */
  isPro: boolean;
  /** metadata.trio_account_id, set on subscriptions this site's Checkout created. */
  accountReference: string | null;
}

const ignored = (detail: string, accountId: number | null = null): Effect => ({
  outcome: 'ignored',
  accountId,
  detail,
});
const refused = (detail: string, accountId: number | null = null): Effect => ({
  outcome: 'refused',
  accountId,
  detail,
});

/**
 * Records an event id (first thing in its job): false when it was recorded already, and then nothing
 * else may happen.
 */
export function recordEvent(
  db: Db,
  event: { id: string; type: string; created: number },
  effect: Effect,
  now: number,
): boolean {
  const info = statements(db).recordEvent.run({
    id: event.id,
    type: event.type,
    created: event.created,
    received_at: now,
    account_id: effect.accountId,
    outcome: effect.outcome,
    detail: effect.detail.slice(0, 1000),
  });
  return info.changes === 1;
}

/**
 * The account a customer (and the account reference the site put on the object) belongs to; ties a
 * customer seen for the first time to the referenced account. A string is a refusal.
 */
function accountFor(db: Db, customer: string | null, reference: string | null, now: number): number | string {
  const tied = customer ? accountOfCustomer(db, customer) : undefined;
  const referenced = reference && /^[1-9]\d{0,15}$/.test(reference) ? Number(reference) : null;
  if (tied !== undefined) {
    if (referenced !== null && referenced !== tied)
      return `customer ${customer} belongs to account ${tied}, but the object names account ${referenced}`;
    return tied;
  }
  if (referenced === null || statements(db).accountExists.get(referenced) !== 1)
    return `no account of this site is named (customer ${customer ?? 'none'}, reference ${reference ?? 'none'})`;
  if (customer) {
    const other = customerOf(db, referenced);
    if (other !== undefined) return `account ${referenced} already has customer ${other}, not ${customer}`;
    tieCustomer(db, customer, referenced, now);
  }
  return referenced;
}

/** A completed Checkout session in mode payment: the top-up is credited once, when it is paid. */
export function applyTopUp(db: Db, s: SessionFacts, siteCurrency: string, now: number): Effect {
  if (s.mode !== 'payment' || s.purpose !== 'topup')
    return ignored(`Checkout session ${s.id} (mode ${s.mode}) is not a top-up made by this site`);
  const done = topUpOf(db, s.id);
  if (done)
    return ignored(`Checkout session ${s.id} was credited already (journal led_${done.journal_id})`, done.account_id);
  if (s.paymentStatus !== 'paid')
    return ignored(
      `Checkout session ${s.id} is ${s.paymentStatus}: not credited (credited when Stripe reports it paid)`,
    );
  const account = accountFor(db, s.customer, s.clientReference, now);
  if (typeof account === 'string') return refused(`Checkout session ${s.id} not credited: ${account}`);
  const currency = (s.currency ?? '').toLowerCase();
  if (currency !== siteCurrency.toLowerCase())
    return refused(
      `Checkout session ${s.id} was paid in ${currency.toUpperCase() || 'no currency'}, not in ${siteCurrency.toUpperCase()} (the currency of this site's prices): not credited; refund it in the Stripe Dashboard`,
      account,
    );
  const amount = s.amountTotal;
  if (amount === null || !Number.isSafeInteger(amount) || amount <= 0)
    return refused(`Checkout session ${s.id} has no positive amount_total (${String(amount)}): not credited`, account);
  const memo = `Stripe top-up: Checkout session ${s.id}, payment ${s.paymentIntent ?? 'none'}`;
  const journalId = credit(db, account, amount, memo, now);
  statements(db).insertTopUp.run({
    session_id: s.id,
    payment_intent: s.paymentIntent,
    account_id: account,
    amount_cents: amount,
    currency,
    journal_id: journalId,
    created_at: now,
  });
  return {
    outcome: 'credited',
    accountId: account,
    detail: `credited ${centsText(amount)} ${currency.toUpperCase()} to account ${account}: Checkout session ${s.id}, payment ${s.paymentIntent ?? 'none'} (journal led_${journalId})`,
  };
}

/** The top-up a payment belongs to, if this site credited it. */
export const topUpOfPayment = (db: Db, paymentIntent: string | null): TopUpRow | undefined =>
  paymentIntent ? topUpByPayment(db, paymentIntent) : undefined;

/** Debits what is still available of a reversal and records it, with what could not be taken back. */
function reverse(
  db: Db,
  topUp: TopUpRow,
  kind: 'refund' | 'dispute',
  sourceId: string,
  requested: number,
  now: number,
): Effect {
  const what = kind === 'refund' ? `refund (charge ${sourceId})` : `lost dispute ${sourceId}`;
  const memo = `Stripe ${what} of Checkout session ${topUp.session_id}, payment ${topUp.payment_intent ?? 'none'}`;
  const taken = debitAvailable(db, topUp.account_id, requested, memo, now);
  statements(db).insertReversal.run({
    session_id: topUp.session_id,
    kind,
    source_id: sourceId,
    requested_cents: requested,
    debited_cents: taken.debited,
    shortfall_cents: taken.shortfall,
    journal_id: taken.journalId,
    created_at: now,
  });
  const currency = topUp.currency.toUpperCase();
  const base = `${what} of ${centsText(requested)} ${currency} for Checkout session ${topUp.session_id}: debited ${centsText(taken.debited)} ${currency} from account ${topUp.account_id}`;
  if (taken.shortfall === 0) return { outcome: 'debited', accountId: topUp.account_id, detail: base };
  return {
    outcome: 'shortfall',
    accountId: topUp.account_id,
    detail: `${base}; ${centsText(taken.shortfall)} ${currency} could not be taken back (already spent or held for orders)`,
  };
}

/**
 * A refunded charge: its amount_refunded is the running total, so the part not applied yet is debited
 * (a late event carrying an older, smaller total changes nothing).
 */
export function applyRefund(db: Db, charge: ChargeFacts, now: number): Effect {
  const topUp = topUpOfPayment(db, charge.paymentIntent);
  if (!topUp) return ignored(`charge ${charge.id} is not a top-up credited by this site`);
  if (charge.currency.toLowerCase() !== topUp.currency)
    return refused(
      `charge ${charge.id} is in ${charge.currency}, its top-up in ${topUp.currency}: nothing debited`,
      topUp.account_id,
    );
  const total = Math.min(charge.amountRefunded, topUp.amount_cents - topUp.disputed_cents);
  const requested = total - topUp.refunded_cents;
  if (requested <= 0)
    return ignored(
      `charge ${charge.id}: refunds of ${centsText(topUp.refunded_cents)} applied already (this event says ${centsText(charge.amountRefunded)})`,
      topUp.account_id,
    );
  const effect = reverse(db, topUp, 'refund', charge.id, requested, now);
  statements(db).setRefunded.run(total, topUp.session_id);
  return effect;
}

/** A dispute closed as lost: its amount (at most what is left of the top-up) is taken back once. */
export function applyDispute(db: Db, dispute: DisputeFacts, now: number): Effect {
  if (dispute.status !== 'lost') return ignored(`dispute ${dispute.id} is ${dispute.status}: nothing to take back`);
  const topUp = topUpOfPayment(db, dispute.paymentIntent);
  if (!topUp) return ignored(`dispute ${dispute.id} is not about a top-up credited by this site`);
  if (statements(db).disputeSeen.get(dispute.id) === 1)
    return ignored(`dispute ${dispute.id} was applied already`, topUp.account_id);
  const requested = Math.min(dispute.amount, topUp.amount_cents - topUp.refunded_cents - topUp.disputed_cents);
  if (requested <= 0)
    return ignored(`dispute ${dispute.id}: the top-up was taken back in full already`, topUp.account_id);
  const effect = reverse(db, topUp, 'dispute', dispute.id, requested, now);
  statements(db).addDisputed.run(requested, topUp.session_id);
  return effect;
}

/**
 * A Stripe subscription as Stripe has it now: stored, and the account's funding plan follows it. A
 * live subscription (active, trialing) grants pro until its period ends (plus PLAN_GRACE_MS) with a plan
 * row of its own; any other status ends that row. A plan an operator granted is a row of its own too,
 * left alone either way: the tier is pro while any row is current.
 */
export function applySubscription(db: Db, sub: SubscriptionFacts, now: number): Effect {
  if (!sub.isPro) return ignored(`subscription ${sub.id} is not to the pro plan's price`);
  const account = accountFor(db, sub.customer, sub.accountReference, now);
  if (typeof account === 'string') return refused(`subscription ${sub.id} not applied: ${account}`);
  const s = statements(db);
  s.upsertSubscription.run({
    id: sub.id,
    account_id: account,
    customer_id: sub.customer,
    status: sub.status,
    current_period_end: sub.periodEnd,
    cancel_at_period_end: sub.cancelAtPeriodEnd ? 1 : 0,
    updated_at: now,
  });
  const mine = s.livePlanOfStripe.get(sub.id, { now }) as number | undefined;
  if (LIVE_STATUSES.has(sub.status)) {
    const endsAt = sub.periodEnd === null ? null : sub.periodEnd + PLAN_GRACE_MS;
    if (mine !== undefined) s.extendPlan.run(endsAt, mine);
    else s.startStripePlan.run(account, now, endsAt, now, sub.id);
    const until = sub.periodEnd === null ? '' : `, paid until ${new Date(sub.periodEnd).toISOString()}`;
    return {
      outcome: 'subscription',
      accountId: account,
      detail: `pro from Stripe subscription ${sub.id} (${sub.status}${until})`,
    };
  }
  if (mine !== undefined) s.endPlan.run(now, mine);
  return {
    outcome: 'subscription',
    accountId: account,
    detail: `Stripe subscription ${sub.id} is ${sub.status}: ${mine !== undefined ? 'the pro plan it granted ended' : 'it grants no plan'}`,
  };
}

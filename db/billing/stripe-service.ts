/**
 * Payments through Stripe's official library (issue 36): Checkout sessions for top-ups (mode payment)
 * and the funding pro plan (mode subscription), the Billing customer portal, and the signed webhook
 * events that move balances and plans. app.ts builds one when STRIPE_SECRET_KEY is set; without it
 * nothing here runs and operators grant as before.
 *
 * An event is verified with the library (`constructEvent`, its tolerance), then its facts are read:
 * from the signed object where it is complete and final (a completed Checkout session, a closed
 * dispute), re-read from Stripe where it is thin or may be stale (a subscription's current state, a
 * charge's running refund total), so events arriving out of order resolve to the object's own state.
 * The effect is written by the human service's group commit (the ledger's writer), with the event id,
 * once (db/billing/effects.ts).
 */
import Stripe from 'stripe';
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import type { HumanService } from '../human/service.ts';
import type { StripeConfig } from '../../lib/billing/config.ts';
import {
  applyDispute,
  applyRefund,
  applySubscription,
  applyTopUp,
  recordEvent,
  topUpOfPayment,
  type Effect,
  type SessionFacts,
  type SubscriptionFacts,
} from './effects.ts';
import { customerOf, eventSeen, tieCustomer } from './store.ts';

export interface HandledEvent {
  duplicate: boolean;
  outcome: Effect['outcome'] | 'duplicate';
  detail: string;
}

/** The work an event asks for: facts already read, applied in one job of the group commit. */
type Apply = (db: Db, now: number) => Effect;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

export class BillingService {
  readonly stripe: Stripe;

  constructor(private readonly deps: { db: Db; log: Logger; config: StripeConfig; human: HumanService }) {
    const { config } = deps;
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(config.api ? { host: config.api.host, port: config.api.port, protocol: config.api.protocol } : {}),
    });
  }

  get config(): StripeConfig {
    return this.deps.config;
  }

  /** The event a webhook request carries, if its signature is Stripe's and recent (throws otherwise). */
  verify(raw: Buffer, signature: string | string[] | undefined, now: number): Stripe.Event {
    return this.stripe.webhooks.constructEvent(
      raw,
      signature ?? '',
      this.deps.config.webhookSecret,
      this.deps.config.toleranceSeconds,
      undefined,
      now,
    );
  }

  /** Applies a verified event once; a repeat (same id) changes nothing and says so. */
  async handle(event: Stripe.Event, now: number): Promise<HandledEvent> {
    const { db, human, log } = this.deps;
    if (eventSeen(db, event.id))
      return { duplicate: true, outcome: 'duplicate', detail: `event ${event.id} was processed already` };
    const steps = await this.stepsFor(event);
    const result = await human.writer.submit((): HandledEvent => {
      if (eventSeen(db, event.id))
        return { duplicate: true, outcome: 'duplicate', detail: `event ${event.id} was processed already` };
      const effects = steps.map((step) => step(db, now));
      const last = effects.at(-1)!;
      const effect: Effect = {
        outcome: effects.some((e) => e.outcome === 'shortfall')
          ? 'shortfall'
          : effects.some((e) => e.outcome === 'refused')
            ? 'refused'
            : last.outcome,
        accountId: last.accountId ?? effects.find((e) => e.accountId !== null)?.accountId ?? null,
        detail: effects.map((e) => e.detail).join('; '),
      };
      recordEvent(db, event, effect, now);
      return { duplicate: false, outcome: effect.outcome, detail: effect.detail };
    });
    if (result.outcome === 'refused' || result.outcome === 'shortfall')
      log.warn({ stripeEvent: event.id, type: event.type, outcome: result.outcome }, result.detail);
    else log.info({ stripeEvent: event.id, type: event.type, outcome: result.outcome }, result.detail);
    return result;
  }

  /** Reads what an event needs (from the event, or from Stripe) into steps to apply. */
  private async stepsFor(event: Stripe.Event): Promise<Apply[]> {
    const currency = this.deps.human.catalogue.currency();
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        if (session.mode === 'subscription') {
          const subscriptionId = idOf(session.subscription);
          if (!subscriptionId) return [() => ignoredEffect(`Checkout session ${session.id} has no subscription`)];
          const sub = await this.subscriptionFacts(subscriptionId);
          // The session names the account (client_reference_id) when the subscription's metadata does not.
          const facts = { ...sub, accountReference: sub.accountReference ?? session.client_reference_id };
          return [(db, now) => applySubscription(db, facts, now)];
        }
        const facts = sessionFacts(session);
        return [(db, now) => applyTopUp(db, facts, currency, now)];
      }
      case 'charge.refunded': {
        // The running total as Stripe has it now: a later refund's event may have arrived first.
        const charge = await this.stripe.charges.retrieve(event.data.object.id);
        const paymentIntent = idOf(charge.payment_intent);
        const facts = {
          id: charge.id,
          paymentIntent,
          amountRefunded: charge.amount_refunded,
          currency: charge.currency,
        };
        return [...(await this.topUpFirst(paymentIntent)), (db, now) => applyRefund(db, facts, now)];
      }
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const paymentIntent = idOf(dispute.payment_intent);
        const facts = {
          id: dispute.id,
          paymentIntent,
          amount: dispute.amount,
          currency: dispute.currency,
          status: dispute.status,
        };
        return [...(await this.topUpFirst(paymentIntent)), (db, now) => applyDispute(db, facts, now)];
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.paused':
      case 'customer.subscription.resumed': {
        const facts = await this.subscriptionFacts(event.data.object.id);
        return [(db, now) => applySubscription(db, facts, now)];
      }
      default:
        return [() => ignoredEffect(`${event.type} is not an event this site acts on`)];
    }
  }

  /**
   * A refund or dispute whose top-up was never credited (its checkout.session.completed not yet
   * arrived): the session is read from Stripe by its payment and credited first, in the same job.
   */
  private async topUpFirst(paymentIntent: string | null): Promise<Apply[]> {
    if (!paymentIntent || topUpOfPayment(this.deps.db, paymentIntent)) return [];
    const found = await this.stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
    const session = found.data[0];
    if (!session) return [];
    const facts = sessionFacts(session);
    const currency = this.deps.human.catalogue.currency();
    return [(db, now) => applyTopUp(db, facts, currency, now)];
  }

  private async subscriptionFacts(id: string): Promise<SubscriptionFacts> {
    const sub = await this.stripe.subscriptions.retrieve(id);
    const ends = sub.items.data.map((item) => item.current_period_end).filter((s) => Number.isFinite(s));
    const proPrice = this.deps.config.proPriceId;
    return {
      id: sub.id,
      customer: idOf(sub.customer)!,
      status: sub.status,
      periodEnd: ends.length ? Math.max(...ends) * 1000 : null,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      isPro: proPrice !== null && sub.items.data.some((item) => item.price.id === proPrice),
      accountReference: sub.metadata?.trio_account_id ?? null,
    };
  }

  /** The account's Stripe customer, created (and tied) on first use. */
  async customerFor(account: { id: number; email: string }, now: number): Promise<string> {
    const { db, human } = this.deps;
    const known = customerOf(db, account.id);
    if (known) return known;
    // One customer per account even if two checkouts start at once: Stripe answers a repeated
    // idempotency key with the first customer.
    const customer = await this.stripe.customers.create(
      { email: account.email, metadata: { trio_account_id: String(account.id) } },
      { idempotencyKey: `trio-customer-${account.id}` },
    );
    return human.writer.submit(() => {
      const tied = customerOf(db, account.id);
      if (tied) return tied;
      tieCustomer(db, customer.id, account.id, now);
      return customer.id;
    });
  }

  /** A Checkout session (mode payment) for a top-up of `amountCents`; returns where to send the browser. */
  async topUpCheckout(
    account: { id: number; email: string },
    amountCents: number,
    origin: string,
    now: number,
  ): Promise<string> {
    const customer = await this.customerFor(account, now);
    const currency = this.deps.human.catalogue.currency().toLowerCase();
    const reference = { trio_purpose: 'topup', trio_account_id: String(account.id) };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'payment',
      customer,
      client_reference_id: String(account.id),
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency,
            unit_amount: amountCents,
            product_data: { name: 'Prepaid balance top-up (human tasks)' },
          },
        },
      ],
      metadata: reference,
      payment_intent_data: { metadata: reference },
      success_url: `${origin}/console/balance?checkout=done&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/console/balance?checkout=cancelled`,
    });
    if (!session.url) throw new Error(`Stripe returned Checkout session ${session.id} without a url`);
    return session.url;
  }

  /** A Checkout session (mode subscription) for the funding pro plan. */
  async proCheckout(account: { id: number; email: string }, origin: string, now: number): Promise<string> {
    const price = this.deps.config.proPriceId;
    if (!price) throw new Error('STRIPE_PRO_PRICE is not set');
    const customer = await this.customerFor(account, now);
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(account.id),
      line_items: [{ price, quantity: 1 }],
      metadata: { trio_purpose: 'pro', trio_account_id: String(account.id) },
      subscription_data: { metadata: { trio_account_id: String(account.id) } },
      success_url: `${origin}/console/plan?checkout=done`,
      cancel_url: `${origin}/console/plan?checkout=cancelled`,
    });
    if (!session.url) throw new Error(`Stripe returned Checkout session ${session.id} without a url`);
    return session.url;
  }

  /** The Billing customer portal for the account's customer (change card, cancel); null without one. */
  async portal(accountId: number, origin: string): Promise<string | null> {
    const customer = customerOf(this.deps.db, accountId);
    if (!customer) return null;
    const session = await this.stripe.billingPortal.sessions.create({ customer, return_url: `${origin}/console/plan` });
    return session.url;
  }
}

const ignoredEffect = (detail: string): Effect => ({ outcome: 'ignored', accountId: null, detail });

function sessionFacts(session: Stripe.Checkout.Session): SessionFacts {
  return {
    id: session.id,
    mode: session.mode,
    paymentStatus: session.payment_status,
    currency: session.currency,
    amountTotal: session.amount_total,
    paymentIntent: idOf(session.payment_intent),
    customer: idOf(session.customer),
    clientReference: session.client_reference_id,
    purpose: session.metadata?.trio_purpose ?? null,
  };
}

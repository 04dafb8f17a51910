/**
 * A stand-in for the Stripe API in the tests: a node:http server on an ephemeral port answering the
 * endpoints trio calls (customers, Checkout sessions create/retrieve/list, subscriptions and charges
 * retrieve, billing portal sessions) with objects in the shapes Stripe documents (its OpenAPI
 * description, stripe/openapi, and the library's types). trio's Stripe client is pointed at it with
 * STRIPE_API_BASE, so the official library makes real HTTP requests here.
 *
 * The test plays Stripe's side: `pay`, `refund`, `loseDispute`, `setStatus` change the objects as a
 * payment, a refund, a lost dispute or a subscription's life would, and return the event Stripe would
 * send, which `deliver` signs with the library's test header helper and POSTs to trio's webhook.
 * Hand-made: no fixture here stands for a real record; ids are random like Stripe's.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const WEBHOOK_SECRET = 'whsec_standintestsecret0123456789';
export const SECRET_KEY = 'sk_test_standin0123456789';
export const PRO_PRICE = 'price_1ProStandIn';
const PRO_AMOUNT = 1900;
const MONTH_S = 30 * 86_400;

type Obj = Record<string, unknown>;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;

/** Stripe's form encoding (a[b][0][c]=v) back into objects and arrays. */
export function decodeForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let at: Obj = out;
    path.forEach((segment, i) => {
      if (i === path.length - 1) at[segment] = value;
      else at = (at[segment] ??= {}) as Obj;
    });
  }
  return arrays(out) as Obj;
}

function arrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Obj).map(([k, v]) => [k, arrays(v)] as const);
  if (entries.length && entries.every(([k]) => /^\d+$/.test(k))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

export interface StandInCall {
  method: string;
  path: string;
  body: Obj;
  idempotencyKey: string | undefined;
}

export class StripeStandIn {
  readonly customers = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly calls: StandInCall[] = [];
  /** Seconds since the epoch, as Stripe stamps objects; the tests move it with their clock. */
  now = () => Math.floor(Date.now() / 1000);
  /** While set, every request is answered 500 (Stripe down). */
  failing = false;
  private readonly replays = new Map<string, string>();
  private server: Server | undefined;
  url = '';
  private readonly signer = new Stripe(SECRET_KEY);

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.answer(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The environment that points trio at this stand-in. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRO_PRICE: PRO_PRICE,
      STRIPE_API_BASE: this.url,
      ...extra,
    };
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body =
      req.method === 'GET' ? Object.fromEntries(url.searchParams) : decodeForm(Buffer.concat(chunks).toString());
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.calls.push({ method: req.method!, path: url.pathname, body, idempotencyKey });
    const send = (status: number, payload: unknown) => {
      const text = JSON.stringify(payload);
      if (idempotencyKey && req.method === 'POST' && status === 200) this.replays.set(idempotencyKey, text);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') }).end(text);
    };
    // The hosted pages a browser is sent to (Checkout, the portal): a page naming what it is for.
    const hosted = /^\/(c\/pay|p\/session)\/([A-Za-z0-9_]+)$/.exec(url.pathname);
    if (req.method === 'GET' && hosted) {
      const what = hosted[1] === 'c/pay' ? 'Stand-in Checkout' : 'Stand-in customer portal';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(`<!doctype html><title>${what}</title><h1>${what}</h1><p id="object">${hosted[2]}</p>`);
    }
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`)
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    if (this.failing) return send(500, { error: { type: 'api_error', message: 'The stand-in is down' } });
    if (idempotencyKey && this.replays.has(idempotencyKey)) {
      res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return void res.end(this.replays.get(idempotencyKey));
    }
    const path = url.pathname;
    const missing = () =>
      send(404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${path}` },
      });
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && path === '/v1/customers') return send(200, this.createCustomer(body));
    if (req.method === 'POST' && path === '/v1/checkout/sessions') return send(200, this.createSession(body));
    if (req.method === 'GET' && path === '/v1/checkout/sessions') {
      const data = [...this.sessions.values()].filter(
        (s) => !body.payment_intent || s.payment_intent === body.payment_intent,
      );
      return send(200, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
    }
    if (req.method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)))
      return this.sessions.has(m[1]!) ? send(200, this.sessions.get(m[1]!)) : missing();
    if (req.method === 'GET' && (m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)))
      return this.subscriptions.has(m[1]!) ? send(200, this.subscriptions.get(m[1]!)) : missing();
    if (req.method === 'GET' && (m = /^\/v1\/charges\/([^/]+)$/.exec(path)))
      return this.charges.has(m[1]!) ? send(200, this.charges.get(m[1]!)) : missing();
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!this.customers.has(String(body.customer))) return missing();
      const id = newId('bps');
      return send(200, {
        id,
        object: 'billing_portal.session',
        created: this.now(),
        customer: body.customer,
        livemode: false,
        return_url: body.return_url ?? null,
        url: `${this.url}/p/session/${id}`,
      });
    }
    return missing();
  }

  private createCustomer(body: Obj): Obj {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      created: this.now(),
      email: body.email ?? null,
      metadata: body.metadata ?? {},
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private createSession(body: Obj): Obj {
    const items = (body.line_items as Obj[] | undefined) ?? [];
    let amount = 0;
    let currency = 'eur';
    for (const item of items) {
      const quantity = Number(item.quantity ?? 1);
      if (item.price_data) {
        const data = item.price_data as Obj;
        amount += Number(data.unit_amount) * quantity;
        currency = String(data.currency);
      } else if (item.price === PRO_PRICE) amount += PRO_AMOUNT * quantity;
    }
    const id = newId('cs_test');
    const session = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: body.cancel_url ?? null,
      client_reference_id: body.client_reference_id ?? null,
      created: this.now(),
      currency,
      customer: body.customer ?? null,
      expires_at: this.now() + 86_400,
      livemode: false,
      metadata: body.metadata ?? {},
      mode: body.mode,
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      subscription_data: body.subscription_data ?? null,
      success_url: body.success_url ?? null,
      url: `${this.url}/c/pay/${id}`,
    };
    this.sessions.set(id, session);
    return session;
  }

  /** The session trio created last (the browser would be on its url now). */
  lastSession(): Obj {
    return [...this.sessions.values()].at(-1)!;
  }

  /**
   * The customer completes Checkout: paid (a payment intent and its charge, or an active subscription)
   * or not (an asynchronous method still processing). `currency` overrides the session's (a session
   * made elsewhere in another currency). Returns checkout.session.completed.
   */
  pay(sessionId: string, options: { paid?: boolean; currency?: string } = {}): Obj {
    const session = this.sessions.get(sessionId)!;
    const paid = options.paid ?? true;
    if (options.currency) session.currency = options.currency;
    session.status = 'complete';
    session.payment_status = paid ? 'paid' : 'unpaid';
    if (session.mode === 'payment') {
      const paymentIntent = newId('pi');
      session.payment_intent = paymentIntent;
      if (paid) {
        const charge = {
          id: newId('ch'),
          object: 'charge',
          amount: session.amount_total,
          amount_captured: session.amount_total,
          amount_refunded: 0,
          currency: session.currency,
          customer: session.customer,
          payment_intent: paymentIntent,
          paid: true,
          refunded: false,
          status: 'succeeded',
          created: this.now(),
          livemode: false,
        };
        this.charges.set(charge.id, charge);
      }
    } else if (paid) {
      const sub = this.createSubscription(session);
      session.subscription = sub.id;
    }
    return this.event('checkout.session.completed', session);
  }

  /** An asynchronous payment of a completed session succeeds later. */
  asyncPaid(sessionId: string): Obj {
    const session = this.sessions.get(sessionId)!;
    session.payment_status = 'paid';
    const charge = {
      id: newId('ch'),
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: 0,
      currency: session.currency,
      customer: session.customer,
      payment_intent: session.payment_intent,
      paid: true,
      refunded: false,
      status: 'succeeded',
      created: this.now(),
      livemode: false,
    };
    this.charges.set(charge.id, charge);
    return this.event('checkout.session.async_payment_succeeded', session);
  }

  private createSubscription(session: Obj): Obj {
    const start = this.now();
    const sub = {
      id: newId('sub'),
      object: 'subscription',
      cancel_at_period_end: false,
      created: start,
      currency: 'eur',
      customer: session.customer,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            created: start,
            current_period_start: start,
            current_period_end: start + MONTH_S,
            price: {
              id: PRO_PRICE,
              object: 'price',
              currency: 'eur',
              unit_amount: PRO_AMOUNT,
              recurring: { interval: 'month' },
            },
            quantity: 1,
          },
        ],
        has_more: false,
        url: '/v1/subscription_items',
      },
      livemode: false,
      metadata: ((session.subscription_data as Obj | null)?.metadata as Obj | undefined) ?? {},
      status: 'active',
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  /** The charge of a paid top-up session. */
  chargeOf(sessionId: string): Obj {
    const pi = this.sessions.get(sessionId)!.payment_intent;
    return [...this.charges.values()].find((c) => c.payment_intent === pi)!;
  }

  /** A refund of `amount` cents of a charge (amount_refunded is the running total); charge.refunded. */
  refund(chargeId: string, amount: number): Obj {
    const charge = this.charges.get(chargeId)!;
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return this.event('charge.refunded', charge);
  }

  /** A dispute of a charge closed as lost; charge.dispute.closed. */
  loseDispute(chargeId: string, amount: number): Obj {
    const charge = this.charges.get(chargeId)!;
    return this.event('charge.dispute.closed', {
      id: newId('dp'),
      object: 'dispute',
      amount,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'lost',
      created: this.now(),
      livemode: false,
    });
  }

  /** A subscription moves to `status` (canceled: customer.subscription.deleted); the event's snapshot. */
  setStatus(subscriptionId: string, status: string, periodEnd?: number): Obj {
    const sub = this.subscriptions.get(subscriptionId)!;
    sub.status = status;
    if (periodEnd !== undefined) ((sub.items as Obj).data as Obj[])[0]!.current_period_end = periodEnd;
    if (status === 'canceled') sub.ended_at = this.now();
    return this.event(status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated', sub);
  }

  /** An event as Stripe sends it, carrying a copy of the object as it is now. */
  event(type: string, object: Obj): Obj {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /** The Stripe-Signature header for a payload, made by the library's test helper. */
  sign(payload: string, options: { timestamp?: number; secret?: string } = {}): string {
    return this.signer.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: options.timestamp ?? this.now(),
    });
  }
}

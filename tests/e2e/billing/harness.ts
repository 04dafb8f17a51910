/**
 * The real trio server with Stripe configured against the tests' stand-in for the Stripe API
 * (tests/helpers/stripe-standin.ts): a signed-in console client that tops up or subscribes as a person
 * would, and `deliver`, which signs an event with the library's test header helper and POSTs it to
 * POST /billing/stripe/webhook over real HTTP. The ledger invariants are asserted after every test.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createAccount, createKey } from '../../../db/accounts.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { ROOT, runInProcess } from '../../helpers/cli.ts';
import type { TestResponse } from '../../helpers/server.ts';
import { StripeStandIn } from '../../helpers/stripe-standin.ts';
import { startHumanServer, type HumanServer } from '../human/harness.ts';

export interface BillingServer {
  server: HumanServer;
  stripe: StripeStandIn;
  stop(): Promise<void>;
}

export async function startBillingServer(env: Record<string, string> = {}): Promise<BillingServer> {
  const stripe = await new StripeStandIn().start();
  const server = await startHumanServer({ env: stripe.env(env) });
  // Stripe stamps its objects and signatures with the time trio's injected clock reads.
  stripe.now = () => Math.floor(server.clock.ms / 1000);
  return {
    server,
    stripe,
    stop: async () => {
      await server.cleanup();
      await stripe.stop();
    },
  };
}

let people = 0;

/**
 * A person signed in at the console, with a live human key to read the balance over the API. The
 * account is made as an operator makes one (sign-ups from one address are limited per hour), then the
 * person signs in through the console's form.
 */
export async function customer(server: HumanServer) {
  const client = new ConsoleClient(server);
  const email = `payer${++people}-${process.pid}@example.org`;
  const password = 'a long enough password';
  const accountId = createAccount(server.app.db, email, server.clock.ms, await hashPassword(password)).id;
  const signedIn = await client.signIn(email, password);
  assert.equal(signedIn.status, 303, signedIn.text);
  const { key } = createKey(
    server.app.db,
    { accountId, service: 'human', name: 'live', environment: 'live' },
    server.clock.ms,
  );
  return { client, email, accountId, key };
}

/** Signs an event (as Stripe would, or as told) and delivers it to trio's webhook endpoint. */
export function deliver(
  billing: BillingServer,
  event: object,
  options: { timestamp?: number; secret?: string; signature?: string | null } = {},
): Promise<TestResponse> {
  const payload = JSON.stringify(event);
  const signature = options.signature === undefined ? billing.stripe.sign(payload, options) : options.signature;
  return billing.server.request('POST', '/billing/stripe/webhook', {
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    body: payload,
  });
}

/** The person's available and held balance, read over the human API with their live key. */
export async function balance(server: HumanServer, key: string): Promise<{ available: number; held: number }> {
  const res = await server.call('GET', '/balance', key);
  assert.equal(res.status, 200, res.text);
  return { available: res.json.data.available_cents, held: res.json.data.held_cents };
}

/** Posts the balance page's top-up form; returns the Checkout session Stripe made for it. */
export async function startTopUp(billing: BillingServer, client: ConsoleClient, amount: string) {
  const res = await client.post('/console/balance/top-up', { amount }, { csrfFrom: '/console/balance' });
  assert.equal(res.status, 303, res.text);
  const session = billing.stripe.lastSession();
  assert.equal(res.headers.get('location'), session.url, 'the browser is sent to the Checkout page');
  return session as {
    id: string;
    amount_total: number;
    currency: string;
    customer: string;
    client_reference_id: string;
  };
}

/** An operator's command, run as the CLI on the test server's database file (while it serves). */
export async function cliOn(server: HumanServer, ...args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: server.databasePath, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

/**
 * The same command line through main.ts's dispatch in this process (tests/helpers/cli.ts), for the
 * repeats of a test that has run the real CLI once.
 */
export async function cliInProcessOn(
  server: HumanServer,
  ...args: string[]
): Promise<{ code: number; stdout: string }> {
  const { code, stdout } = await runInProcess(
    { ...process.env, DATABASE_PATH: server.databasePath, LOG_LEVEL: 'silent' },
    args,
  );
  return { code, stdout };
}

/** The operator's `ledger check` on the test server's database file. */
export const ledgerCheck = (server: HumanServer) => cliOn(server, 'ledger', 'check', '--json');

/** The outcome trio recorded for an event (null: not recorded). */
export const outcomeOf = (server: HumanServer, eventId: string) =>
  (server.app.db.prepare('SELECT outcome FROM stripe_events WHERE id = ?').pluck().get(eventId) as
    string | undefined) ?? null;

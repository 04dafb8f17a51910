/**
 * The real trio server (tests/helpers/server.ts) with the demo catalogue loaded, keys for the human
 * API, and the ledger invariants asserted after every test (`checkLedgerAfterEach`). Time is the
 * injected TestClock; `tick()` runs one scheduler pass now instead of waiting for its timer.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach } from 'node:test';
import { createAccount, createKey, type Environment } from '../../../db/accounts.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../../db/human/catalogue.ts';
import { ledgerViolations } from '../../../db/human/invariants.ts';
import { credit } from '../../../db/human/ledger.ts';
import { setDuty, verifyWorker } from '../../../db/human/workers.ts';
import { startTestServer, type TestResponse, type TestServer, type TestServerOptions } from '../../helpers/server.ts';

export const BASE = '/human/v1';
export const SANDBOX_DELAY_MS = 1000;

export interface HumanServer extends TestServer {
  /** A new account with one human key; `balance` (cents) is credited for live keys. */
  account(
    environment: Environment,
    options?: { balance?: number; scopes?: string[] },
  ): { accountId: number; key: string; email: string };
  /** POST /tasks with a fresh (or given) Idempotency-Key. */
  order(key: string, body: unknown, idempotencyKey?: string): Promise<TestResponse>;
  call(
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  /** One scheduler pass at the clock's current time. */
  tick(): Promise<number>;
  /**
   * A verified person on duty in these countries (every country of the demo catalogue by default),
   * so that live orders there are accepted (nobody on duty: 409 no_one_available). One is made at start.
   */
  person(
    countries?: string[],
    options?: { onDuty?: boolean; capabilities?: string[] },
  ): { accountId: number; email: string };
  /** The person made at start (on duty in every catalogue country). */
  staff: { accountId: number; email: string };
  /** Delivers every webhook due now (the deliverer's settle()). */
  deliver(): Promise<void>;
  invariants(): string[];
}

let accounts = 0;

/** `inProcess`: requests without a socket (tests/helpers/in-process.ts). */
export async function startHumanServer(
  options: { env?: Record<string, string>; inProcess?: boolean; rateLimits?: TestServerOptions['rateLimits'] } = {},
): Promise<HumanServer> {
  const env = {
    SANDBOX_DELAY_MS: String(SANDBOX_DELAY_MS),
    HUMAN_SCHEDULER_TICK_MS: '60000' /* tests drive the scheduler with tick() */,
    WEBHOOK_POLL_MS: '60000' /* and the webhook deliverer with settle() */,
    ...options.env,
  };
  const server = (await startTestServer({
    demo: false,
    env,
    inProcess: options.inProcess ?? false,
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
  })) as HumanServer;
  loadCatalogue(server.app.db, DEMO_CATALOGUE, server.clock.ms);
  server.account = (environment, opts = {}) => {
    const email = `human${++accounts}-${process.pid}@example.org`;
    const account = createAccount(server.app.db, email, server.clock.ms);
    const { key } = createKey(
      server.app.db,
      {
        accountId: account.id,
        service: 'human',
        name: 'test',
        environment,
        ...(opts.scopes ? { scopes: opts.scopes } : {}),
      },
      server.clock.ms,
    );
    if (opts.balance)
      server.app.db
        .transaction(() => credit(server.app.db, account.id, opts.balance!, 'test top-up', server.clock.ms))
        .immediate();
    return { accountId: account.id, key, email };
  };
  server.call = (method, path, key, body, headers = {}) =>
    server.request(method, BASE + path, {
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  server.order = (key, body, idempotencyKey = randomUUID()) =>
    server.call('POST', '/tasks', key, body, { 'idempotency-key': idempotencyKey });
  server.tick = () => server.app.ctx.human.scheduler.tick();
  server.person = (countries = ['FR', 'ES', 'DE', 'PT'], opts = {}) => {
    const email = `person${++accounts}-${process.pid}@example.org`;
    const account = createAccount(server.app.db, email, server.clock.ms);
    const areas = countries.map((country_iso) => ({ country_iso, city_slug: '*' }));
    verifyWorker(server.app.db, account.id, areas, server.clock.ms, null, opts.capabilities ?? null);
    if (opts.onDuty ?? true) setDuty(server.app.db, account.id, true, null);
    return { accountId: account.id, email };
  };
  server.staff = server.person();
  server.deliver = () => server.app.webhooks!.settle();
  server.invariants = () => ledgerViolations(server.app.db);
  return server;
}

/** Registers the ledger invariants check after every test of the file. */
export function checkLedgerAfterEach(get: () => HumanServer | undefined): void {
  afterEach(() => {
    const server = get();
    if (server) assert.deepEqual(server.invariants(), [], 'ledger invariants hold');
  });
}

export const verifyOrder = (over: Record<string, unknown> = {}) => ({
  capability: 'human.verify',
  spec: { claim: 'The bakery at 12 Rue Oberkampf is open on Sundays', subject: 'Boulangerie Martin, 12 Rue Oberkampf' },
  location: { country_iso: 'FR', city_slug: 'paris' },
  max_price_cents: 2000,
  ...over,
});

/** Advances the clock and runs scheduler passes until nothing more is due. */
export async function advance(server: HumanServer, ms: number): Promise<void> {
  server.clock.advance(ms);
  while ((await server.tick()) > 0) {
    /* steps that fell due one after another */
  }
}

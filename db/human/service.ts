/**
 * The human service as one object: its settings, the group-commit writer every write goes through,
 * the scheduler, the idempotency keys in flight, and the quote-signing secret. app.ts builds exactly
 * one per server and passes it down (AppContext.human), so REST, MCP and the console's worker pages
 * share one writer, one in-flight set and one scheduler; the service functions (orders.ts,
 * tasks-read.ts, task-actions.ts, work.ts) take it as their first argument and know nothing of HTTP.
 */
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import { catalogueReader, type CatalogueReads } from './catalogue.ts';
import { GroupCommitWriter } from './writer.ts';
import { serverSecret } from '../sessions.ts';
import type { HumanConfig } from '../../lib/human/config.ts';
import { forbiddenScope } from '../../lib/human/errors.ts';
import { Scheduler } from './scheduler.ts';
import { availabilityIndex, type AvailableCount } from '../../lib/human/availability.ts';
import type { Transport } from '../../lib/human/transport.ts';
import { onDutyNow } from './workers.ts';

/** Who is calling: a checked human key (routes/human/access.ts decides it; so will MCP). */
export interface HumanCaller {
  keyId: number;
  accountId: number;
  environment: 'test' | 'live';
  scopes: readonly string[];
  /** REST or MCP: messages name the next call the way this client makes it (lib/human/transport.ts). */
  transport: Transport;
}

export interface HumanService {
  db: Db;
  clock: () => number;
  log: Logger;
  config: HumanConfig;
  writer: GroupCommitWriter;
  scheduler: Scheduler;
  /** The current catalogue snapshot (one query per access: take it once per request). */
  readonly catalogue: CatalogueReads;
  /** `${account}:${environment}:${Idempotency-Key}` of orders being written right now. */
  inFlight: Set<string>;
  quoteSecret: Buffer;
  /** Who could take a live task now, per city and capability (one read of the people on duty). */
  available(now: number): AvailableCount;
  /** Starts the scheduler (app.ts, at start). */
  start(): void;
  /** Stops the scheduler and commits what is queued (app.ts, before the database closes). */
  stop(): void;
}

/** Builds the service (app.ts, once per server: two would be two writers on one file). */
export function createHumanService(deps: {
  db: Db;
  clock: () => number;
  log: Logger;
  config: HumanConfig;
  /** The scheduler's database outages go here instead of one log line per task (app.ts). */
  outage?: (err: unknown) => boolean;
}): HumanService {
  const { db, clock, log, config } = deps;
  const writer = new GroupCommitWriter(db, config.durable);
  const scheduler = new Scheduler({ db, clock, log, config, writer, ...(deps.outage ? { outage: deps.outage } : {}) });
  const readCatalogue = catalogueReader(db);
  return {
    db,
    clock,
    log,
    config,
    writer,
    scheduler,
    get catalogue() {
      return readCatalogue();
    },
    inFlight: new Set(),
    quoteSecret: serverSecret(db, 'human-quotes'),
    available: (now) => availabilityIndex(onDutyNow(db, now)),
    start: () => scheduler.start(),
    stop: () => {
      scheduler.stop();
      writer.close();
    },
  };
}

export function requireScope(caller: HumanCaller, scope: 'tasks:read' | 'tasks:write', what: string): void {
  if (!caller.scopes.includes(scope)) {
    throw forbiddenScope(
      `This key lacks the ${scope} scope, which ${what} needs. Its scopes: ${caller.scopes.join(', ') || 'none'}. Create a key with ${scope} in the console.`,
      scope,
    );
  }
}

/**
 * The human service as one object per database: its settings, the group-commit writer every write
 * goes through, the scheduler, the idempotency keys in flight, and the quote-signing secret. REST
 * (routes/human) and the MCP server (issue 5) both get it with humanService(ctx), so they share one
 * writer, one in-flight set and one scheduler; the service functions (orders.ts, tasks-read.ts,
 * task-actions.ts, work.ts) take it as their first argument and know nothing of HTTP.
 */
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import { catalogue, type CatalogueReads } from './catalogue.ts';
import { GroupCommitWriter } from './writer.ts';
import { serverSecret } from '../sessions.ts';
import type { HumanConfig } from '../../lib/human/config.ts';
import { forbiddenScope } from '../../lib/human/errors.ts';
import { Scheduler } from './scheduler.ts';

/** Who is calling: a checked human key (routes/human/access.ts decides it; so will MCP). */
export interface HumanCaller {
  keyId: number;
  accountId: number;
  environment: 'test' | 'live';
  scopes: readonly string[];
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
  /** Starts the scheduler (app.ts, at start). */
  start(): void;
  /** Stops the scheduler and commits what is queued (app.ts, before the database closes). */
  stop(): void;
}

const services = new WeakMap<Db, HumanService>();

export function humanService(ctx: { db: Db; clock: () => number; log: Logger; config: { human: HumanConfig } }): HumanService {
  const existing = services.get(ctx.db);
  if (existing) return existing;
  const cfg = ctx.config.human;
  const writer = new GroupCommitWriter(ctx.db, cfg.durable);
  const service: HumanService = {
    db: ctx.db,
    clock: ctx.clock,
    log: ctx.log,
    config: cfg,
    writer,
    scheduler: undefined as unknown as Scheduler, // set just below: the scheduler needs the service
    get catalogue() {
      return catalogue(ctx.db);
    },
    inFlight: new Set(),
    quoteSecret: serverSecret(ctx.db, 'human-quotes'),
    start: () => service.scheduler.start(),
    stop: () => {
      service.scheduler.stop();
      writer.close();
    },
  };
  service.scheduler = new Scheduler(service);
  services.set(ctx.db, service);
  return service;
}

export function requireScope(caller: HumanCaller, scope: 'tasks:read' | 'tasks:write', what: string): void {
  if (!caller.scopes.includes(scope)) {
    throw forbiddenScope(`This key lacks the ${scope} scope, which ${what} needs. Its scopes: ${caller.scopes.join(', ') || 'none'}.`);
  }
}

/**
 * What every route module gets: the database, the injected clock, the logger, the shared limiter and
 * the write-behind, and the service objects. Built once in app.ts, which builds every one of them and
 * passes them down here (no module builds or caches its own); tests get it from startApp.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/connection.ts';
import type { Lag } from '../db/heartbeat.ts';
import type { FundingSearch } from '../db/funding/search.ts';
import type { HumanService } from '../db/human/service.ts';
import type { BillingService } from '../db/billing/stripe-service.ts';
import type { WriteBehind } from '../db/write-behind.ts';
import type { KeyRow } from '../db/accounts.ts';
import type { Config } from '../lib/config.ts';
import type { Limiter } from '../lib/rate-limit.ts';
import type { AccessDeps } from '../lib/http/access.ts';
import type { Dependency } from '../lib/http/dependency.ts';

export interface AppContext {
  config: Config;
  db: Db;
  clock: () => number;
  log: Logger;
  /** In process, the cluster primary over IPC, or Redis (app.ts decides; docs/scaling.md). */
  limiter: Limiter;
  /** Key last-used times: the write-behind, or a cluster worker's forwarder to its primary. */
  writeBehind: Pick<WriteBehind, 'noteKeyUse' | 'flush'>;
  lookupKey: (hash: string) => KeyRow | undefined;
  activePlan: (accountId: number, now: number) => 'pro' | null;
  /** A READ_ONLY node: how old its copy of the database is (/readyz, /metrics). */
  replica?: { lag: (now: number) => Lag; maxLagMs: number };
  /**
   * The parts requests need, each up or down as the requests and jobs found it (lib/http/dependency.ts):
   * the database first, then Redis or the cluster primary when the counters live there. /readyz and
   * /metrics report them.
   */
  dependencies: { database: Dependency; all: readonly Dependency[] };
  /** The human task service: one writer, scheduler and in-flight set for REST, MCP and the console. */
  human: HumanService;
  /** The funding search, one for /search and /export: its prefix, facet and count caches are shared. */
  fundingSearch: FundingSearch;
  /** Payments through Stripe (db/billing/stripe-service.ts); absent when STRIPE_SECRET_KEY is not set. */
  billing?: BillingService;
}

/**
 * What the access stage (lib/http/access.ts) needs of the context. The key lookup is read from ctx on
 * each call, as the stages always did, so a test that wraps ctx.lookupKey sees every lookup.
 */
export const accessDeps = (ctx: AppContext): AccessDeps<KeyRow> => ({
  limiter: ctx.limiter,
  lookupKey: (hash) => ctx.lookupKey(hash),
  noteKeyUse: (keyId, now) => ctx.writeBehind.noteKeyUse(keyId, now),
});

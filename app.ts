/**
 * Assembles trio: opens and migrates the database, loads the demo data into an empty one, builds the
 * routes and starts listening. `main.ts serve` and the end-to-end tests both start the server through
 * startApp, so tests exercise exactly what operators run (tests inject a clock and a log sink).
 */
import type { DestinationStream } from 'pino';
import { openDatabase, type Db } from './db/connection.ts';
import { activePlanLookup, keyLookup } from './db/accounts.ts';
import { loadMissingDemo } from './db/demo.ts';
import { migrate } from './db/migrate.ts';
import { acquireServerLock } from './db/server-lock.ts';
import { WriteBehind } from './db/write-behind.ts';
import type { Config } from './lib/config.ts';
import { createListener } from './lib/http/adapter.ts';
import { DEFAULT_LIMITS, listen, type ServerLimits } from './lib/http/server.ts';
import { createLogger } from './lib/http/log.ts';
import { createMetrics } from './lib/http/metrics.ts';
import { registerSyncMetrics } from './lib/funding/sync-metrics.ts';
import { syncReports } from './db/funding/sync/report.ts';
import { startSyncScheduler, type SchedulerOptions } from './db/funding/sync/scheduler.ts';
import { humanService } from './db/human/service.ts';
import { RateLimiter } from './lib/rate-limit.ts';
import type { AppContext } from './routes/context.ts';
import { buildRoutes } from './routes/index.ts';

export interface StartOptions {
  clock?: () => number;
  logDestination?: DestinationStream;
  /** Socket timeouts and header size (tests shorten them; operators get DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
  /** The command the scheduled funding sync runs (default: this process's own entry point). */
  syncCommand?: SchedulerOptions['command'];
}

export interface RunningApp {
  url: string;
  port: number;
  db: Db;
  ctx: AppContext;
  stop(): Promise<void>;
}

export async function startApp(config: Config, options: StartOptions = {}): Promise<RunningApp> {
  const clock = options.clock ?? Date.now;
  const log = createLogger(config.logLevel, options.logDestination);
  // Held while serving: `restore` refuses to replace the file under us (db/server-lock.ts).
  const lock = acquireServerLock(config.databasePath, 'serve');
  const db = openDatabase(config.databasePath);
  try {
    migrate(db, undefined, clock());
    if (config.demo) {
      const loaded = loadMissingDemo(db, clock);
      if (loaded.length) log.info({ demo: loaded }, 'loaded demo data the database did not have');
    }
  } catch (err) {
    db.close();
    lock.release();
    throw err;
  }

  // The write-behind reads the limiter only when it flushes, after both exist.
  const writeBehind = new WriteBehind(db, () => limiter, clock, (err) => log.warn({ err }, 'daily counts not written yet (database busy); retrying'));
  const limiter = new RateLimiter(writeBehind.loadDay);
  writeBehind.start();

  const ctx: AppContext = { config, db, clock, log, limiter, writeBehind, lookupKey: keyLookup(db), activePlan: activePlanLookup(db) };
  const metrics = createMetrics();
  registerSyncMetrics(metrics.registry, syncReports(db), clock);
  const human = humanService(ctx); // before the routes: REST (and MCP) use this one instance
  const router = buildRoutes(ctx, metrics);
  human.start();
  const listener = createListener({
    fetch: (req) => router.fetch(req),
    log,
    clock,
    trustProxy: config.trustProxy,
    bodyLimitBytes: config.bodyLimitBytes,
    observe: metrics.observe,
  });
  const server = await listen(listener, config.host, config.port, { ...DEFAULT_LIMITS, ...options.limits });
  log.info({ url: server.url, database: config.databasePath }, 'trio is serving');
  // FUNDING_SYNC_EVERY (off by default): the corpus follows its sources (db/funding/sync/scheduler.ts).
  const syncScheduler = config.fundingSync.everyMs === null ? null
    : startSyncScheduler({ everyMs: config.fundingSync.everyMs, db, clock, log, ...(options.syncCommand ? { command: options.syncCommand } : {}) });

  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    db,
    ctx,
    stop: () =>
      (stopping ??= (async () => {
        await syncScheduler?.stop();
        await server.stop();
        human.stop();
        writeBehind.stop();
        db.close();
        lock.release();
        log.flush();
      })()),
  };
}

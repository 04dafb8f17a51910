/**
 * Assembles trio: opens and migrates the database, loads the demo data into an empty one, builds the
 * routes and starts listening. `main.ts serve` and the end-to-end tests both start the server through
 * startApp, so tests exercise exactly what operators run (tests inject a clock and a log sink).
 *
 * One process owns the database file: it holds the server lock, migrates, loads the demo, and runs
 * the background jobs (the human scheduler, the webhook deliverer, the write-behind of counts and key
 * uses, the replication heartbeat). That is this process when it serves alone (the default), and the cluster primary with
 * `serve --workers N` (cli/cluster.ts), whose workers serve requests only. A READ_ONLY node owns
 * nothing: it serves a replicated copy and refuses writes (docs/scaling.md).
 */
import type { DestinationStream, Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import { openDatabase, type Db } from './db/connection.ts';
import { activePlanLookup, keyLookup } from './db/accounts.ts';
import { loadMissingDemo } from './db/demo.ts';
import { heartbeatReader, heartbeatWriter } from './db/heartbeat.ts';
import { migrate } from './db/migrate.ts';
import { acquireServerLock, type ServerLock } from './db/server-lock.ts';
import { persistedDayCount, WriteBehind } from './db/write-behind.ts';
import type { Config } from './lib/config.ts';
import { createDispatch, httpListener, type Dispatch } from './lib/http/adapter.ts';
import type { ApiRequest } from './lib/http/types.ts';
import { DEFAULT_LIMITS, listen, type ServerLimits } from './lib/http/server.ts';
import { createLogger } from './lib/http/log.ts';
import { createMetrics } from './lib/http/metrics.ts';
import { registerSyncMetrics } from './db/funding/sync/metrics.ts';
import { syncReports } from './db/funding/sync/report.ts';
import { startSyncScheduler, type SchedulerOptions } from './db/funding/sync/scheduler.ts';
import { createHumanService, type HumanService } from './db/human/service.ts';
import { WebhookDispatcher } from './db/webhooks/dispatcher.ts';
import { FundingSearch } from './db/funding/search.ts';
import { RateLimiter, type Limiter } from './lib/rate-limit.ts';
import type { AppContext } from './routes/context.ts';
import { buildRoutes } from './routes/index.ts';
import { IpcLimiter, KeyUseForwarder } from './db/counters/ipc.ts';
import { RedisLimiter } from './db/counters/redis.ts';
import { refuseWritesOutsideServices } from './lib/http/read-only.ts';

export interface StartOptions {
  clock?: () => number;
  logDestination?: DestinationStream;
  /** Socket timeouts and header size (tests shorten them; operators get DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
  /** The command the scheduled funding sync runs (default: this process's own entry point). */
  syncCommand?: SchedulerOptions['command'];
  /** 'worker': a cluster worker (cli/cluster.ts); the primary owns the file and the jobs. */
  role?: 'single' | 'worker';
  /** false: no socket; requests come only through `dispatch` (the tests' in-process client). */
  listen?: boolean;
}

export interface RunningApp {
  url: string;
  port: number;
  db: Db;
  ctx: AppContext;
  /** The adapter's whole pipeline short of the socket (lib/http/adapter.ts). */
  dispatch: Dispatch;
  /** The webhook deliverer, when this process owns the file (tests drive it with settle()). */
  webhooks: WebhookDispatcher | null;
  stop(): Promise<void>;
}

/** The lock, the open and migrated database, the demo data: what the owner of the file does at start. */
function openOwnedDatabase(config: Config, clock: () => number, log: Logger): { db: Db; lock: ServerLock } {
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
  return { db, lock };
}

/**
 * What a process serving the file opens first: the database (owned: locked, migrated, demo loaded; or
 * opened as it is) and the Redis counters when REDIS_URL is set. If Redis cannot be reached, the
 * database is closed and the lock released before the error goes up.
 */
export async function openStorage(
  config: Config,
  clock: () => number,
  log: Logger,
  how: { owns: boolean; readonly: boolean },
): Promise<{ db: Db; owned: { db: Db; lock: ServerLock } | null; redis: RedisLimiter | null }> {
  const owned = how.owns ? openOwnedDatabase(config, clock, log) : null;
  const db = owned?.db ?? openDatabase(config.databasePath, { readonly: how.readonly });
  try {
    return { db, owned, redis: await redisCounters(config, log) };
  } catch (err) {
    db.close();
    owned?.lock.release();
    throw err;
  }
}

/** Redis counters when REDIS_URL is set (connected before serving, or the start fails). */
async function redisCounters(config: Config, log: Logger): Promise<RedisLimiter | null> {
  if (!config.scaling.redisUrl) return null;
  let lastLogged = 0;
  const redis = new RedisLimiter(config.scaling.redisUrl, (err) => {
    if (Date.now() - lastLogged <= 10_000) return; // one warning per 10 s while it stays down
    lastLogged = Date.now();
    log.warn({ err }, 'Redis (REDIS_URL) unreachable: limited requests are refused with 503');
  });
  try {
    await redis.ready();
  } catch (err) {
    await redis.close();
    throw err;
  }
  return redis;
}

export interface BackgroundJobs {
  writeBehind: WriteBehind;
  webhooks: WebhookDispatcher;
  stop(): void;
}

/**
 * The jobs that must run once per database, not once per process: the write-behind of day counts
 * (from the in-process limiter, when the counters are not in Redis) and key uses, the human
 * scheduler, the webhook deliverer (every service's events), and the replication heartbeat
 * (REPLICA_HEARTBEAT_MS).
 */
export function startBackgroundJobs(
  ctx: { db: Db; clock: () => number; log: Logger; config: Config },
  limiter: RateLimiter | null,
  human: HumanService,
): BackgroundJobs {
  const { db, clock, log, config } = ctx;
  const writeBehind = new WriteBehind(db, limiter, clock, (err) =>
    log.warn({ err }, 'daily counts not written yet (database busy); retrying'),
  );
  writeBehind.start();
  human.start();
  const webhooks = new WebhookDispatcher({ db, clock, log, config: config.webhooks });
  webhooks.start();
  let heartbeat: NodeJS.Timeout | undefined;
  if (config.scaling.heartbeatMs > 0) {
    const beat = heartbeatWriter(db);
    const tick = () => {
      try {
        beat(clock());
      } catch (err) {
        log.warn({ err }, 'replication heartbeat not written (database busy); next tick');
      }
    };
    tick();
    heartbeat = setInterval(tick, config.scaling.heartbeatMs);
    heartbeat.unref();
  }
  return {
    writeBehind,
    webhooks,
    stop: () => {
      clearInterval(heartbeat);
      webhooks.stop();
      human.stop();
      writeBehind.stop();
    },
  };
}

const NO_KEY_USES = { noteKeyUse: () => {}, flush: () => {} };

export async function startApp(config: Config, options: StartOptions = {}): Promise<RunningApp> {
  const clock = options.clock ?? Date.now;
  const log = createLogger(config.logLevel, options.logDestination);
  const role = options.role ?? 'single';
  const readOnly = config.scaling.readOnly;
  const owner = role === 'single' && !readOnly;
  // A worker's primary migrated the file before forking; a read-only node opens its copy as it is.
  const { db, owned, redis } = await openStorage(config, clock, log, { owns: owner, readonly: readOnly });
  // Without Redis: this process counts (alone, or as a read-only node: its own counts, in memory),
  // or, in a cluster worker, the primary counts for every worker (db/counters/ipc.ts).
  let local: RateLimiter | null = null;
  // A worker's channel to its primary: the counters (unless in Redis) and the commit lock.
  const ipc = role === 'worker' ? new IpcLimiter() : null;
  let limiter: Limiter;
  if (redis) limiter = redis;
  else if (ipc) limiter = ipc;
  else limiter = local = new RateLimiter(persistedDayCount(db));
  if (readOnly && !redis)
    log.warn(
      'READ_ONLY without REDIS_URL: this node counts its clients on its own, in memory (set REDIS_URL to share the limits with the primary)',
    );

  // Every service object is built here, once, and passed down in ctx (docs/architecture.md).
  const base = { config, db, clock, log };
  const human = createHumanService({ db, clock, log, config: config.human });
  // Workers' commits take turns through the primary instead of sleeping in SQLite's busy handler.
  if (ipc) human.writer.useCommitLock(ipc.commitLock);
  const jobs = owner ? startBackgroundJobs(base, local, human) : null;
  const forwarder = role === 'worker' ? new KeyUseForwarder() : null;
  const keyUses = jobs?.writeBehind ?? forwarder ?? NO_KEY_USES;

  const lag = readOnly ? heartbeatReader(db) : undefined;
  const ctx: AppContext = {
    config,
    db,
    clock,
    log,
    limiter,
    writeBehind: keyUses,
    lookupKey: keyLookup(db),
    activePlan: activePlanLookup(db),
    human,
    fundingSearch: new FundingSearch(db),
    ...(lag ? { replica: { lag, maxLagMs: config.scaling.maxLagMs } } : {}),
  };
  const metrics = createMetrics(ctx.replica ? () => ctx.replica!.lag(clock()).lagMs : undefined);
  registerSyncMetrics(metrics.registry, syncReports(db), clock);
  if (ipc) {
    // The primary asks every worker for its registry and sums them; /metrics answers with the sum.
    new AggregatorRegistry(); // installs prom-client's worker-side listener (it does so in its constructor)
    AggregatorRegistry.setRegistries([metrics.registry]);
    metrics.cluster = ipc.clusterMetrics;
  }
  const router = buildRoutes(ctx, metrics);
  const fetch = readOnly
    ? refuseWritesOutsideServices((req) => router.fetch(req))
    : (req: ApiRequest) => router.fetch(req);
  const dispatch = createDispatch({
    fetch,
    log,
    clock,
    trustProxy: config.trustProxy,
    bodyLimitBytes: config.bodyLimitBytes,
    observe: metrics.observe,
  });
  const server =
    options.listen === false
      ? null
      : await listen(httpListener(dispatch, log), config.host, config.port, { ...DEFAULT_LIMITS, ...options.limits });
  log.info(
    {
      url: server?.url ?? null,
      database: config.databasePath,
      ...(role === 'worker' ? { pid: process.pid } : {}),
      ...(readOnly ? { readOnly } : {}),
    },
    role === 'worker' ? 'worker is serving' : 'trio is serving',
  );
  // FUNDING_SYNC_EVERY (off by default): the corpus follows its sources (db/funding/sync/scheduler.ts).
  // A job of the database's owner: in a cluster the primary runs it (cli/cluster.ts), never a worker.
  const syncScheduler =
    !owner || config.fundingSync.everyMs === null
      ? null
      : startSyncScheduler({
          everyMs: config.fundingSync.everyMs,
          db,
          clock,
          log,
          ...(options.syncCommand ? { command: options.syncCommand } : {}),
        });

  let stopping: Promise<void> | undefined;
  return {
    url: server?.url ?? '',
    port: server?.port ?? 0,
    db,
    ctx,
    dispatch,
    webhooks: jobs?.webhooks ?? null,
    stop: () =>
      (stopping ??= (async () => {
        await syncScheduler?.stop();
        await server?.stop();
        if (jobs) jobs.stop();
        else human.stop(); // commits what its writer has queued
        forwarder?.stop();
        ipc?.stop();
        await redis?.close();
        db.close();
        owned?.lock.release();
        log.flush();
      })()),
  };
}

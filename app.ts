/**
 * Assembles trio: opens and migrates the database, loads the demo data into an empty one, builds the
 * routes and starts listening. `main.ts serve` and the end-to-end tests both start the server through
 * startApp, so tests exercise exactly what operators run (tests inject a clock and a log sink).
 *
 * One process owns the database file: it holds the server lock, migrates, loads the demo, and runs
 * the background jobs (the human scheduler, the webhook and mail deliverers, the write-behind of counts and key
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
import type { Refusal } from './lib/http/types.ts';
import { DEFAULT_LIMITS, listen, type ServerLimits } from './lib/http/server.ts';
import { createLogger } from './lib/http/log.ts';
import { createMetrics } from './lib/http/metrics.ts';
import { registerSyncMetrics } from './db/funding/sync/metrics.ts';
import { syncReports } from './db/funding/sync/report.ts';
import { startSyncScheduler, type SchedulerOptions } from './db/funding/sync/scheduler.ts';
import { createHumanService, type HumanService } from './db/human/service.ts';
import { WebhookDispatcher } from './db/webhooks/dispatcher.ts';
import { startMail, type MailJobs } from './db/mail/jobs.ts';
import { registerMailMetrics } from './db/mail/metrics.ts';
import { FundingSearch } from './db/funding/search.ts';
import { BillingService } from './db/billing/stripe-service.ts';
import { RateLimiter, type Limiter } from './lib/rate-limit.ts';
import type { AppContext } from './routes/context.ts';
import { buildRoutes } from './routes/index.ts';
import { IpcLimiter, KeyUseForwarder } from './db/counters/ipc.ts';
import { RedisLimiter } from './db/counters/redis.ts';
import { refuseWritesOutsideServices } from './lib/http/read-only.ts';
import { Dependency } from './lib/http/dependency.ts';
import { databaseCause, isDatabaseDown } from './lib/http/unavailable.ts';
import { databaseProbe } from './db/probe.ts';

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
  /** While a dependency is down, how often 'dependency still down' is logged (30 s; the fault drill shortens it). */
  outageLogEveryMs?: number;
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
  /** The mail deliverer and the daily digests, when this process owns the file and SMTP_URL is set. */
  mail: MailJobs | null;
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
  how: { owns: boolean; readonly: boolean; stillDownEveryMs?: number },
): Promise<{ db: Db; owned: { db: Db; lock: ServerLock } | null; redis: RedisLimiter | null }> {
  const owned = how.owns ? openOwnedDatabase(config, clock, log) : null;
  const db = owned?.db ?? openDatabase(config.databasePath, { readonly: how.readonly });
  try {
    return { db, owned, redis: await redisCounters(config, log, how.stillDownEveryMs) };
  } catch (err) {
    db.close();
    owned?.lock.release();
    throw err;
  }
}

/** Redis counters when REDIS_URL is set (connected before serving, or the start fails). */
async function redisCounters(config: Config, log: Logger, stillDownEveryMs?: number): Promise<RedisLimiter | null> {
  if (!config.scaling.redisUrl) return null;
  // Its outages are logged as state changes (lib/http/dependency.ts), not once per refused request.
  const redis = new RedisLimiter(config.scaling.redisUrl, { log, ...(stillDownEveryMs ? { stillDownEveryMs } : {}) });
  try {
    await redis.ready();
  } catch (err) {
    await redis.close();
    throw err;
  }
  return redis;
}

export interface DatabaseHealth {
  dependency: Dependency;
  /** Reports a database outage (full, read-only, unreadable) as its state: true when `err` was one. */
  outage: (err: unknown) => boolean;
}

/**
 * The database as a dependency (lib/http/dependency.ts): down when a request or a job finds it full,
 * read-only or unreadable, then probed every second until it takes a write again (a read on a
 * read-only node), with no restart.
 */
export function databaseHealth(
  db: Db,
  log: Logger,
  how: { write: boolean; stillDownEveryMs?: number },
): DatabaseHealth {
  const dependency = new Dependency({
    name: 'database',
    effect: how.write
      ? 'requests that write (orders, keys, sign-in) are refused with 503 and not counted; reads are served while the file can be read. Check free disk space, the file system (read-only after an I/O error?) and the permissions of DATABASE_PATH and its -wal file'
      : 'this read-only node cannot read its copy: requests are refused with 503; check the copy at DATABASE_PATH',
    log,
    probe: databaseProbe(db, how),
    describe: databaseCause,
    probeEveryMs: 1000,
    ...(how.stillDownEveryMs ? { stillDownEveryMs: how.stillDownEveryMs } : {}),
  });
  const outage = (err: unknown) => {
    if (!isDatabaseDown(err)) return false;
    dependency.fail(databaseCause(err));
    return true;
  };
  return { dependency, outage };
}

export interface BackgroundJobs {
  writeBehind: WriteBehind;
  webhooks: WebhookDispatcher;
  mail: MailJobs | null;
  stop(): void;
}

/** http://HOST:PORT from the settings: the links' address before the socket is bound, or in a cluster's primary. */
const configuredAddress = (config: Config) =>
  `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

/**
 * The jobs that must run once per database, not once per process: the write-behind of day counts
 * (from the in-process limiter, when the counters are not in Redis) and key uses, the human
 * scheduler, the webhook deliverer (every service's events), and the replication heartbeat
 * (REPLICA_HEARTBEAT_MS).
 */
export function startBackgroundJobs(
  ctx: { db: Db; clock: () => number; log: Logger; config: Config; outage: DatabaseHealth['outage'] },
  limiter: RateLimiter | null,
  human: HumanService,
  listening: () => string = () => configuredAddress(ctx.config),
): BackgroundJobs {
  const { db, clock, log, config, outage } = ctx;
  // A full or read-only file is the database's state (logged when it changes); a busy one, a warning.
  const writeBehind = new WriteBehind(
    db,
    limiter,
    clock,
    (err) => outage(err) || log.warn({ err }, 'daily counts not written yet (database busy); retrying'),
  );
  writeBehind.start();
  human.start();
  const webhooks = new WebhookDispatcher({ db, clock, log, config: config.webhooks });
  webhooks.start();
  const mail = startMail(ctx, listening);
  let heartbeat: NodeJS.Timeout | undefined;
  if (config.scaling.heartbeatMs > 0) {
    const beat = heartbeatWriter(db);
    const tick = () => {
      try {
        beat(clock());
      } catch (err) {
        if (!outage(err)) log.warn({ err }, 'replication heartbeat not written (database busy); next tick');
      }
    };
    tick();
    heartbeat = setInterval(tick, config.scaling.heartbeatMs);
    heartbeat.unref();
  }
  return {
    writeBehind,
    webhooks,
    mail: mail?.jobs ?? null,
    stop: () => {
      clearInterval(heartbeat);
      mail?.stop();
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
  const stillDownEveryMs = options.outageLogEveryMs;
  // A worker's primary migrated the file before forking; a read-only node opens its copy as it is.
  const { db, owned, redis } = await openStorage(config, clock, log, {
    owns: owner,
    readonly: readOnly,
    ...(stillDownEveryMs ? { stillDownEveryMs } : {}),
  });
  const database = databaseHealth(db, log, { write: !readOnly, ...(stillDownEveryMs ? { stillDownEveryMs } : {}) });
  // Without Redis: this process counts (alone, or as a read-only node: its own counts, in memory),
  // or, in a cluster worker, the primary counts for every worker (db/counters/ipc.ts).
  let local: RateLimiter | null = null;
  // A worker's channel to its primary: the counters (unless in Redis) and the commit lock.
  const ipc =
    role === 'worker' ? new IpcLimiter(process, { log, ...(stillDownEveryMs ? { stillDownEveryMs } : {}) }) : null;
  let limiter: Limiter;
  if (redis) limiter = redis;
  else if (ipc) limiter = ipc;
  else limiter = local = new RateLimiter(persistedDayCount(db));
  // In a read-only cluster the primary says how its workers count (cli/cluster.ts): not each worker.
  if (readOnly && !redis && role === 'single') log.warn(readOnlyCounting('single'));
  const counters = redis?.health ?? ipc?.health ?? null;
  const dependencies = {
    database: database.dependency,
    all: counters ? [database.dependency, counters] : [database.dependency],
  };

  // Every service object is built here, once, and passed down in ctx (docs/architecture.md).
  const base = { config, db, clock, log };
  const human = createHumanService({ db, clock, log, config: config.human, outage: database.outage });
  // Workers' commits take turns through the primary instead of sleeping in SQLite's busy handler.
  if (ipc) human.writer.useCommitLock(ipc.commitLock);
  let listeningAt = configuredAddress(config);
  const jobs = owner
    ? startBackgroundJobs({ ...base, outage: database.outage }, local, human, () => listeningAt)
    : null;
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
    ...(config.stripe ? { billing: new BillingService({ db, log, config: config.stripe, human }) } : {}),
    ...(lag ? { replica: { lag, maxLagMs: config.scaling.maxLagMs } } : {}),
    dependencies,
  };
  const metrics = createMetrics({
    ...(ctx.replica ? { replicationLagMs: () => ctx.replica!.lag(clock()).lagMs } : {}),
    dependencies: dependencies.all,
  });
  registerSyncMetrics(metrics.registry, syncReports(db), clock);
  if (config.mail.transport !== null) registerMailMetrics(metrics.registry, db, clock);
  if (ipc) {
    // The primary asks every worker for its registry and sums them; /metrics answers with the sum.
    new AggregatorRegistry(); // installs prom-client's worker-side listener (it does so in its constructor)
    AggregatorRegistry.setRegistries([metrics.registry]);
    metrics.cluster = ipc.clusterMetrics;
  }
  const router = buildRoutes(ctx, metrics);
  const fetch = readOnly ? refuseWritesOutsideServices(router.fetch, config.scaling.primaryUrl) : router.fetch;
  const dispatch = createDispatch({
    fetch,
    log,
    clock,
    trustProxy: config.trustProxy,
    bodyLimitBytes: config.bodyLimitBytes,
    observe: (req, status, seconds) => {
      metrics.observe(req, status, seconds);
      if (req.refused) noteRefusal(dependencies.all, req.refused);
    },
  });
  const server =
    options.listen === false
      ? null
      : await listen(
          httpListener(dispatch, log),
          config.host,
          config.port,
          { ...DEFAULT_LIMITS, ...options.limits },
          metrics.clientError,
        );
  if (server) listeningAt = server.url;
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
    mail: jobs?.mail ?? null,
    stop: () =>
      (stopping ??= (async () => {
        await syncScheduler?.stop();
        await server?.stop();
        if (jobs) jobs.stop();
        else human.stop(); // commits what its writer has queued
        forwarder?.stop();
        ipc?.stop();
        await redis?.close();
        database.dependency.stop();
        db.close();
        owned?.lock.release();
        log.flush();
      })()),
  };
}

/**
 * A request refused unserved (lib/http/unavailable.ts): counted against the part that refused it, and
 * a database the request found full or read-only is down from now (lib/http/dependency.ts).
 */
function noteRefusal(dependencies: readonly Dependency[], refusal: Refusal): void {
  const cause = refusal.cause === 'database_busy' ? null : refusal.cause;
  const dependency = dependencies.find((d) => d.name === cause);
  if (refusal.cause === 'database') dependency?.fail(refusal.detail);
  dependency?.refused();
}

/** What is true of a READ_ONLY node's counting without REDIS_URL, said once per node at start. */
export function readOnlyCounting(node: 'single' | { workers: number }): string {
  const who =
    node === 'single'
      ? 'this node counts its clients itself'
      : `this node's primary process counts for its ${node.workers} workers`;
  return `READ_ONLY without REDIS_URL: ${who}, in memory, starting each client's day from the count in its copy of the database and writing nothing back; other nodes count apart, so a client spread over several nodes gets each node's allowance. Set REDIS_URL to share the limits with the primary and every node.`;
}

/**
 * `serve --workers N` (or WORKERS=N): N processes serve one port (node:cluster, round-robin) over the
 * same SQLite file in WAL mode. The primary serves no request; it owns the file and what must happen
 * once (app.ts: the lock, migrations, demo data, the human scheduler, the write-behind, the
 * heartbeat; the scheduled funding sync), holds the rate-limit counters for every worker (db/counters/ipc.ts; with REDIS_URL
 * they are in Redis instead), replaces a worker that dies, and drains all of them on SIGTERM.
 *
 * What keeps the contracts exact across workers: limits and quotas are counted in one place; keys,
 * revocations, idempotency records and the ledger are read from the database on every request and
 * written in IMMEDIATE transactions, which SQLite serialises across processes (an order re-checks its
 * Idempotency-Key inside its own transaction); an order is acknowledged only after its commit is
 * fsynced (db/human/writer.ts), so a worker killed at any moment loses nothing it acknowledged.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import { databaseHealth, openStorage, readOnlyCounting, startBackgroundJobs } from '../app.ts';
import { persistedDayCount } from '../db/write-behind.ts';
import type { Config } from '../lib/config.ts';
import { startSyncScheduler } from '../db/funding/sync/scheduler.ts';
import { createHumanService } from '../db/human/service.ts';
import { createLogger } from '../lib/http/log.ts';
import { RateLimiter } from '../lib/rate-limit.ts';
import { answerWorker, CommitLockQueue, type ToPrimary, type ToWorker } from '../db/counters/ipc.ts';

export interface RunningCluster {
  url: string;
  workers: () => number[];
  stop(): Promise<void>;
}

/** A worker that dies this soon after its start counts as a crash loop: the next fork waits. */
const CRASH_LOOP_MS = 5000;
const DRAIN_MS = 15_000;

export async function startCluster(
  config: Config,
  workers: number,
  log: Logger = createLogger(config.logLevel),
): Promise<RunningCluster> {
  const clock = Date.now;
  // A READ_ONLY cluster (several workers on a replica) owns nothing: no lock, no migration, no jobs;
  // its primary still counts for its workers (in memory) and hands out nothing else.
  const readOnly = config.scaling.readOnly;
  const { db, owned, redis } = await openStorage(config, clock, log, { owns: !readOnly, readonly: true });
  // The file as the primary's jobs find it: a full or read-only file is logged when its state changes.
  const database = databaseHealth(db, log, { write: !readOnly });
  const base = { config, db, clock, log, outage: database.outage };
  const limiter = redis ? null : new RateLimiter(persistedDayCount(db));
  if (readOnly && !redis) log.warn(readOnlyCounting({ workers })); // once here: the workers say nothing of it
  const jobs = readOnly
    ? null
    : startBackgroundJobs(
        base,
        limiter,
        createHumanService({ db, clock, log, config: config.human, outage: database.outage }),
      );
  const noteKeyUse = (id: number, at: number) => jobs?.writeBehind.noteKeyUse(id, at);
  // FUNDING_SYNC_EVERY: one scheduled sync for the file, run by its owner (never by a worker).
  const syncScheduler =
    readOnly || config.fundingSync.everyMs === null
      ? null
      : startSyncScheduler({ everyMs: config.fundingSync.everyMs, db, clock, log });

  let stopping = false;
  const started = new Map<number, number>(); // worker id → start time
  const tell = (worker: Worker | undefined, msg: ToWorker) => worker?.isConnected() && worker.send(msg);
  const commitLock = new CommitLockQueue((id) => tell(cluster.workers?.[id], { trio: 'locked' }));
  const aggregator = new AggregatorRegistry();

  const fork = (): Worker => {
    const worker = cluster.fork({ TRIO_CLUSTER_WORKER: '1' });
    started.set(worker.id, Date.now());
    worker.on('message', (msg: ToPrimary) => {
      if (msg?.trio === 'lock') return commitLock.request(worker.id);
      if (msg?.trio === 'unlock') return commitLock.release(worker.id);
      if (msg?.trio === 'metrics') {
        const id = msg.id;
        aggregator.clusterMetrics().then(
          (text) => tell(worker, { trio: 'metrics', id, text }),
          (err: Error) => tell(worker, { trio: 'metrics', id, error: err.message }),
        );
        return;
      }
      // With Redis the workers count there; key uses still come here, to the one write-behind.
      if (!limiter) {
        if (msg?.trio === 'keyUses') for (const [id, at] of msg.uses) noteKeyUse(id, at);
        return;
      }
      const answer = answerWorker(msg, limiter, noteKeyUse);
      if (answer && worker.isConnected()) worker.send(answer);
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    commitLock.forget(worker.id);
    if (stopping) return;
    log.error({ pid: worker.process.pid, code, signal, livedMs: lived }, 'worker died; starting a replacement');
    setTimeout(fork, lived < CRASH_LOOP_MS ? 1000 : 0).unref();
  });

  const listening = new Promise<string>((resolve) => {
    let ready = 0;
    cluster.on('listening', function onListening(_worker, address) {
      if (++ready === workers) {
        cluster.off('listening', onListening);
        const host = address.addressType === 6 ? `[${address.address}]` : address.address;
        resolve(`http://${host}:${address.port}`);
      }
    });
  });
  // Workers re-run main.ts; `serve` there sees TRIO_CLUSTER_WORKER and starts as a worker.
  cluster.setupPrimary({ args: process.argv.slice(2) });
  for (let i = 0; i < workers; i++) fork();
  const url = await listening;
  log.info({ url, database: config.databasePath, workers, counters: redis ? 'redis' : 'primary' }, 'trio is serving');

  let stopped: Promise<void> | undefined;
  return {
    url,
    workers: () => Object.values(cluster.workers ?? {}).map((w) => w!.process.pid!),
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        // Each worker finishes its requests in flight and commits its queued writes, then exits.
        const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
        const exits = all.map((w) => (w.isDead() ? Promise.resolve() : once(w, 'exit').then(() => undefined)));
        for (const w of all) w.process.kill('SIGTERM');
        const force = setTimeout(() => all.forEach((w) => w.isDead() || w.process.kill('SIGKILL')), DRAIN_MS);
        await Promise.all(exits);
        clearTimeout(force);
        await syncScheduler?.stop();
        jobs?.stop();
        await redis?.close();
        database.dependency.stop();
        db.close();
        owned?.lock.release();
        log.flush();
      })()),
  };
}

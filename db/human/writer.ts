/**
 * Group commit for the human service's writes (orders, cancels, disputes, deliveries, the scheduler).
 *
 * Why: an order must be durable when its response is sent, and durable against a power cut, not just a
 * process crash, means an fsync of the WAL at commit (synchronous=FULL), which costs ~0.3 ms here and
 * blocks the one JavaScript thread. One fsync per order caps orders near 3,000/s before any other
 * work. So jobs submitted in the same turn of the event loop are committed together: one IMMEDIATE
 * transaction, each job in its own savepoint (a job that throws rolls back alone and gets its error),
 * one fsync for all, then every caller's promise settles. Nobody's response is sent before the commit
 * that made their write durable.
 *
 * The connection runs synchronous=NORMAL (db/connection.ts) for everything else; it is raised to FULL
 * around these commits only, and the fsync also covers earlier NORMAL commits in the same WAL file.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

/** How long a batch may stay open while jobs keep arriving (it never waits on a quiet loop). */
const FILL_WINDOW_NS = 2_000_000n;
const MAX_BATCH = 512;

interface Job {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

export interface WriterStats {
  batches: number;
  jobs: number;
  largestBatch: number;
}

const statements = statementsFor((db) => ({
  savepoint: db.prepare('SAVEPOINT human_job'),
  release: db.prepare('RELEASE human_job'),
  rollback: db.prepare('ROLLBACK TO human_job'),
}));

export class GroupCommitWriter {
  private queue: Job[] = [];
  private scheduled = false;
  private closed = false;
  private openedAt = 0n;
  private seen = 0;
  private readonly base: number;
  // Explicit savepoints: a nested db.transaction() per job would build a new wrapper each time (~4× the cost).
  private readonly savepoint;
  private readonly release;
  private readonly rollback;
  // One transaction function for every batch: db.transaction() builds its wrappers each time it is called.
  private readonly commitBatch;
  readonly stats: WriterStats = { batches: 0, jobs: 0, largestBatch: 0 };
  /**
   * Several processes on one file (serve --workers, cli/cluster.ts): each batch first takes a
   * lock the cluster primary hands out in turn. Without it, a worker finding the file locked by
   * another sleeps in SQLite's busy handler (1, 2, 5, 10… ms); with it, it waits exactly as long as
   * the other's commit, and the jobs arriving meanwhile join its next batch.
   */
  private commitLock: (() => Promise<() => void>) | undefined;

  useCommitLock(lock: () => Promise<() => void>): void {
    this.commitLock = lock;
  }

  constructor(
    private readonly db: Db,
    private readonly durable = true,
  ) {
    this.base = db.pragma('synchronous', { simple: true }) as number;
    ({ savepoint: this.savepoint, release: this.release, rollback: this.rollback } = statements(db));
    this.commitBatch = db.transaction((batch: Job[], outcomes: Outcome[]) => {
      for (const job of batch) {
        this.savepoint.run();
        try {
          const value = job.run();
          if (value instanceof Promise) throw new TypeError('a writer job must be synchronous');
          this.release.run();
          outcomes.push({ ok: true, value });
        } catch (err) {
          this.rollback.run(); // undoes this job's writes only
          this.release.run();
          outcomes.push({ ok: false, err });
        }
      }
    });
  }

  /** Runs `fn` inside the next group commit; resolves with its result once that commit is on disk. */
  submit<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closed) return reject(new Error('the human service is stopping: write refused'));
      this.queue.push({ run: fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        this.openedAt = process.hrtime.bigint();
        this.seen = 0;
        setImmediate(this.gather);
      }
    });
  }

  /**
   * Waits for the batch to fill: while each turn of the event loop brings more jobs (requests arriving
   * under load), wait one more turn, up to FILL_WINDOW_NS; commit on the first quiet turn. A lone
   * request waits one turn; under load, one fsync covers every order that arrived meanwhile.
   */
  private readonly gather = (): void => {
    const growing = this.queue.length > this.seen;
    this.seen = this.queue.length;
    const waited = process.hrtime.bigint() - this.openedAt;
    if (growing && waited < FILL_WINDOW_NS && this.queue.length < MAX_BATCH && !this.closed) {
      setImmediate(this.gather);
      return;
    }
    if (!this.commitLock || this.closed) return this.flush();
    // Jobs submitted while the lock is awaited join this batch (`scheduled` stays set until flush).
    this.commitLock().then(
      (release) => {
        try {
          this.flush();
        } finally {
          release();
        }
      },
      () => this.flush(),
    ); // no lock to be had (the primary is gone): SQLite's own locking still serialises
  };

  /** Commits what is queued and refuses further jobs (shutdown, before the database closes). */
  close(): void {
    this.flush();
    this.closed = true;
  }

  /** Commits everything queued now (also called at shutdown so no caller is left waiting). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: Outcome[] = [];
    try {
      // Not a statement prepared once: SQLite applies `PRAGMA synchronous = …` when it is prepared.
      if (this.durable) this.db.pragma('synchronous = FULL');
      this.commitBatch.immediate(batch, outcomes);
    } catch (err) {
      // The commit itself failed (disk full, I/O error): nothing of the batch was written.
      for (const job of batch) job.reject(err);
      return;
    } finally {
      if (this.durable && this.db.open) this.db.pragma(`synchronous = ${this.base}`);
    }
    this.stats.batches++;
    this.stats.jobs += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
    batch.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.err);
    });
  }
}

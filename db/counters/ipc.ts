/**
 * The counters of a `serve --workers N` cluster without Redis: the primary process holds the one
 * RateLimiter (and writes the day counts behind, as a single process does), and each worker asks it
 * over the cluster's IPC channel. One process decides, one request at a time, so limits and quotas
 * are exact across workers; no worker keeps a count of its own.
 *
 * Requests of one turn of the worker's event loop travel in one message each way (under load, one
 * round trip serves many requests). Key last-used times are forwarded the same way, in batches, to
 * the primary's write-behind: one writer, not one per worker.
 *
 * Why not counters in SQLite: BENCHMARKS.md ("Cluster: counters") measured a counter transaction per
 * request across processes against this round trip.
 */
import type { Decision, Limiter, Limits, RateLimiter } from '../../lib/rate-limit.ts';
import { LimiterUnavailableError } from '../../lib/http/limiter-unavailable.ts';

type TakeRequest = [id: number, bucket: string, perMinute: number | null, perDay: number | null, now: number];

export type ToPrimary =
  | { trio: 'take'; batch: TakeRequest[] }
  | { trio: 'keyUses'; uses: Array<[keyId: number, at: number]> }
  | { trio: 'lock' }
  | { trio: 'unlock' }
  | { trio: 'metrics'; id: number };

export type ToWorker =
  | { trio: 'took'; batch: Array<[id: number, decision: Decision]> }
  | { trio: 'locked' }
  | { trio: 'metrics'; id: number; text?: string; error?: string };

const ANSWER_TIMEOUT_MS = 5000;

/** Worker side. */
export class IpcLimiter implements Limiter {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (d: Decision) => void; reject: (err: unknown) => void; at: number }
  >();
  private outbox: TakeRequest[] = [];
  private scheduled = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly channel: NodeJS.Process = process) {
    channel.on('message', (msg: ToWorker) => {
      if (msg?.trio === 'locked') return this.granted.shift()?.();
      if (msg?.trio === 'metrics') {
        const waiting = this.metricsWaiting.get(msg.id);
        this.metricsWaiting.delete(msg.id);
        return msg.text === undefined ? waiting?.reject(new Error(msg.error)) : waiting?.resolve(msg.text);
      }
      if (msg?.trio !== 'took') return;
      for (const [id, decision] of msg.batch) {
        const waiting = this.pending.get(id);
        this.pending.delete(id);
        waiting?.resolve(decision);
      }
    });
    // An answer that never comes (the primary stuck or gone) is a 503, not a request hanging forever.
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, w] of this.pending) {
        if (now - w.at > ANSWER_TIMEOUT_MS) {
          this.pending.delete(id);
          w.reject(new LimiterUnavailableError('the cluster primary did not answer'));
        }
      }
    }, 1000);
    this.sweeper.unref();
  }

  take(bucket: string, limits: Limits, now: number): Promise<Decision> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject, at: Date.now() });
      this.outbox.push([id, bucket, limits.perMinute, limits.perDay, now]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.send);
      }
    });
  }

  private readonly send = (): void => {
    this.scheduled = false;
    const batch = this.outbox;
    this.outbox = [];
    if (this.channel.connected) {
      this.channel.send!({ trio: 'take', batch } satisfies ToPrimary); // false only means "queued"
      return;
    }
    for (const [id] of batch) {
      // the primary is gone: 503 now rather than after the timeout
      const w = this.pending.get(id);
      this.pending.delete(id);
      w?.reject(new LimiterUnavailableError('the cluster primary is gone'));
    }
  };

  private readonly granted: Array<() => void> = [];
  private readonly metricsWaiting = new Map<
    number,
    { resolve: (text: string) => void; reject: (err: Error) => void }
  >();

  /** The cluster's metrics, every worker's summed by the primary (prom-client's AggregatorRegistry). */
  readonly clusterMetrics = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.metricsWaiting.set(id, { resolve, reject });
      if (!this.channel.connected) return reject(new Error('the cluster primary is gone'));
      this.channel.send!({ trio: 'metrics', id } satisfies ToPrimary);
    });

  /**
   * The cluster's commit lock (db/human/writer.ts): resolves with its release once the primary hands
   * it to this worker. One request at a time per worker (the writer commits one batch at a time).
   */
  readonly commitLock = (): Promise<() => void> =>
    new Promise((resolve, reject) => {
      if (!this.channel.connected) return reject(new LimiterUnavailableError('the cluster primary is gone'));
      this.granted.push(() =>
        resolve(() => {
          if (this.channel.connected) this.channel.send!({ trio: 'unlock' } satisfies ToPrimary);
        }),
      );
      this.channel.send!({ trio: 'lock' } satisfies ToPrimary);
    });

  stop(): void {
    clearInterval(this.sweeper);
  }
}

/**
 * Primary side: the commit lock, handed to one worker at a time in the order they asked. A worker
 * that dies holding it (or waiting for it) is dropped, so the others go on.
 */
export class CommitLockQueue {
  private holder: number | null = null;
  private readonly waiting: number[] = [];

  constructor(private readonly grant: (workerId: number) => void) {}

  request(workerId: number): void {
    if (this.holder === null) {
      this.holder = workerId;
      this.grant(workerId);
    } else this.waiting.push(workerId);
  }

  release(workerId: number): void {
    if (this.holder !== workerId) return;
    this.holder = null;
    const next = this.waiting.shift();
    if (next !== undefined) this.request(next);
  }

  forget(workerId: number): void {
    for (let i = this.waiting.indexOf(workerId); i !== -1; i = this.waiting.indexOf(workerId))
      this.waiting.splice(i, 1);
    this.release(workerId);
  }
}

/** Worker side: key last-used times, batched to the primary's write-behind (about 4 times a second). */
export class KeyUseForwarder {
  private uses = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly channel: NodeJS.Process = process,
    intervalMs = 250,
  ) {
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  noteKeyUse(keyId: number, now: number): void {
    this.uses.set(keyId, now);
  }

  flush(): void {
    if (this.uses.size === 0 || !this.channel.connected) return;
    this.channel.send!({ trio: 'keyUses', uses: [...this.uses] } satisfies ToPrimary);
    this.uses = new Map();
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

/** Primary side: answers one worker's message from the one limiter. */
export function answerWorker(
  msg: ToPrimary,
  limiter: RateLimiter,
  noteKeyUse: (keyId: number, at: number) => void,
): ToWorker | null {
  if (msg?.trio === 'take') {
    return {
      trio: 'took',
      batch: msg.batch.map(([id, bucket, perMinute, perDay, now]) => [
        id,
        limiter.take(bucket, { perMinute, perDay }, now),
      ]),
    };
  }
  if (msg?.trio === 'keyUses') for (const [id, at] of msg.uses) noteKeyUse(id, at);
  return null;
}

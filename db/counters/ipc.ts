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
import type { Logger } from 'pino';
import type { Decision, Limiter, Limits, RateLimiter } from '../../lib/rate-limit.ts';
import { LimiterUnavailableError } from '../../lib/http/limiter-unavailable.ts';
import { Dependency } from '../../lib/http/dependency.ts';
import { createLogger } from '../../lib/http/log.ts';

type TakeRequest = [id: number, bucket: string, perMinute: number | null, perDay: number | null, now: number];
type Count = [bucket: string, perMinute: number | null, perDay: number | null, now: number];

export type ToPrimary =
  | { trio: 'take'; batch: TakeRequest[] }
  | { trio: 'refund'; batch: Count[] }
  | { trio: 'keyUses'; uses: Array<[keyId: number, at: number]> }
  | { trio: 'lock' }
  | { trio: 'unlock' }
  | { trio: 'metrics'; id: number };

export type ToWorker =
  | { trio: 'took'; batch: Array<[id: number, decision: Decision]> }
  | { trio: 'locked' }
  | { trio: 'metrics'; id: number; text?: string; error?: string };

const ANSWER_TIMEOUT_MS = 5000;
/** How long a count whose request was refused is remembered, to give it back if its answer comes late. */
const LATE_FOR_MS = 60_000;

interface Pending {
  resolve: (d: Decision) => void;
  reject: (err: unknown) => void;
  at: number;
  sent: TakeRequest;
}

/**
 * Worker side. A count with no answer within ANSWER_TIMEOUT_MS refuses its request (503) and puts the
 * primary down (`health`): requests are then refused at once, and an empty batch is sent until the
 * primary answers one, which brings it back up. A stuck primary (SIGSTOP, a long synchronous job)
 * answers the counts it was sent when it wakes: a late answer that took from a bucket is given back
 * (a `refund` message), so a refused request never costs its client any allowance (issue 28).
 */
export class IpcLimiter implements Limiter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Counts whose requests were refused for want of an answer, by id, with when. */
  private readonly late = new Map<number, { sent: TakeRequest; at: number }>();
  private outbox: TakeRequest[] = [];
  private scheduled = false;
  private readonly sweeper: NodeJS.Timeout;
  private readonly pings: Array<() => void> = [];
  readonly health: Dependency;

  constructor(
    private readonly channel: NodeJS.Process = process,
    options: { log?: Logger; stillDownEveryMs?: number } = {},
  ) {
    this.health = new Dependency({
      name: 'cluster_primary',
      effect:
        'every API request is refused with 503 until the primary process answers (it counts the limits for every worker); check the primary of serve --workers',
      log: options.log ?? createLogger('silent'),
      probe: () => this.ping(),
      probeEveryMs: 250,
      ...(options.stillDownEveryMs ? { stillDownEveryMs: options.stillDownEveryMs } : {}),
    });
    channel.on('message', (msg: ToWorker) => {
      if (msg?.trio === 'locked') return this.granted.shift()?.();
      if (msg?.trio === 'metrics') {
        const waiting = this.metricsWaiting.get(msg.id);
        this.metricsWaiting.delete(msg.id);
        return msg.text === undefined ? waiting?.reject(new Error(msg.error)) : waiting?.resolve(msg.text);
      }
      if (msg?.trio !== 'took') return;
      for (const answered of this.pings.splice(0)) answered(); // the primary answers again
      const refunds: Count[] = [];
      for (const [id, decision] of msg.batch) {
        const waiting = this.pending.get(id);
        if (waiting) {
          this.pending.delete(id);
          waiting.resolve(decision);
          continue;
        }
        const late = this.late.get(id);
        this.late.delete(id);
        if (late && decision.allowed) refunds.push([late.sent[1], late.sent[2], late.sent[3], late.sent[4]]);
      }
      if (refunds.length && this.channel.connected)
        this.channel.send!({ trio: 'refund', batch: refunds } satisfies ToPrimary);
    });
    // An answer that never comes (the primary stuck or gone) is a 503, not a request hanging forever.
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [id, w] of this.pending) {
        if (now - w.at <= ANSWER_TIMEOUT_MS) continue;
        this.pending.delete(id);
        this.late.set(id, { sent: w.sent, at: now });
        this.health.fail(`no answer within ${ANSWER_TIMEOUT_MS} ms (the primary is stuck or overloaded)`);
        w.reject(new LimiterUnavailableError('cluster_primary', 'the cluster primary did not answer'));
      }
      for (const [id, l] of this.late) if (now - l.at > LATE_FOR_MS) this.late.delete(id);
    }, 1000);
    this.sweeper.unref();
  }

  take(bucket: string, limits: Limits, now: number): Promise<Decision> {
    if (!this.health.up)
      return Promise.reject(
        new LimiterUnavailableError('cluster_primary', `the cluster primary is down: ${this.health.state().cause}`),
      );
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const sent: TakeRequest = [id, bucket, limits.perMinute, limits.perDay, now];
      this.pending.set(id, { resolve, reject, at: Date.now(), sent });
      this.outbox.push(sent);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.send);
      }
    });
  }

  refund(bucket: string, limits: Limits, now: number): void {
    if (this.channel.connected)
      this.channel.send!({
        trio: 'refund',
        batch: [[bucket, limits.perMinute, limits.perDay, now]],
      } satisfies ToPrimary);
  }

  /** Resolves when the primary answers a batch (an empty one is sent): the probe while it is down. */
  private ping(): Promise<void> {
    if (!this.channel.connected) return Promise.reject(new Error('the cluster primary is gone'));
    return new Promise((resolve) => {
      if (this.pings.push(resolve) === 1) this.channel.send!({ trio: 'take', batch: [] } satisfies ToPrimary);
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
    this.health.fail('the cluster primary is gone (IPC channel closed)');
    for (const [id] of batch) {
      // the primary is gone: 503 now rather than after the timeout
      const w = this.pending.get(id);
      this.pending.delete(id);
      w?.reject(new LimiterUnavailableError('cluster_primary', 'the cluster primary is gone'));
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
      if (!this.channel.connected)
        return reject(new LimiterUnavailableError('cluster_primary', 'the cluster primary is gone'));
      this.granted.push(() =>
        resolve(() => {
          if (this.channel.connected) this.channel.send!({ trio: 'unlock' } satisfies ToPrimary);
        }),
      );
      this.channel.send!({ trio: 'lock' } satisfies ToPrimary);
    });

  stop(): void {
    clearInterval(this.sweeper);
    this.health.stop();
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
  if (msg?.trio === 'refund')
    for (const [bucket, perMinute, perDay, now] of msg.batch) limiter.refund(bucket, { perMinute, perDay }, now);
  if (msg?.trio === 'keyUses') for (const [id, at] of msg.uses) noteKeyUse(id, at);
  return null;
}

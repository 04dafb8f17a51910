/**
 * The load the crash test keeps on the server until it is killed, and the record of everything the
 * server acknowledged, which is what the invariants are checked against after the restart:
 *  - live orders (POST /human/v1/tasks, each with its own Idempotency-Key): every 201 with its ref
 *    and status; an order that got no answer (the server died under it, or the connection failed) is
 *    kept with its key and body, to be retried after the restart;
 *  - cancels of some acknowledged orders: every 200;
 *  - reads of all three APIs: human task and balance reads (an acknowledged order must be readable at
 *    once, and a balance never negative), impact reads and keyed funding reads, whose daily counts
 *    the server reports on each reply (X-RateLimit-* for impact, X-Quota-* for funding): every
 *    count with the time its reply arrived.
 * Workers run closed loops (the next call when the last one is answered) over keep-alive connections.
 * A 5xx is recorded as a fault: nothing in this load should make the server fail.
 */
import { randomUUID } from 'node:crypto';
import { verifyOrder } from '../../e2e/human/harness.ts';
import type { Random } from './random.ts';
import type { Callers, CountedCaller, HumanCaller } from './setup.ts';

export interface SentOrder {
  idempotencyKey: string;
  body: Record<string, unknown>;
  caller: HumanCaller;
}
export interface AckedOrder extends SentOrder {
  ref: string;
  status: string;
  at: number;
}
export interface AckedCancel {
  ref: string;
  at: number;
}
export interface CountAck {
  bucket: string;
  day: string;
  count: number;
  at: number;
}

/** Everything acknowledged, over all cycles. */
export interface Ledger {
  orders: AckedOrder[];
  cancels: AckedCancel[];
  counts: CountAck[];
  /** Orders sent without an answer; emptied when they are retried after a restart. */
  unanswered: SentOrder[];
  /** Replies by status code, for the report. */
  statuses: Record<string, number>;
  /** 5xx replies and reads that contradict an acknowledgement, while the server was up. */
  faults: string[];
  /** Calls that failed at the transport level before the kill (not expected; reported). */
  transportErrors: number;
}

export const newLedger = (): Ledger => ({
  orders: [],
  cancels: [],
  counts: [],
  unanswered: [],
  statuses: {},
  faults: [],
  transportErrors: 0,
});

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const TIMEOUT_MS = 20_000;

/** The impact and funding paths the readers pick from (slugs and call ids from the demo data). */
export interface ReadPaths {
  impact: string[];
  funding: string[];
}

export class Load {
  private stopping = false;
  private killedAt: number | null = null;
  private workers: Array<Promise<void>> = [];
  /** Refs with a cancel sent in this cycle. (One cancelled in an earlier cycle may be tried again: 409, it stays cancelled.) */
  private readonly cancelSent = new Set<string>();
  private lastAnswerAt = 0;
  /** The longest the server went without answering anything while it was up (a stall). */
  maxAnswerGapMs = 0;

  constructor(
    private readonly url: string,
    private readonly callers: Callers,
    private readonly paths: ReadPaths,
    private readonly ledger: Ledger,
    private readonly random: Random,
  ) {}

  start(): void {
    this.lastAnswerAt = Date.now();
    const { orderKeys } = this.callers;
    this.workers = [
      ...Array.from({ length: 6 }, (_, i) =>
        this.loop(() => this.order(orderKeys[(i + this.random.int(0, orderKeys.length - 1)) % orderKeys.length]!)),
      ),
      this.loop(() => this.cancel(), 10),
      this.loop(() => this.cancel(), 10),
      this.loop(() => this.humanRead(), 5),
      this.loop(() => this.humanRead(), 5),
      this.loop(() => this.countedRead('impact'), 5),
      this.loop(() => this.countedRead('impact'), 5),
      this.loop(() => this.countedRead('funding'), 15),
    ];
  }

  /** Call right before the SIGKILL: errors from then on are the kill's, not faults. */
  markKilled(at: number): void {
    this.killedAt = at;
    this.stopping = true;
  }

  /** Waits for every worker to notice the server is gone (or the stop) and return. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.workers);
  }

  private async loop(step: () => Promise<void>, pauseMs = 0): Promise<void> {
    while (!this.stopping) {
      await step();
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
  }

  private async call(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Response | null> {
    try {
      const res = await fetch(this.url + path, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      this.ledger.statuses[res.status] = (this.ledger.statuses[res.status] ?? 0) + 1;
      if (this.killedAt === null) {
        this.maxAnswerGapMs = Math.max(this.maxAnswerGapMs, Date.now() - this.lastAnswerAt);
        this.lastAnswerAt = Date.now();
      }
      if (res.status >= 500 && this.killedAt === null)
        this.ledger.faults.push(`${method} ${path}: ${res.status} ${await res.clone().text()}`);
      return res;
    } catch {
      if (this.killedAt === null) this.ledger.transportErrors++;
      return null; // the server is gone (or the connection failed): no answer
    }
  }

  private async order(caller: HumanCaller): Promise<void> {
    const sent: SentOrder = {
      idempotencyKey: randomUUID(),
      body: verifyOrder({
        spec: {
          claim: `Open on Sundays (${this.random.int(1, 1e9)})`,
          subject: 'Boulangerie Martin, 12 Rue Oberkampf',
        },
      }),
      caller,
    };
    const res = await this.call(
      'POST',
      '/human/v1/tasks',
      { authorization: `Bearer ${caller.key}`, 'idempotency-key': sent.idempotencyKey },
      sent.body,
    );
    // No answer, or an answer that says nothing about whether it was stored: retried after the restart.
    if (res === null || res.status >= 500) return void this.ledger.unanswered.push(sent);
    const payload = (await res.json().catch(() => null)) as { data?: { ref: string; status: string } } | null;
    if (res.status === 201 && payload?.data)
      this.ledger.orders.push({ ...sent, ref: payload.data.ref, status: payload.data.status, at: Date.now() });
  }

  private async cancel(): Promise<void> {
    const candidates = this.ledger.orders.filter((o) => !this.cancelSent.has(o.ref));
    if (candidates.length === 0) return;
    const order = this.random.pick(candidates.slice(-200)); // recent ones: still pending, so cancellable
    this.cancelSent.add(order.ref);
    const res = await this.call(
      'POST',
      `/human/v1/tasks/${order.ref}/cancel`,
      { authorization: `Bearer ${order.caller.key}` },
      { reason: 'no_longer_needed' },
    );
    if (res?.status === 200) this.ledger.cancels.push({ ref: order.ref, at: Date.now() });
    else if (res) await res.body?.cancel();
  }

  private async humanRead(): Promise<void> {
    const caller = this.random.pick(this.callers.humanReadKeys);
    const headers = { authorization: `Bearer ${caller.key}` };
    const own = this.ledger.orders.filter((o) => o.caller.accountId === caller.accountId);
    const roll = this.random.next();
    if (roll < 0.5 && own.length) {
      const order = this.random.pick(own.slice(-300));
      const res = await this.call('GET', `/human/v1/tasks/${order.ref}`, headers);
      if (res?.status === 404 && this.killedAt === null)
        this.ledger.faults.push(`acknowledged order ${order.ref} read as 404`);
      await res?.body?.cancel();
    } else if (roll < 0.8) {
      const res = await this.call('GET', '/human/v1/balance', headers);
      if (res?.status === 200) {
        const balance = (await res.json()) as { data: { available_cents: number; held_cents: number } };
        if (balance.data.available_cents < 0 || balance.data.held_cents < 0)
          this.ledger.faults.push(`balance read negative: ${JSON.stringify(balance.data)}`);
      } else await res?.body?.cancel();
    } else {
      await (await this.call('GET', '/human/v1/tasks?limit=5', headers))?.body?.cancel();
    }
  }

  /** An impact or funding read with a key; the count the reply reports is recorded. */
  private async countedRead(service: 'impact' | 'funding'): Promise<void> {
    const caller: CountedCaller = this.random.pick(
      service === 'impact' ? this.callers.impactKeys : this.callers.fundingKeys,
    );
    const path = this.random.pick(service === 'impact' ? this.paths.impact : this.paths.funding);
    const headers: Record<string, string> =
      service === 'impact' ? { authorization: `Bearer ${caller.key}` } : { 'x-api-key': caller.key };
    const res = await this.call('GET', path, headers);
    if (res === null) return;
    await res.body?.cancel();
    const count = reportedCount(service, res);
    if (count !== null && res.status !== 429)
      this.ledger.counts.push({ bucket: caller.bucket, day: utcDay(Date.now()), count, at: Date.now() });
  }
}

/** The day count a reply reports for its bucket: limit − remaining of the daily window. */
export function reportedCount(service: 'impact' | 'funding', res: Response): number | null {
  const prefix = service === 'impact' ? 'x-ratelimit' : 'x-quota';
  const limit = res.headers.get(`${prefix}-limit`);
  const remaining = res.headers.get(`${prefix}-remaining`);
  return limit === null || remaining === null ? null : Number(limit) - Number(remaining);
}

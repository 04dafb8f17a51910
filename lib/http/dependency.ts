/**
 * A part a request needs that can fail on its own: the database file, Redis's counters, the cluster
 * primary's counters. What an operator should be told about it is its state, not one line per request
 * it made us refuse (issue 28): when it goes down (warn 'dependency down', with the cause and what it
 * means), every `stillDownEveryMs` while it stays down (warn 'dependency still down', with how long
 * and how many requests were refused meanwhile), and when it answers again (info 'dependency up
 * again', with the same figures). /readyz and /metrics read the same state, so health checks cost
 * no I/O on the request path: the state is what the requests themselves (and the background jobs)
 * already found out.
 *
 * While down, `probe` is run until it succeeds (it resolves when the part answers again, throws or
 * rejects when it does not), every `probeEveryMs` at most: recovery needs no restart and no traffic.
 * Nothing is probed while up.
 */
import type { Logger } from 'pino';

export type DependencyName = 'database' | 'redis' | 'cluster_primary';

export interface DependencyOptions {
  name: DependencyName;
  /** What an outage means for clients and what to do about it, said once in the 'dependency down' line. */
  effect: string;
  log: Logger;
  /** Resolves when the part answers again; throws or rejects when not. Only run while down. */
  probe: () => unknown;
  /** A failed probe's error as the cause (describeError by default). */
  describe?: (err: unknown) => string;
  probeEveryMs?: number;
  stillDownEveryMs?: number;
  clock?: () => number;
}

export interface DependencyState {
  state: 'up' | 'down';
  /** While down: when it went down (ISO 8601), why, and the requests refused since. */
  since?: string;
  cause?: string;
  refused?: number;
}

interface Outage {
  since: number;
  cause: string;
  refused: number;
  timer: NodeJS.Timeout;
}

/** An error as one line for an operator: its code (SQLITE_FULL, ECONNREFUSED) and message. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
}

export class Dependency {
  readonly name: DependencyName;
  private outage: Outage | null = null;
  private probing = false;
  private stopped = false;
  private readonly clock: () => number;
  private readonly probeEveryMs: number;
  private readonly stillDownEveryMs: number;

  constructor(private readonly options: DependencyOptions) {
    this.name = options.name;
    this.clock = options.clock ?? Date.now;
    this.probeEveryMs = options.probeEveryMs ?? 1000;
    this.stillDownEveryMs = options.stillDownEveryMs ?? 30_000;
  }

  get up(): boolean {
    return this.outage === null;
  }

  /** The part failed (a request or a job found it so): down from now, unless it already was. */
  fail(cause: string): void {
    if (this.stopped) return;
    if (this.outage) {
      this.outage.cause = cause;
      return;
    }
    const { log, name, effect } = this.options;
    const since = this.clock();
    const timer = setInterval(() => {
      const o = this.outage;
      if (o)
        log.warn(
          { dependency: name, cause: o.cause, downForS: this.seconds(o), refused: o.refused },
          'dependency still down',
        );
    }, this.stillDownEveryMs);
    timer.unref();
    this.outage = { since, cause, refused: 0, timer };
    log.warn({ dependency: name, cause, effect }, 'dependency down');
    void this.probeUntilUp();
  }

  /** A request was refused because of this part. */
  refused(): void {
    if (this.outage) this.outage.refused++;
  }

  /** The part answers again. */
  recovered(): void {
    const o = this.outage;
    if (!o) return;
    clearInterval(o.timer);
    this.outage = null;
    this.options.log.info(
      { dependency: this.name, downForS: this.seconds(o), refused: o.refused },
      'dependency up again',
    );
  }

  state(): DependencyState {
    const o = this.outage;
    if (!o) return { state: 'up' };
    return { state: 'down', since: new Date(o.since).toISOString(), cause: o.cause, refused: o.refused };
  }

  stop(): void {
    this.stopped = true;
    if (this.outage) clearInterval(this.outage.timer);
  }

  private seconds(o: Outage): number {
    return Math.round((this.clock() - o.since) / 100) / 10;
  }

  private async probeUntilUp(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      while (this.outage && !this.stopped) {
        try {
          await this.options.probe();
          this.recovered();
        } catch (err) {
          if (this.outage) this.outage.cause = (this.options.describe ?? describeError)(err);
          await new Promise((resolve) => setTimeout(resolve, this.probeEveryMs).unref());
        }
      }
    } finally {
      this.probing = false;
    }
  }
}

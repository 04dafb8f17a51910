/**
 * The outbox deliverer every channel shares (webhook deliveries, db/webhooks/dispatcher.ts; e-mail,
 * db/mail/deliverer.ts). A channel's rows are written in the transaction that causes them; this
 * sends them from the process that owns the database file (app.ts startBackgroundJobs), never on a
 * request's path. What is common, and only here:
 *
 * - the rows: a table with the outbox columns (status pending | succeeded | failed, attempts,
 *   next_attempt_at, locked_until, last_attempt_at, last_status, last_error, finished_at);
 * - claiming: a due row is leased (`locked_until`) before its attempt, so two passes never send it at
 *   once; an attempt cut short by a crash is tried again when its lease runs out;
 * - the schedule: lib/outbox/schedule.ts (ten attempts over a day), a permanent refusal (the channel
 *   says which: a webhook's 410, an SMTP 5xx) stops at once;
 * - recording: succeeded, pending again at the next time, or failed for good;
 * - the loop: every `pollMs`, and again as soon as an attempt ends; start(), stop(), settle() (tests
 *   move the injected clock and settle).
 *
 * A channel says which rows are due (its own order: webhooks go one at a time per endpoint and
 * subject), how to send one, and what else a failure changes in the same transaction.
 */
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { nextAttemptAt } from '../../lib/outbox/schedule.ts';

/** The columns every outbox row has; a channel's due rows carry more. */
export interface DueRow {
  id: number;
  attempts: number;
}

/** The outbox columns as read back (a listing, an event's deliveries); a channel's row adds its own. */
export interface OutboxRow {
  id: number;
  attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export type Outcome =
  | { ok: true; code: number | null }
  | {
      ok: false;
      code: number | null;
      error: string;
      /** Milliseconds the receiver asked to wait (Retry-After), or null. */
      retryAfterMs: number | null;
      /** No retry: the receiver refused for good (a webhook's 410, an SMTP 5xx). */
      permanent: boolean;
    };

export interface OutboxChannel<D extends DueRow> {
  /** The table holding the rows (its outbox columns are listed above). */
  table: 'webhook_deliveries' | 'mail_messages';
  /** For log lines: 'webhook delivery', 'e-mail'. */
  noun: string;
  /** Rows due at `now`, at most `limit`, in the order they should go. */
  due(db: Db, now: number, limit: number): D[];
  send(row: D, now: number): Promise<Outcome>;
  /** Inside the success's transaction: what else a delivery changes (a sent token forgotten). */
  onSuccess?(db: Db, row: D, at: number): void;
  /** Inside the failure's transaction: what else a refusal changes (a webhook endpoint disabled). */
  onFailure?(db: Db, row: D, outcome: Extract<Outcome, { ok: false }>, at: number, final: boolean): string | void;
  /** Whether a row failed for good is the operator's to know (a log line): mail yes, a client's webhook no. */
  logFinalFailures: boolean;
  /** Now and then, between passes (pruning). */
  housekeeping?(db: Db, now: number): void;
}

export interface OutboxSettings {
  /** One attempt's longest time; the lease adds a margin to it. */
  timeoutMs: number;
  concurrency: number;
  pollMs: number;
}

const HOUSEKEEPING_EVERY_MS = 10 * 60_000;
/** An attempt's lease beyond its timeout: past it, another pass may try the row again. */
const LEASE_MARGIN_MS = 10_000;

const statements = statementsFor((db) => {
  const of = (table: string) => ({
    claim: db.prepare(`UPDATE ${table} SET locked_until = @until WHERE id = @id AND status = 'pending'
        AND (locked_until IS NULL OR locked_until <= @now)`),
    succeeded: db.prepare(`UPDATE ${table} SET status = 'succeeded', attempts = attempts + 1, next_attempt_at = NULL,
        locked_until = NULL, last_attempt_at = @at, last_status = @code, last_error = NULL, finished_at = @at WHERE id = @id`),
    failed: db.prepare(`UPDATE ${table} SET status = @status, attempts = attempts + 1, next_attempt_at = @next,
        locked_until = NULL, last_attempt_at = @at, last_status = @code, last_error = @error,
        finished_at = CASE WHEN @status = 'failed' THEN @at END WHERE id = @id AND status = 'pending'`),
    pending: db.prepare(`SELECT count(*) FROM ${table} WHERE status = 'pending'`).pluck(),
  });
  return { webhook_deliveries: of('webhook_deliveries'), mail_messages: of('mail_messages') };
});

export class OutboxDeliverer<D extends DueRow> {
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly inFlight = new Map<number, Promise<void>>();
  private lastHousekeeping = 0;
  private woken = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Pick<Logger, 'warn' | 'error'>;
      settings: OutboxSettings;
      channel: OutboxChannel<D>;
    },
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.runDue(), this.deps.settings.pollMs);
    this.timer.unref();
    void this.runDue();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Rows waiting to be sent (the pending gauges of docs/operations.md). */
  pendingCount(): number {
    return statements(this.deps.db)[this.deps.channel.table].pending.get() as number;
  }

  /**
   * One pass: starts an attempt for every due row, up to the free concurrency, and resolves once those
   * attempts are recorded, with how many it started.
   */
  async runDue(): Promise<number> {
    const { db, clock, settings, channel } = this.deps;
    const now = clock();
    const free = settings.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    let due: D[];
    try {
      due = channel.due(db, now, free);
      if (channel.housekeeping && now - this.lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
        this.lastHousekeeping = now;
        channel.housekeeping(db, now);
      }
    } catch (err) {
      this.report(err, `${channel.noun} deliverer could not read its queue (database busy); next pass`);
      return 0;
    }
    const claim = statements(db)[channel.table].claim;
    const started: Promise<void>[] = [];
    for (const row of due) {
      if (this.inFlight.has(row.id)) continue;
      if (claim.run({ id: row.id, now, until: now + settings.timeoutMs + LEASE_MARGIN_MS }).changes !== 1) continue;
      const attempt = this.attempt(row);
      this.inFlight.set(row.id, attempt);
      started.push(attempt);
    }
    await Promise.all(started);
    return started.length;
  }

  /** Until nothing is due or in flight at the clock's current time (tests; a graceful stop). */
  async settle(): Promise<void> {
    for (;;) {
      const started = await this.runDue();
      if (started === 0 && this.inFlight.size === 0) return;
      if (started === 0) await Promise.all(this.inFlight.values());
    }
  }

  private async attempt(row: D): Promise<void> {
    const { clock, channel } = this.deps;
    try {
      const outcome = await channel.send(row, clock());
      this.record(row, outcome, clock());
    } catch (err) {
      this.report(err, `${channel.noun} not recorded; it is retried when its lease ends`);
    } finally {
      this.inFlight.delete(row.id);
      this.wake(); // the next row of the same queue may go now
    }
  }

  private record(row: D, outcome: Outcome, at: number): void {
    const { db, channel, log } = this.deps;
    const s = statements(db)[channel.table];
    if (outcome.ok) {
      db.transaction(() => {
        s.succeeded.run({ id: row.id, at, code: outcome.code });
        channel.onSuccess?.(db, row, at);
      }).immediate();
      return;
    }
    const next = outcome.permanent ? null : nextAttemptAt(row.attempts + 1, at, outcome.retryAfterMs);
    db.transaction(() => {
      const note = channel.onFailure?.(db, row, outcome, at, next === null);
      s.failed.run({
        id: row.id,
        at,
        code: outcome.code,
        error: (note ?? outcome.error).slice(0, 500),
        status: next === null ? 'failed' : 'pending',
        next,
      });
    }).immediate();
    if (next === null && channel.logFinalFailures)
      log.warn(
        { outbox: channel.table, id: row.id, attempts: row.attempts + 1, code: outcome.code, error: outcome.error },
        `${channel.noun} failed for good${outcome.permanent ? ' (refused permanently)' : ' (no attempts left)'}`,
      );
  }

  /** Runs another pass soon (after an attempt ends), unless one is already coming. */
  private wake(): void {
    if (this.stopped || this.woken) return;
    this.woken = true;
    setImmediate(() => {
      this.woken = false;
      if (!this.stopped) void this.runDue();
    });
  }

  private report(err: unknown, message: string): void {
    if (!this.stopped) this.deps.log.warn({ err }, message);
  }
}

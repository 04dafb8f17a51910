/**
 * The webhook deliverer: sends the deliveries every service queued (events.ts), signed, through the
 * polite outbound client (lib/http/polite-fetch.ts: a User-Agent naming trio, spacing per host, a
 * timeout over the whole exchange), never following a redirect. It runs in the process that owns the
 * database file (app.ts startBackgroundJobs; the cluster primary), never on a request's path.
 *
 * - At least once: a delivery is marked succeeded only after a 2xx; an attempt cut short by a crash is
 *   retried when its lease (`locked_until`) runs out.
 * - In order: only the oldest pending delivery of an endpoint and subject (a task) is sent; the next
 *   waits until it succeeds or fails for good. Different tasks and endpoints go in parallel, up to
 *   WEBHOOK_CONCURRENCY attempts in flight, so a slow receiver holds up only its own queue.
 * - Retries: lib/webhooks/schedule.ts (ten attempts over a day). 410 Gone disables the endpoint
 *   (Standard Webhooks); a 3xx is a failure (update the URL instead).
 * Times come from the injected clock: tests move time and call runDue().
 */
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { FetchFailedError, PoliteClient } from '../../lib/http/polite-fetch.ts';
import { retryAfterMs } from '../../lib/funding/backoff.ts';
import type { WebhookConfig } from '../../lib/webhooks/config.ts';
import { nextAttemptAt } from '../../lib/webhooks/schedule.ts';
import { signedHeaders } from '../../lib/webhooks/signing.ts';
import { privateAddressOf } from './address.ts';
import { disableGone, endpointById, signingSecrets } from './endpoints.ts';
import { pruneEvents } from './events.ts';

const USER_AGENT = 'trio-webhooks/1.0 (Standard Webhooks; https://www.standardwebhooks.com)';
const PRUNE_EVERY_MS = 10 * 60_000;
/** An attempt's lease beyond its timeout: past it, another pass may try the delivery again. */
const LEASE_MARGIN_MS = 10_000;

interface Due {
  id: number;
  event_id: number;
  endpoint_id: number;
  attempts: number;
}

const statements = statementsFor((db) => ({
  due: db.prepare(`SELECT d.id, d.event_id, d.endpoint_id, d.attempts FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.disabled_at IS NULL AND e.deleted_at IS NULL
      WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND (d.locked_until IS NULL OR d.locked_until <= @now)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id AND p.subject = d.subject
                        AND p.status = 'pending' AND p.id < d.id)
      ORDER BY d.next_attempt_at, d.id LIMIT @limit`),
  claim: db.prepare(`UPDATE webhook_deliveries SET locked_until = @until WHERE id = @id AND status = 'pending'
      AND (locked_until IS NULL OR locked_until <= @now)`),
  payload: db.prepare('SELECT public_id, payload FROM webhook_events WHERE id = ?'),
  succeeded:
    db.prepare(`UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, next_attempt_at = NULL,
      locked_until = NULL, last_attempt_at = @at, last_status = @code, last_error = NULL, finished_at = @at WHERE id = @id`),
  failed: db.prepare(`UPDATE webhook_deliveries SET status = @status, attempts = attempts + 1, next_attempt_at = @next,
      locked_until = NULL, last_attempt_at = @at, last_status = @code, last_error = @error,
      finished_at = CASE WHEN @status = 'failed' THEN @at END WHERE id = @id`),
  pending: db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck(),
}));

type Outcome =
  { ok: true; code: number } | { ok: false; code: number | null; error: string; retryAfter: string | null };

export class WebhookDispatcher {
  private readonly client: PoliteClient;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly inFlight = new Map<number, Promise<void>>();
  private lastPrune = 0;
  private woken = false;

  constructor(
    private readonly deps: { db: Db; clock: () => number; log: Pick<Logger, 'warn' | 'error'>; config: WebhookConfig },
  ) {
    this.client = new PoliteClient({
      userAgent: USER_AGENT,
      ratePerHost: 20,
      timeoutMs: deps.config.timeoutMs,
      retries: 0, // retries are this deliverer's, over a day, not the client's
      retryBaseMs: 0,
      retryMaxMs: 0,
    });
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.runDue(), this.deps.config.pollMs);
    this.timer.unref();
    void this.runDue();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** Deliveries waiting to be sent (the pending gauge of docs/operations.md). */
  pendingCount(): number {
    return statements(this.deps.db).pending.get() as number;
  }

  /**
   * One pass: starts an attempt for every due delivery at the head of its queue, up to the free
   * concurrency, and resolves once those attempts are recorded, with how many it started.
   */
  async runDue(): Promise<number> {
    const { db, clock, config } = this.deps;
    const now = clock();
    const free = config.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    let due: Due[];
    try {
      due = statements(db).due.all({ now, limit: free }) as Due[];
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        pruneEvents(db, now);
      }
    } catch (err) {
      this.report(err, 'webhook deliverer could not read its queue (database busy); next pass');
      return 0;
    }
    const started: Promise<void>[] = [];
    for (const d of due) {
      if (this.inFlight.has(d.id)) continue;
      const claim = statements(db).claim.run({ id: d.id, now, until: now + config.timeoutMs + LEASE_MARGIN_MS });
      if (claim.changes !== 1) continue;
      const attempt = this.attempt(d);
      this.inFlight.set(d.id, attempt);
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

  private async attempt(d: Due): Promise<void> {
    const { clock } = this.deps;
    try {
      const outcome = await this.send(d);
      this.record(d, outcome, clock());
    } catch (err) {
      this.report(err, 'webhook delivery not recorded; it is retried when its lease ends');
    } finally {
      this.inFlight.delete(d.id);
      this.wake(); // the next event of the same task may go now
    }
  }

  private async send(d: Due): Promise<Outcome> {
    const { db, clock, config } = this.deps;
    const endpoint = endpointById(db, d.endpoint_id)!;
    const event = statements(db).payload.get(d.event_id) as { public_id: string; payload: string };
    const now = clock();
    try {
      if (!config.allowPrivate) {
        const address = await privateAddressOf(new URL(endpoint.url).hostname);
        if (address !== null)
          return {
            ok: false,
            code: null,
            error: `refused: ${new URL(endpoint.url).hostname} resolves to the private address ${address} (WEBHOOK_ALLOW_PRIVATE is off)`,
            retryAfter: null,
          };
      }
      const res = await this.client.fetch(endpoint.url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          ...signedHeaders(signingSecrets(endpoint, now), event.public_id, Math.floor(now / 1000), event.payload),
        },
        body: event.payload,
      });
      if (res.status >= 200 && res.status < 300) return { ok: true, code: res.status };
      return { ok: false, code: res.status, error: `HTTP ${res.status}`, retryAfter: null };
    } catch (err) {
      if (err instanceof FetchFailedError)
        return {
          ok: false,
          code: err.status,
          error: err.message.replace(`${endpoint.url}: `, ''),
          retryAfter: err.retryAfter,
        };
      return { ok: false, code: null, error: (err as Error).message, retryAfter: null };
    }
  }

  private record(d: Due, outcome: Outcome, at: number): void {
    const { db } = this.deps;
    const s = statements(db);
    if (outcome.ok) {
      s.succeeded.run({ id: d.id, at, code: outcome.code });
      return;
    }
    const gone = outcome.code === 410;
    const attempts = d.attempts + 1;
    const next = gone ? null : nextAttemptAt(attempts, at, retryAfterMs(outcome.retryAfter, at));
    db.transaction(() => {
      s.failed.run({
        id: d.id,
        at,
        code: outcome.code,
        error: (gone ? 'the receiver answered 410 Gone: the endpoint was disabled' : outcome.error).slice(0, 500),
        status: next === null ? 'failed' : 'pending',
        next,
      });
      if (gone) disableGone(db, d.endpoint_id, at);
    }).immediate();
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

/**
 * The webhook channel of the shared outbox deliverer (db/outbox/deliverer.ts: claiming, the retry
 * schedule, recording, the loop): sends the deliveries every service queued (events.ts), signed,
 * through the polite outbound client (lib/http/polite-fetch.ts: a User-Agent naming trio, spacing per
 * host, a timeout over the whole exchange), never following a redirect.
 *
 * - At least once: a delivery is marked succeeded only after a 2xx; an attempt cut short by a crash is
 *   retried when its lease (`locked_until`) runs out.
 * - In order: only the oldest pending delivery of an endpoint and subject (a task) is due; the next
 *   waits until it succeeds or fails for good. Different tasks and endpoints go in parallel, up to
 *   WEBHOOK_CONCURRENCY attempts in flight, so a slow receiver holds up only its own queue.
 * - Retries: lib/outbox/schedule.ts (ten attempts over a day). 410 Gone disables the endpoint
 *   (Standard Webhooks) and stops at once; a 3xx is a failure (update the URL instead).
 * Times come from the injected clock: tests move time and call settle().
 */
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { FetchFailedError, PoliteClient } from '../../lib/http/polite-fetch.ts';
import { retryAfterMs } from '../../lib/funding/backoff.ts';
import type { WebhookConfig } from '../../lib/webhooks/config.ts';
import { signedHeaders } from '../../lib/webhooks/signing.ts';
import { OutboxDeliverer, type OutboxChannel, type Outcome } from '../outbox/deliverer.ts';
import { privateAddressOf } from './address.ts';
import { disableGone, endpointById, signingSecrets } from './endpoints.ts';
import { pruneEvents } from './events.ts';

const USER_AGENT = 'trio-webhooks/1.0 (Standard Webhooks; https://www.standardwebhooks.com)';

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
  payload: db.prepare('SELECT public_id, payload FROM webhook_events WHERE id = ?'),
}));

function webhookChannel(db: Db, config: WebhookConfig): OutboxChannel<Due> {
  const client = new PoliteClient({
    userAgent: USER_AGENT,
    ratePerHost: 20,
    timeoutMs: config.timeoutMs,
    retries: 0, // retries are the outbox's, over a day, not the client's
    retryBaseMs: 0,
    retryMaxMs: 0,
  });
  const refused = (code: number | null, error: string, retryAfter: string | null, now: number): Outcome => ({
    ok: false,
    code,
    error,
    retryAfterMs: retryAfterMs(retryAfter, now),
    permanent: code === 410,
  });
  return {
    table: 'webhook_deliveries',
    noun: 'webhook delivery',
    logFinalFailures: false, // the account sees it on its endpoint's deliveries
    due: (db, now, limit) => statements(db).due.all({ now, limit }) as Due[],
    async send(d, now) {
      const endpoint = endpointById(db, d.endpoint_id)!;
      const event = statements(db).payload.get(d.event_id) as { public_id: string; payload: string };
      const host = new URL(endpoint.url).hostname;
      try {
        if (!config.allowPrivate) {
          const address = await privateAddressOf(host);
          if (address !== null)
            return refused(
              null,
              `refused: ${host} resolves to the private address ${address} (WEBHOOK_ALLOW_PRIVATE is off)`,
              null,
              now,
            );
        }
        const res = await client.fetch(endpoint.url, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'content-type': 'application/json',
            ...signedHeaders(signingSecrets(endpoint, now), event.public_id, Math.floor(now / 1000), event.payload),
          },
          body: event.payload,
        });
        if (res.status >= 200 && res.status < 300) return { ok: true, code: res.status };
        return refused(res.status, `HTTP ${res.status}`, null, now);
      } catch (err) {
        if (err instanceof FetchFailedError)
          return refused(err.status, err.message.replace(`${endpoint.url}: `, ''), err.retryAfter, now);
        return refused(null, (err as Error).message, null, now);
      }
    },
    onFailure(db, d, outcome, at) {
      if (outcome.code !== 410) return;
      disableGone(db, d.endpoint_id, at);
      return 'the receiver answered 410 Gone: the endpoint was disabled';
    },
    housekeeping: (db, now) => void pruneEvents(db, now),
  };
}

/** The webhook deliverer: the shared outbox deliverer over webhook_deliveries. */
export class WebhookDispatcher extends OutboxDeliverer<Due> {
  constructor(deps: { db: Db; clock: () => number; log: Pick<Logger, 'warn' | 'error'>; config: WebhookConfig }) {
    super({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      settings: deps.config,
      channel: webhookChannel(deps.db, deps.config),
    });
  }
}

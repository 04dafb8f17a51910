/**
 * Webhook events: the outbox every service writes to, and the log clients list and replay.
 *
 * How a service emits (issue 26; issue 27's funding notifications use the same call):
 *
 *     emitEvent(db, { accountId, environment: 'live', type: 'funding.call.matched',
 *                     subject: `saved_search:${id}`, data: { … }, now })
 *
 * inside the transaction that makes the change it reports, so the event exists exactly when the
 * change does (a rollback drops both). The type must be listed in lib/webhooks/event-types.ts; the
 * subject names what the event is about: deliveries to an endpoint go one at a time, in order, per
 * subject. One delivery is queued per enabled endpoint of the account and environment that subscribes
 * to the type; the deliverer (dispatcher.ts, in the process that owns the file) sends them. Nothing
 * here does I/O beyond the database, so emitting never blocks a request on a receiver.
 *
 * The body every attempt sends is built once and stored: {id, type, timestamp, environment, data}.
 * Events are kept EVENT_RETENTION_MS (30 days), then pruned with their deliveries.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import type { OutboxRow } from '../outbox/deliverer.ts';
import { DomainError } from '../../lib/domain-error.ts';
import { timeOrderedId } from '../../lib/random-base62.ts';
import { EVENT_TYPE_PATTERN, EVENT_TYPES, subscribed, TEST_EVENT_TYPE } from '../../lib/webhooks/event-types.ts';
import { ownEndpoint, type WebhookEnvironment, type WebhookOwner } from './endpoints.ts';

export const EVENT_RETENTION_MS = 30 * 86_400_000;

export interface NewEvent {
  accountId: number;
  environment: WebhookEnvironment;
  /** '<service>.<resource>.<what>', listed in lib/webhooks/event-types.ts. */
  type: string;
  /** What it is about, e.g. 'task:tsk_…': the unit of in-order delivery. */
  subject: string;
  /** The event's own data (a task, a call…): what the receiver needs without calling back. */
  data: Record<string, unknown>;
  now: number;
  /** false: the event is recorded (listed, replayable) but queued to no endpoint (a saved search by e-mail only). */
  deliver?: boolean;
}

interface EventRow {
  id: number;
  public_id: string;
  account_id: number;
  environment: WebhookEnvironment;
  type: string;
  subject: string;
  payload: string;
  created_at: number;
}

interface DeliveryRow extends OutboxRow {
  endpoint: string;
  trigger: 'event' | 'replay' | 'test';
  status: 'pending' | 'succeeded' | 'failed';
}

const statements = statementsFor((db) => ({
  insertEvent:
    db.prepare(`INSERT INTO webhook_events (public_id, account_id, environment, type, subject, payload, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`),
  endpoints: db.prepare(`SELECT id, event_types FROM webhook_endpoints WHERE account_id = ? AND environment = ?
      AND deleted_at IS NULL AND disabled_at IS NULL`),
  queue:
    db.prepare(`INSERT INTO webhook_deliveries (event_id, endpoint_id, subject, trigger, status, next_attempt_at, created_at)
      VALUES (?, ?, ?, ?, 'pending', ?, ?)`),
  own: db.prepare('SELECT * FROM webhook_events WHERE public_id = ? AND account_id = ? AND environment = ?'),
  list: db.prepare(`SELECT * FROM webhook_events WHERE account_id = @account AND environment = @environment
      AND (@type IS NULL OR type = @type OR (substr(@type, -2) = '.*' AND type LIKE substr(@type, 1, length(@type) - 1) || '%'))
      AND (@subject IS NULL OR subject = @subject) AND (@before IS NULL OR id < @before)
      ORDER BY id DESC LIMIT @limit`),
  deliveries: db.prepare(`SELECT d.id, e.public_id AS endpoint, d.trigger, d.status, d.attempts, d.next_attempt_at,
      d.last_attempt_at, d.last_status, d.last_error, d.created_at, d.finished_at
      FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.event_id = ? ORDER BY d.id`),
  // Ids grow with time: everything below the first event young enough to keep (no index on created_at).
  prune: db.prepare(`DELETE FROM webhook_events WHERE id < coalesce(
      (SELECT id FROM webhook_events WHERE created_at >= ? ORDER BY id LIMIT 1), (SELECT max(id) + 1 FROM webhook_events))`),
  recent: db.prepare(`SELECT d.trigger, d.status, d.attempts, d.last_attempt_at, d.last_status, d.last_error,
      d.next_attempt_at, d.created_at, ev.public_id AS event, ev.type FROM webhook_deliveries d
      JOIN webhook_events ev ON ev.id = d.event_id WHERE d.endpoint_id = ? ORDER BY d.id DESC LIMIT ?`),
}));

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** 'evt_' + 24 base62: the time, then 16 random (about 95 bits), as task refs are made. */
const newEventId = (now: number) => timeOrderedId('evt_', now, 16);

/** The one way a service emits an event (see the head comment). Runs inside the caller's transaction. */
export function emitEvent(db: Db, event: NewEvent): { id: string } {
  if (!EVENT_TYPE_PATTERN.test(event.type) || !Object.hasOwn(EVENT_TYPES, event.type))
    throw new Error(`webhook event type ${event.type} is not listed in lib/webhooks/event-types.ts`);
  const row = insertEvent(db, event);
  if (event.deliver === false) return { id: row.public_id };
  for (const endpoint of statements(db).endpoints.all(event.accountId, event.environment) as Array<{
    id: number;
    event_types: string;
  }>) {
    if (subscribed(endpoint.event_types.split(' '), event.type))
      statements(db).queue.run(row.id, endpoint.id, event.subject, 'event', event.now, event.now);
  }
  return { id: row.public_id };
}

function insertEvent(db: Db, event: NewEvent): { id: number; public_id: string } {
  const publicId = newEventId(event.now);
  const payload = JSON.stringify({
    id: publicId,
    type: event.type,
    timestamp: new Date(event.now).toISOString(),
    environment: event.environment === 'test' ? 'sandbox' : 'live',
    data: event.data,
  });
  const info = statements(db).insertEvent.run(
    publicId,
    event.accountId,
    event.environment,
    event.type,
    event.subject,
    payload,
    event.now,
  );
  return { id: Number(info.lastInsertRowid), public_id: publicId };
}

/** An event as clients list it: its body as delivered, and where it went. */
function presentEvent(db: Db, row: EventRow, withDeliveries: boolean) {
  const body = JSON.parse(row.payload) as { data: Record<string, unknown> };
  return {
    id: row.public_id,
    type: row.type,
    subject: row.subject,
    environment: row.environment === 'test' ? ('sandbox' as const) : ('live' as const),
    created_at: iso(row.created_at)!,
    data: body.data,
    ...(withDeliveries
      ? {
          deliveries: (statements(db).deliveries.all(row.id) as DeliveryRow[]).map((d) => ({
            endpoint: d.endpoint,
            trigger: d.trigger,
            status: d.status,
            attempts: d.attempts,
            next_attempt_at: iso(d.next_attempt_at),
            last_attempt_at: iso(d.last_attempt_at),
            last_status: d.last_status,
            last_error: d.last_error,
            finished_at: iso(d.finished_at),
          })),
        }
      : {}),
  };
}
export type EventJson = ReturnType<typeof presentEvent>;

export function ownEvent(db: Db, owner: WebhookOwner, id: string): EventRow {
  const row = /^evt_[0-9A-Za-z]{24}$/.test(id)
    ? (statements(db).own.get(id, owner.accountId, owner.environment) as EventRow | undefined)
    : undefined;
  if (!row)
    throw new DomainError(
      'not_found',
      `No event ${id.slice(0, 40)} for this account in the ${owner.environment === 'test' ? 'sandbox' : 'live'} environment (events are kept 30 days).`,
      'id',
    );
  return row;
}

export function getEvent(db: Db, owner: WebhookOwner, id: string): EventJson {
  return presentEvent(db, ownEvent(db, owner, id), true);
}

export interface EventFilter {
  /** An exact type, or a namespace ending in '.*'. */
  type?: string | undefined;
  subject?: string | undefined;
  /** The numeric id of the last event of the previous page (from its cursor). */
  before?: number | undefined;
  limit: number;
}

/** The owner's events, newest first, a page at a time; `next_cursor` continues it. */
export function listEvents(db: Db, owner: WebhookOwner, filter: EventFilter) {
  const rows = statements(db).list.all({
    account: owner.accountId,
    environment: owner.environment,
    type: filter.type ?? null,
    subject: filter.subject ?? null,
    before: filter.before ?? null,
    limit: filter.limit + 1,
  }) as EventRow[];
  const page = rows.slice(0, filter.limit);
  return {
    data: page.map((r) => presentEvent(db, r, false)),
    next_cursor: rows.length > filter.limit ? String(page[page.length - 1]!.id) : null,
  };
}

/**
 * Sends an event again, now: to one endpoint of the owner's (`endpointId`), or to every enabled
 * endpoint that subscribes to its type. The receiver sees the same webhook-id (the event's) and body.
 */
export function replayEvent(db: Db, owner: WebhookOwner, id: string, endpointId: string | undefined, now: number) {
  const event = ownEvent(db, owner, id);
  const named = endpointId === undefined ? undefined : ownEndpoint(db, owner, endpointId);
  if (named?.disabled_at != null)
    throw new DomainError(
      'invalid_request',
      `Endpoint ${named.public_id} is disabled (${named.disabled_reason === 'gone' ? 'it answered 410 Gone' : 'by you'}): enable it first.`,
      'endpoint',
    );
  const targets =
    named !== undefined
      ? [named]
      : (
          statements(db).endpoints.all(owner.accountId, owner.environment) as Array<{ id: number; event_types: string }>
        ).filter((e) => subscribed(e.event_types.split(' '), event.type));
  if (targets.length === 0)
    throw new DomainError(
      'invalid_request',
      `No enabled endpoint of this account subscribes to ${event.type}: register one (or name one with endpoint) first.`,
      'endpoint',
    );
  db.transaction(() => {
    for (const t of targets) statements(db).queue.run(event.id, t.id, event.subject, 'replay', now, now);
  }).immediate();
  return presentEvent(db, event, true);
}

/** The test button: a `webhook.endpoint.test` event delivered to this endpoint only, whatever it subscribes to. */
export function sendTestEvent(db: Db, owner: WebhookOwner, endpointId: string, now: number): EventJson {
  const endpoint = ownEndpoint(db, owner, endpointId);
  const row = db
    .transaction(() => {
      const inserted = insertEvent(db, {
        accountId: owner.accountId,
        environment: owner.environment,
        type: TEST_EVENT_TYPE,
        subject: `endpoint:${endpoint.public_id}`,
        data: { endpoint: endpoint.public_id, message: 'A test event: your endpoint received and can verify it.' },
        now,
      });
      statements(db).queue.run(inserted.id, endpoint.id, `endpoint:${endpoint.public_id}`, 'test', now, now);
      return inserted;
    })
    .immediate();
  return getEvent(db, owner, row.public_id);
}

/** An endpoint's latest deliveries, newest first (the console's endpoint list). */
export function recentDeliveries(db: Db, endpointId: number, limit: number) {
  return statements(db).recent.all(endpointId, limit) as Array<{
    trigger: string;
    status: string;
    attempts: number;
    last_attempt_at: number | null;
    last_status: number | null;
    last_error: string | null;
    next_attempt_at: number | null;
    created_at: number;
    event: string;
    type: string;
  }>;
}

/** Deletes events (and their deliveries) older than the retention; the deliverer calls it now and then. */
export function pruneEvents(db: Db, now: number): number {
  return statements(db).prune.run(now - EVENT_RETENTION_MS).changes;
}

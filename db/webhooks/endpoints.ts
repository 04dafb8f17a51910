/**
 * Webhook endpoints: registered per account and environment ('test' endpoints receive sandbox events,
 * 'live' the rest), each with its own signing secret. Shown to clients without the secret, which is
 * given once, when the endpoint is made or its secret rotated (it is kept to sign, like a payment API's).
 * Refusals are DomainErrors with the shared codes invalid_request and not_found; each service's edge
 * gives them its status and shape.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { DomainError } from '../../lib/domain-error.ts';
import { randomBase62 } from '../../lib/random-base62.ts';
import {
  checkEndpointUrl,
  MAX_ENDPOINTS,
  unknownSubscription,
  type EndpointChangesInput,
  type EndpointInput,
} from '../../lib/webhooks/inputs.ts';
import { newSecret } from '../../lib/webhooks/signing.ts';
import { isPrivateHostLiteral } from './address.ts';

export type WebhookEnvironment = 'test' | 'live';

/** Whose endpoints: an account in one environment. */
export interface WebhookOwner {
  accountId: number;
  environment: WebhookEnvironment;
}

/** What decides which URLs are accepted (lib/webhooks/config.ts). */
export interface UrlPolicy {
  allowPrivate: boolean;
}

export interface EndpointRow {
  id: number;
  public_id: string;
  account_id: number;
  environment: WebhookEnvironment;
  url: string;
  description: string | null;
  event_types: string;
  secret: string;
  previous_secret: string | null;
  previous_expires_at: number | null;
  created_at: number;
  updated_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
}

/** How long a rotated-out secret still signs deliveries (beside the new one), so receivers can switch. */
export const ROTATION_GRACE_MS = 24 * 3_600_000;

const statements = statementsFor((db) => ({
  insert: db.prepare(`INSERT INTO webhook_endpoints (public_id, account_id, environment, url, description, event_types,
      secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  count: db
    .prepare('SELECT count(*) FROM webhook_endpoints WHERE account_id = ? AND environment = ? AND deleted_at IS NULL')
    .pluck(),
  list: db.prepare(
    'SELECT * FROM webhook_endpoints WHERE account_id = ? AND environment = ? AND deleted_at IS NULL ORDER BY id',
  ),
  own: db.prepare(
    'SELECT * FROM webhook_endpoints WHERE public_id = ? AND account_id = ? AND environment = ? AND deleted_at IS NULL',
  ),
  byId: db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?'),
  update: db.prepare(`UPDATE webhook_endpoints SET url = @url, description = @description, event_types = @event_types,
      disabled_at = @disabled_at, disabled_reason = @disabled_reason, updated_at = @now WHERE id = @id`),
  rotate: db.prepare(`UPDATE webhook_endpoints SET previous_secret = secret, previous_expires_at = ?, secret = ?,
      updated_at = ? WHERE id = ?`),
  remove: db.prepare('UPDATE webhook_endpoints SET deleted_at = ?, updated_at = ? WHERE id = ?'),
  dropPending: db.prepare(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, finished_at = ?,
      last_error = ? WHERE endpoint_id = ? AND status = 'pending'`),
  disable: db.prepare(`UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?, updated_at = ?
      WHERE id = ? AND disabled_at IS NULL`),
}));

const invalid = (message: string, param: string) => new DomainError('invalid_request', message, param);

/** The endpoint as clients see it (never its secret). */
export function presentEndpoint(row: EndpointRow) {
  return {
    id: row.public_id,
    url: row.url,
    description: row.description,
    event_types: row.event_types.split(' '),
    environment: row.environment === 'test' ? ('sandbox' as const) : ('live' as const),
    enabled: row.disabled_at === null,
    disabled_reason: row.disabled_reason as 'by_client' | 'gone' | null,
    secret_hint: `${row.secret.slice(0, 10)}…`,
    secret_rotating_until: row.previous_expires_at === null ? null : new Date(row.previous_expires_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
export type EndpointJson = ReturnType<typeof presentEndpoint>;

function checkUrl(url: string, owner: WebhookOwner, policy: UrlPolicy): void {
  const problem = checkEndpointUrl(url, owner.environment === 'test' || policy.allowPrivate);
  if (problem) throw invalid(`Invalid field 'url': it ${problem}.`, 'url');
  if (!policy.allowPrivate && isPrivateHostLiteral(new URL(url).hostname))
    throw invalid(
      "Invalid field 'url': it names a loopback or private address, which this server does not call (WEBHOOK_ALLOW_PRIVATE is off). Give a public address.",
      'url',
    );
}

function checkTypes(types: readonly string[]): string {
  const unknown = unknownSubscription(types);
  if (unknown !== null)
    throw invalid(
      `Invalid field 'event_types': '${unknown.slice(0, 60)}' is not an event type. Give exact types such as human.task.delivered, a namespace such as human.task.*, or *.`,
      'event_types',
    );
  return [...new Set(types)].join(' ');
}

export function createEndpoint(
  db: Db,
  owner: WebhookOwner,
  input: EndpointInput,
  now: number,
  policy: UrlPolicy,
): { endpoint: EndpointJson; secret: string } {
  checkUrl(input.url, owner, policy);
  const types = checkTypes(input.event_types ?? ['*']);
  const s = statements(db);
  if ((s.count.get(owner.accountId, owner.environment) as number) >= MAX_ENDPOINTS)
    throw invalid(
      `This account has ${MAX_ENDPOINTS} ${owner.environment === 'test' ? 'sandbox' : 'live'} endpoints, the most it may have. Delete one first.`,
      'url',
    );
  const secret = newSecret();
  const info = s.insert.run(
    `we_${randomBase62(20)}`,
    owner.accountId,
    owner.environment,
    input.url,
    input.description ?? null,
    types,
    secret,
    now,
    now,
  );
  return { endpoint: presentEndpoint(s.byId.get(Number(info.lastInsertRowid)) as EndpointRow), secret };
}

export function listEndpoints(db: Db, owner: WebhookOwner): EndpointJson[] {
  return (statements(db).list.all(owner.accountId, owner.environment) as EndpointRow[]).map(presentEndpoint);
}

/** The owner's endpoint by its public id, or not_found. */
export function ownEndpoint(db: Db, owner: WebhookOwner, id: string): EndpointRow {
  const row = /^we_[0-9A-Za-z]{20}$/.test(id)
    ? (statements(db).own.get(id, owner.accountId, owner.environment) as EndpointRow | undefined)
    : undefined;
  if (!row)
    throw new DomainError(
      'not_found',
      `No webhook endpoint ${id.slice(0, 40)} for this account in the ${owner.environment === 'test' ? 'sandbox' : 'live'} environment.`,
      'id',
    );
  return row;
}

export function endpointById(db: Db, id: number): EndpointRow | undefined {
  return statements(db).byId.get(id) as EndpointRow | undefined;
}

export function updateEndpoint(
  db: Db,
  owner: WebhookOwner,
  id: string,
  changes: EndpointChangesInput,
  now: number,
  policy: UrlPolicy,
): EndpointJson {
  const row = ownEndpoint(db, owner, id);
  if (changes.url !== undefined) checkUrl(changes.url, owner, policy);
  const enabled = changes.enabled ?? row.disabled_at === null;
  statements(db).update.run({
    id: row.id,
    url: changes.url ?? row.url,
    description: changes.description === undefined ? row.description : changes.description,
    event_types: changes.event_types === undefined ? row.event_types : checkTypes(changes.event_types),
    disabled_at: enabled ? null : (row.disabled_at ?? now),
    disabled_reason: enabled ? null : (row.disabled_reason ?? 'by_client'),
    now,
  });
  return presentEndpoint(endpointById(db, row.id)!);
}

/** A new secret; the old one keeps signing (beside it) for ROTATION_GRACE_MS. */
export function rotateSecret(db: Db, owner: WebhookOwner, id: string, now: number) {
  const row = ownEndpoint(db, owner, id);
  const secret = newSecret();
  statements(db).rotate.run(now + ROTATION_GRACE_MS, secret, now, row.id);
  return { endpoint: presentEndpoint(endpointById(db, row.id)!), secret };
}

/** Deletes the endpoint; its pending deliveries end as failed (kept in the event log). */
export function deleteEndpoint(db: Db, owner: WebhookOwner, id: string, now: number): EndpointJson {
  const row = ownEndpoint(db, owner, id);
  db.transaction(() => {
    statements(db).remove.run(now, now, row.id);
    statements(db).dropPending.run(now, 'the endpoint was deleted', row.id);
  }).immediate();
  return presentEndpoint(row);
}

/** The receiver answered 410 Gone: no more deliveries until the client enables the endpoint again. */
export function disableGone(db: Db, endpointId: number, now: number): void {
  statements(db).disable.run(now, 'gone', now, endpointId);
}

/** The secrets a delivery is signed with now: the current one, and a rotated-out one still in its grace. */
export function signingSecrets(row: EndpointRow, now: number): string[] {
  return row.previous_secret !== null && row.previous_expires_at !== null && row.previous_expires_at > now
    ? [row.secret, row.previous_secret]
    : [row.secret];
}

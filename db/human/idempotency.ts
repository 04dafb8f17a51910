/**
 * Idempotency records of POST /tasks (and of the MCP create tool, which shares them): the first
 * order an Idempotency-Key created, kept 24 hours and scoped to the key's account and environment.
 * Only an order that was created is recorded (in the order's own transaction): a refusal stored
 * nothing, so retrying it with the same key after fixing the cause is safe and not a conflict.
 * A record older than 24 hours is treated as absent and replaced; pruneIdempotency deletes them.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  task_id: number;
  created_at: number;
}

const statements = statementsFor((db) => ({
  find: db.prepare(`SELECT fingerprint, status, body, task_id, created_at FROM human_idempotency
      WHERE account_id = ? AND environment = ? AND idempotency_key = ? AND created_at > ?`),
  // A record past its 24 hours may still be there (pruned every few minutes): the new order replaces it.
  save: db.prepare(`INSERT INTO human_idempotency (account_id, environment, idempotency_key, fingerprint, status, body, task_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, environment, idempotency_key) DO UPDATE SET
      fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body, task_id = excluded.task_id, created_at = excluded.created_at`),
  prune: db.prepare('DELETE FROM human_idempotency WHERE created_at <= ?'),
}));

export function findIdempotency(
  db: Db,
  accountId: number,
  environment: string,
  key: string,
  now: number,
): IdempotencyRecord | undefined {
  return statements(db).find.get(accountId, environment, key, now - IDEMPOTENCY_TTL_MS) as
    IdempotencyRecord | undefined;
}

export function saveIdempotency(
  db: Db,
  accountId: number,
  environment: string,
  key: string,
  record: IdempotencyRecord,
): void {
  statements(db).save.run(
    accountId,
    environment,
    key,
    record.fingerprint,
    record.status,
    record.body,
    record.task_id,
    record.created_at,
  );
}

export function pruneIdempotency(db: Db, now: number): number {
  return statements(db).prune.run(now - IDEMPOTENCY_TTL_MS).changes;
}

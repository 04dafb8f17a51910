/**
 * In-process callers of the human API. The explorer's tasks playground (routes/explore/tasks-*.ts)
 * calls the public API in process on behalf of a signed-in account, with that account's "Explorer
 * playground" key, whose secret was discarded when it was made (keys are stored hashed). Instead of a
 * secret, the playground marks the request object it builds itself with the key's id; the access
 * stage (access.ts) then authenticates it as that key with the same checks as a presented key
 * (revoked or expired → 401, same rate-limit bucket, same scopes).
 *
 * Only server code holding the request object can mark it: the mark lives in this WeakMap, never in a
 * header or the query, so nothing a client sends over HTTP can reach this path.
 */
import { getKey, type KeyRow } from '../../db/accounts.ts';
import type { Db } from '../../db/connection.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { keyState, type KeyCheck } from '../../lib/key-check.ts';

const marks = new WeakMap<ApiRequest, number>();

/** Marks an in-process request as made by the key with this id. */
export function markInProcessCaller(req: ApiRequest, keyId: number): void {
  marks.set(req, keyId);
}

/** The marked key of a request, checked like a presented one; null when the request is not marked. */
export function inProcessKeyCheck(db: Db, req: ApiRequest): KeyCheck<KeyRow> | null {
  const keyId = marks.get(req);
  if (keyId === undefined) return null;
  const key = getKey(db, keyId);
  return keyState(key?.service === 'human' ? key : undefined, req.now);
}

/**
 * Who is calling the human API and how much they may call (document "Authentication", "Limits";
 * SPEC "Keys", "Rate limits"). Runs before every route: a presented key is checked (an unknown,
 * revoked or expired one is 401 on every endpoint, never served as anonymous), the request is counted
 * (one bucket per key, `human:key:<id>`, 120 a minute, which the MCP server shares; anonymous calls
 * 60 a minute per address, `human:ip:<address>`), and the limit headers go on every reply.
 *
 * The functions are exported for the MCP server: presentedKey + authenticate + takeHumanLimit with
 * keyBucket(caller.keyId) is exactly what this stage does, so both transports spend one allowance.
 */
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type { IncomingHttpHeaders } from 'node:http';
import { checkKey, type KeyCheck, type StoredKey } from '../../lib/key-check.ts';
import { readPresentedKey } from '../../lib/http/presented-key.ts';
import { invalidRequest } from '../../lib/human/errors.ts';
import { keyRevoked, unauthorized } from './errors.ts';
import type { HumanCaller } from '../../db/human/service.ts';
import type { Decision, Limits } from '../../lib/rate-limit.ts';
import type { AppContext } from '../context.ts';
import { HUMAN_BASE } from '../../lib/human/present.ts';
import { inProcessKeyCheck } from './in-process-caller.ts';

const MCP_ENDPOINT = `${HUMAN_BASE}/mcp`;

/** Mutable so that the benchmark's server process can lift them (bench/human-server.ts). */
export const HUMAN_LIMITS: { key: Limits; anonymous: Limits } = {
  key: { perMinute: 120, perDay: null },
  anonymous: { perMinute: 60, perDay: null },
};

export const keyBucket = (keyId: number) => `human:key:${keyId}`;
export const addressBucket = (ipBucket: string) => `human:ip:${ipBucket}`;

/** The key in `Authorization: Bearer …` or `X-Api-Key` (header names are case-insensitive), or null. */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const presented = readPresentedKey(headers);
  if (presented.kind === 'malformed')
    throw unauthorized('Send the key as Authorization: Bearer <key> (or in X-Api-Key).');
  if (presented.kind === 'conflict')
    throw invalidRequest('Authorization and X-Api-Key carry different keys; send one key.', 'Authorization');
  return presented.kind === 'key' ? presented.key : null;
}

/** A presented key → its caller, or 401: unauthorized (not a key of ours), key_revoked (revoked or expired). */
export function authenticate(ctx: Pick<AppContext, 'lookupKey'>, presented: string, now: number): HumanCaller {
  return callerFromCheck(checkKey(presented, ['ho_test_', 'ho_live_'], now, ctx.lookupKey));
}

/** A checked key → its caller, or 401 (a presented key, or an in-process caller's: in-process-caller.ts). */
function callerFromCheck(check: KeyCheck<StoredKey>): HumanCaller {
  if (check.kind === 'unknown')
    throw unauthorized('The key is not recognised. Human task keys start with ho_test_ or ho_live_.');
  if (check.kind === 'revoked') throw keyRevoked('The key has been revoked. Create a new one in the console.');
  if (check.kind === 'expired')
    throw keyRevoked('The key has expired (it was rotated and its grace period ended). Use its replacement.');
  const { key } = check;
  return {
    keyId: key.id,
    accountId: key.account_id,
    environment: key.environment === 'live' ? 'live' : 'test',
    scopes: key.scopes ? key.scopes.split(' ') : [],
  };
}

/** Counts one request; 429 rate_limited with Retry-After (the wait for one slot) when the bucket is empty. */
export async function takeHumanLimit(
  ctx: Pick<AppContext, 'limiter'>,
  bucket: string,
  limits: Limits,
  now: number,
): Promise<Decision> {
  const decision = await ctx.limiter.take(bucket, limits, now);
  if (!decision.allowed) throw rateLimited(decision);
  return decision;
}

export function rateLimited(decision: Decision): HttpError {
  const wait = decision.retryAfterSeconds;
  return new HttpError(429, 'rate_limited', `More than ${decision.minute!.limit} calls a minute. Wait ${wait} s.`, {
    'retry-after': String(wait),
  });
}

const callers = new WeakMap<ApiRequest, HumanCaller>();

/** The caller of a keyed endpoint: 401 when no key was sent. */
export function requireCaller(req: ApiRequest): HumanCaller {
  const caller = callers.get(req);
  if (!caller) throw unauthorized('This endpoint needs a key: Authorization: Bearer <key> (or X-Api-Key).');
  return caller;
}

export function humanAccess(ctx: AppContext) {
  return async (req: ApiRequest): Promise<void> => {
    const anonymous = () => count(ctx, req, addressBucket(req.ipBucket), HUMAN_LIMITS.anonymous);
    // A request built in process by server code (the explorer's playground) may be marked as made by
    // a key; it is then checked and counted exactly as if that key had been presented.
    const inProcess = inProcessKeyCheck(ctx.db, req);
    let presented: string | null = null;
    if (inProcess === null) {
      try {
        presented = presentedKey(req.headers);
      } catch (err) {
        await anonymous(); // a bad credential is counted against the address, like anonymous traffic
        throw err;
      }
    }
    // The MCP endpoint needs a key, and its requests are not counted here: each tool call counts one.
    const mcp = req.path === MCP_ENDPOINT || req.path === `${MCP_ENDPOINT}/`;
    if (presented === null && inProcess === null) {
      if (mcp) {
        await anonymous();
        throw unauthorized('The MCP server needs a key: Authorization: Bearer <key> (or X-Api-Key).');
      }
      return anonymous();
    }
    let caller: HumanCaller;
    try {
      caller = inProcess === null ? authenticate(ctx, presented!, req.now) : callerFromCheck(inProcess);
    } catch (err) {
      await anonymous();
      throw err;
    }
    callers.set(req, caller);
    ctx.writeBehind.noteKeyUse(caller.keyId, req.now);
    if (!mcp) await count(ctx, req, keyBucket(caller.keyId), HUMAN_LIMITS.key);
  };
}

/** Takes from the bucket and puts the limit headers on the reply, a 429 included. */
async function count(ctx: AppContext, req: ApiRequest, bucket: string, limits: Limits): Promise<void> {
  const decision = await ctx.limiter.take(bucket, limits, req.now);
  req.replyHeaders['x-ratelimit-limit'] = String(decision.minute!.limit);
  req.replyHeaders['x-ratelimit-remaining'] = String(decision.minute!.remaining);
  req.replyHeaders['x-ratelimit-reset'] = String(decision.minute!.resetSeconds);
  if (!decision.allowed) throw rateLimited(decision);
}

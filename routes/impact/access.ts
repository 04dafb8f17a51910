/**
 * Who is calling the impact API and how much they may call (document "Authentication", "Limits";
 * SPEC "Keys", "Rate limits and quotas"). Runs before every impact route, after CORS preflights
 * (which are never counted):
 *  - no key: 100 requests per client address per UTC day, bucket `impact:ip:<address>` (IPv6 per /64);
 *  - a valid `ia_` key, in `Authorization: Bearer …` or `X-API-Key`: 10,000 per key per UTC day,
 *    bucket `impact:key:<id>`;
 *  - a presented key that is unknown, revoked or expired: 401, never served as anonymous; the request
 *    is counted against the address, so guessing keys is limited like anonymous traffic.
 * Every request counts, errors and 304s included. X-RateLimit-Limit / -Remaining / -Reset (seconds to
 * 00:00 UTC) go on every reply of a counted request, and a 429 adds Retry-After.
 */
import { readPresentedKey } from '../../lib/http/presented-key.ts';
import type { IncomingHttpHeaders } from 'node:http';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { checkKey } from '../../lib/key-check.ts';
import type { Decision, Limits } from '../../lib/rate-limit.ts';
import type { AppContext } from '../context.ts';

/** Mutable so that the benchmark's server process can lift them (bench/impact-server.ts); nothing else writes them. */
export const IMPACT_LIMITS: { anonymous: Limits; key: Limits } = {
  anonymous: { perMinute: null, perDay: 100 },
  key: { perMinute: null, perDay: 10_000 },
};

export const addressBucket = (ipBucket: string) => `impact:ip:${ipBucket}`;
export const keyBucket = (keyId: number) => `impact:key:${keyId}`;

// Keys belong in headers: a key in a URL ends up in logs and browser histories.
const QUERY_KEY_NAMES = ['api_key', 'apikey', 'key', 'x-api-key', 'access_token'];

const invalidKey = (detail: string) =>
  new HttpError(401, 'invalid_key', detail, { 'www-authenticate': 'Bearer realm="impact"' }, 'Authorization');

/** The key presented in `Authorization: Bearer …` or `X-API-Key`, or null when none was. */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const presented = readPresentedKey(headers);
  if (presented.kind === 'malformed')
    throw invalidKey(
      'Send the key as Authorization: Bearer ia_… (or in X-API-Key). No key is needed: without one you are served anonymously.',
    );
  if (presented.kind === 'conflict')
    throw new HttpError(
      400,
      'bad_request',
      'Authorization and X-API-Key carry different keys; send one key.',
      {},
      'Authorization',
    );
  return presented.kind === 'key' ? presented.key : null;
}

export function impactAccess(ctx: AppContext) {
  const count = async (req: ApiRequest, bucket: string, limits: Limits): Promise<void> => {
    const decision = await ctx.limiter.take(bucket, limits, req.now);
    account(req, decision);
    if (!decision.allowed) throw limitError(decision);
  };
  const anonymous = (req: ApiRequest) => count(req, addressBucket(req.ipBucket), IMPACT_LIMITS.anonymous);

  // A database that does not answer becomes 503 in serviceRouter (lib/http/unavailable.ts).
  return async (req: ApiRequest): Promise<void> => {
    const inQuery = Object.keys(req.query).find((name) => QUERY_KEY_NAMES.includes(name.toLowerCase()));
    let presented: string | null;
    try {
      if (inQuery)
        throw new HttpError(
          400,
          'bad_request',
          `Query parameter '${inQuery}' is refused: send a key in Authorization: Bearer or X-API-Key, never in the URL. A key that has been in a URL may be in logs: revoke it and create a new one.`,
          {},
          inQuery,
        );
      presented = presentedKey(req.headers);
    } catch (err) {
      await anonymous(req);
      throw err;
    }
    if (presented === null) return anonymous(req);
    const check = checkKey(presented, ['ia_'], req.now, ctx.lookupKey);
    if (check.kind !== 'ok') {
      await anonymous(req);
      throw invalidKey(
        check.kind === 'unknown'
          ? 'The key is not recognised. Impact keys start with ia_; without a key you are served anonymously.'
          : `The key has been ${check.kind === 'revoked' ? 'revoked' : 'withdrawn (its rotation grace period ended)'}. Use its replacement, or send no key to be served anonymously.`,
      );
    }
    ctx.writeBehind.noteKeyUse(check.key.id, req.now);
    return count(req, keyBucket(check.key.id), IMPACT_LIMITS.key);
  };
}

/** The document's accounting headers, from the daily window. */
function account(req: ApiRequest, decision: Decision): void {
  const day = decision.day!;
  req.replyHeaders['x-ratelimit-limit'] = String(day.limit);
  req.replyHeaders['x-ratelimit-remaining'] = String(day.remaining);
  req.replyHeaders['x-ratelimit-reset'] = String(day.resetSeconds);
}

function limitError(decision: Decision): HttpError {
  const day = decision.day!;
  return new HttpError(
    429,
    'rate_limited',
    `Today's allowance of ${day.limit} requests is used. It renews at 00:00 UTC, in ${day.resetSeconds} s.`,
    { 'retry-after': String(decision.retryAfterSeconds) },
  );
}

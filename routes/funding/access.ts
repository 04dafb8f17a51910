/**
 * Who is asking and how much they may ask (document "Authentication" and "Limits"). Runs before every
 * funding route: decides the tier from the key's account and its live subscription on every request,
 * counts the request, and puts the accounting headers on the reply, errors included.
 *
 * Keyed callers are counted per account, not per key: the allowance belongs to the account's plan,
 * and minting more keys must not multiply it (docs/decisions.md).
 */
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { checkKey } from '../../lib/key-check.ts';
import type { Decision, Limits } from '../../lib/rate-limit.ts';
import type { AppContext } from '../context.ts';
import { inProcessAccountOf } from './in-process-account.ts';

export type Tier = 'anonymous' | 'basic' | 'pro';

export const TIER_LIMITS: Record<Tier, Limits> = {
  anonymous: { perMinute: 60, perDay: null },
  basic: { perMinute: 120, perDay: 1_000 },
  pro: { perMinute: 600, perDay: 25_000 },
};

const QUERY_KEY_NAMES = ['api_key', 'apikey', 'key', 'x-api-key'];

/** The tier a request was served under, for handlers that gate on it (/export). */
export const tierOf = (req: ApiRequest) => req.replyHeaders['x-api-tier'] as Tier;

export function fundingAccess(ctx: AppContext) {
  return async (req: ApiRequest): Promise<void> => {
    const anonymousBucket = `funding:ip:${req.ipBucket}`;
    // Anything wrong with the credential is still counted, against the address: guessing keys is
    // limited like any anonymous traffic.
    const refuse = async (err: HttpError): Promise<never> => {
      const decision = account(
        req,
        'anonymous',
        await ctx.limiter.take(anonymousBucket, TIER_LIMITS.anonymous, req.now),
      );
      if (!decision.allowed) throw limitError(decision);
      throw err;
    };

    const marked = inProcessAccountOf(req);
    if (marked !== undefined) return serveAccount(req, marked);

    const inQuery = Object.keys(req.query).find((name) => QUERY_KEY_NAMES.includes(name.toLowerCase()));
    if (inQuery)
      await refuse(
        new HttpError(
          400,
          'bad_request',
          `Send the key in the X-API-Key header, never in the URL (query parameter '${inQuery}'). A key that has been in a URL may be in logs: revoke it and issue a new one.`,
          {},
          inQuery,
        ),
      );
    if (req.headers.authorization !== undefined) {
      await refuse(
        new HttpError(
          400,
          'bad_request',
          'This API takes keys only in the X-API-Key header, not in Authorization.',
          {},
          'Authorization',
        ),
      );
    }

    const presented = req.headers['x-api-key'];
    if (presented === undefined) {
      const decision = account(
        req,
        'anonymous',
        await ctx.limiter.take(anonymousBucket, TIER_LIMITS.anonymous, req.now),
      );
      if (!decision.allowed) throw limitError(decision);
      return;
    }
    const check = checkKey(
      Array.isArray(presented) ? presented.join(',') : presented,
      ['fnd_'],
      req.now,
      ctx.lookupKey,
    );
    if (check.kind === 'unknown')
      await refuse(new HttpError(401, 'invalid_key', 'The key in X-API-Key is not recognised.'));
    if (check.kind === 'revoked' || check.kind === 'expired') {
      await refuse(
        new HttpError(
          401,
          'revoked_key',
          'The key in X-API-Key has been revoked. Issue a new one on the account page.',
        ),
      );
    }
    if (check.kind !== 'ok') return; // unreachable: refuse() throws
    ctx.writeBehind.noteKeyUse(check.key.id, req.now);
    return serveAccount(req, check.key.account_id);
  };

  /** A keyed caller: the account's plan decides the tier on every request; counted per account. */
  async function serveAccount(req: ApiRequest, accountId: number): Promise<void> {
    const tier: Tier = ctx.activePlan(accountId, req.now) === 'pro' ? 'pro' : 'basic';
    const decision = account(
      req,
      tier,
      await ctx.limiter.take(`funding:account:${accountId}`, TIER_LIMITS[tier], req.now),
    );
    if (!decision.allowed) throw limitError(decision);
  }
}

/** Writes the document's accounting headers for this request onto every reply. */
function account(req: ApiRequest, tier: Tier, decision: Decision): Decision {
  const h = req.replyHeaders;
  h['x-api-tier'] = tier;
  h['x-ratelimit-limit'] = String(decision.minute!.limit);
  h['x-ratelimit-remaining'] = String(decision.minute!.remaining);
  h['x-ratelimit-reset'] = String(decision.minute!.resetSeconds);
  if (decision.day) {
    h['x-quota-limit'] = String(decision.day.limit);
    h['x-quota-remaining'] = String(decision.day.remaining);
    h['x-quota-reset'] = String(decision.day.resetSeconds);
  }
  return decision;
}

function limitError(decision: Decision): HttpError {
  if (decision.refusedBy === 'day') {
    const wait = decision.retryAfterSeconds;
    return new HttpError(
      429,
      'quota_exceeded',
      `Today's allowance of ${decision.day!.limit} calls is used. It renews at 00:00 UTC, in ${wait} s.`,
      { 'retry-after': String(wait) },
    );
  }
  const wait = decision.retryAfterSeconds;
  return new HttpError(429, 'rate_limited', `More than ${decision.minute!.limit} calls a minute. Wait ${wait} s.`, {
    'retry-after': String(wait),
  });
}

/**
 * The funding service's access policy (docs/services/funding.txt "Authentication" and "Limits"), run
 * by the shared access stage (lib/http/access.ts). A key (`fnd_`) comes only in X-API-Key; the tier
 * is decided from the key's account and its live subscription on every request, and the accounting
 * headers (X-API-Tier, X-RateLimit-* per minute, X-Quota-* per day) go on every reply, errors and
 * preflights included.
 *
 * Keyed callers are counted per account, not per key: the allowance belongs to the account's plan,
 * and minting more keys must not multiply it (docs/decisions.md).
 */
import { accessStage, grantOf, type AccessPolicy } from '../../lib/http/access.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { KEY_QUERY_NAMES, type FundingLimits } from '../../lib/limits.ts';
import type { KeyRow } from '../../db/accounts.ts';
import { accessDeps, type AppContext } from '../context.ts';
import { fundingError } from './errors.ts';
import { inProcessAccountOf } from './in-process-account.ts';

export type Tier = 'anonymous' | 'basic' | 'pro';

/** The tier a request was served under, for handlers that gate on it (/export). */
export const tierOf = (req: ApiRequest) => (grantOf(req)?.tier ?? 'anonymous') as Tier;

export function fundingPolicy(limits: FundingLimits, activePlan: AppContext['activePlan']): AccessPolicy<KeyRow> {
  return {
    service: 'funding',
    keyPrefixes: ['fnd_'],
    keyHeaders: {
      take: 'x-api-key',
      authorizationRefused: () =>
        fundingError(
          'bad_request',
          'This API takes keys only in the X-API-Key header, not in Authorization.',
          {},
          'Authorization',
        ),
    },
    refusedQueryNames: KEY_QUERY_NAMES,
    anonymous: limits.anonymous,
    keyed: ({ accountId }, now) => {
      const tier = activePlan(accountId, now) === 'pro' ? 'pro' : 'basic';
      return { tier, bucket: `funding:account:${accountId}`, limits: limits[tier] };
    },
    headers: 'minute+quota',
    inProcess: (req) => {
      const accountId = inProcessAccountOf(req);
      return accountId === undefined ? undefined : { accountId };
    },
    errors: {
      keyInQuery: (name) =>
        fundingError(
          'bad_request',
          `Send the key in the X-API-Key header, never in the URL (query parameter '${name}'). A key that has been in a URL may be in logs: revoke it and issue a new one.`,
          {},
          name,
        ),
      unknownKey: () => fundingError('invalid_key', 'The key in X-API-Key is not recognised.'),
      revokedKey: () =>
        fundingError('revoked_key', 'The key in X-API-Key has been revoked. Issue a new one on the account page.'),
      expiredKey: () =>
        fundingError('revoked_key', 'The key in X-API-Key has been revoked. Issue a new one on the account page.'),
      limited: (decision) =>
        decision.refusedBy === 'day'
          ? fundingError(
              'quota_exceeded',
              `Today's allowance of ${decision.day!.limit} calls is used. It renews at 00:00 UTC, in ${decision.retryAfterSeconds} s.`,
              { 'retry-after': String(decision.retryAfterSeconds) },
            )
          : fundingError(
              'rate_limited',
              `More than ${decision.minute!.limit} calls a minute. Wait ${decision.retryAfterSeconds} s.`,
              { 'retry-after': String(decision.retryAfterSeconds) },
            ),
    },
  };
}

export const fundingAccess = (ctx: AppContext) =>
  accessStage(fundingPolicy(ctx.config.rateLimits.funding, ctx.activePlan), accessDeps(ctx));

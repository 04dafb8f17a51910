/**
 * The impact service's access policy (docs/services/impact.txt "Authentication", "Limits"; SPEC
 * "Keys", "Rate limits and quotas"), run by the shared access stage (lib/http/access.ts) after CORS
 * preflights, which are never counted:
 *  - no key: 100 requests per client address per UTC day, bucket `impact:ip:<address>` (IPv6 per /64);
 *  - a valid `ia_` key, in `Authorization: Bearer …` or `X-API-Key`: 10,000 per key per UTC day,
 *    bucket `impact:key:<id>`;
 *  - a presented key that is unknown, revoked or expired: 401 invalid_key, never served as anonymous.
 * Every request counts, errors and 304s included. X-RateLimit-Limit / -Remaining / -Reset (seconds to
 * 00:00 UTC) go on every reply of a counted request, and a 429 adds Retry-After.
 */
import { accessStage, type AccessPolicy } from '../../lib/http/access.ts';
import { KEY_QUERY_NAMES, type KeyedLimits } from '../../lib/limits.ts';
import type { KeyRow } from '../../db/accounts.ts';
import { accessDeps, type AppContext } from '../context.ts';
import { impactError } from './errors.ts';

const invalidKey = (detail: string) =>
  impactError('invalid_key', detail, { 'www-authenticate': 'Bearer realm="impact"' }, 'Authorization');

export function impactPolicy(limits: KeyedLimits): AccessPolicy<KeyRow> {
  return {
    service: 'impact',
    keyPrefixes: ['ia_'],
    keyHeaders: {
      take: 'bearer-or-x-api-key',
      malformedAuthorization: () =>
        invalidKey(
          'Send the key as Authorization: Bearer ia_… (or in X-API-Key). No key is needed: without one you are served anonymously.',
        ),
      conflictingKeys: () =>
        impactError(
          'bad_request',
          'Authorization and X-API-Key carry different keys; send one key.',
          {},
          'Authorization',
        ),
    },
    refusedQueryNames: KEY_QUERY_NAMES,
    anonymous: limits.anonymous,
    keyed: ({ key }) => ({ tier: 'key', bucket: `impact:key:${key!.id}`, limits: limits.key }),
    headers: 'day',
    errors: {
      keyInQuery: (name) =>
        impactError(
          'bad_request',
          `Query parameter '${name}' is refused: send a key in Authorization: Bearer or X-API-Key, never in the URL. A key that has been in a URL may be in logs: revoke it and create a new one.`,
          {},
          name,
        ),
      unknownKey: () =>
        invalidKey('The key is not recognised. Impact keys start with ia_; without a key you are served anonymously.'),
      revokedKey: () =>
        invalidKey('The key has been revoked. Use its replacement, or send no key to be served anonymously.'),
      expiredKey: () =>
        invalidKey(
          'The key has been withdrawn (its rotation grace period ended). Use its replacement, or send no key to be served anonymously.',
        ),
      limited: (decision) =>
        impactError(
          'rate_limited',
          `Today's allowance of ${decision.day!.limit} requests is used. It renews at 00:00 UTC, in ${decision.day!.resetSeconds} s.`,
          { 'retry-after': String(decision.retryAfterSeconds) },
        ),
    },
  };
}

export const impactAccess = (ctx: AppContext) =>
  accessStage(impactPolicy(ctx.config.rateLimits.impact), accessDeps(ctx));

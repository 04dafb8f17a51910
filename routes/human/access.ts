/**
 * The human service's access policy (docs/services/human.txt "Authentication", "Limits"; SPEC "Keys",
 * "Rate limits"), run by the shared access stage (lib/http/access.ts). A key (`ho_test_`, `ho_live_`)
 * comes in `Authorization: Bearer …` or `X-Api-Key`; one bucket per key, `human:key:<id>`, 120 a
 * minute, which the MCP server shares; anonymous calls 60 a minute per address, `human:ip:<address>`.
 * The MCP endpoint needs a key, and its requests are not counted by the stage: each tool call counts
 * one (mcp-tools.ts), so protocol messages cost nothing.
 */
import { accessStage, grantOf, type AccessPolicy, type AccessStage } from '../../lib/http/access.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { HUMAN_BASE } from '../../lib/human/present.ts';
import { KEY_QUERY_NAMES, type KeyedLimits } from '../../lib/limits.ts';
import type { KeyRow } from '../../db/accounts.ts';
import type { HumanCaller } from '../../db/human/service.ts';
import { accessDeps, type AppContext } from '../context.ts';
import { humanHttpError, keyRequired, keyRevoked, malformedCredential, unauthorized } from './errors.ts';
import type { Transport } from '../../lib/human/transport.ts';
import { inProcessKeyCheck } from './in-process-caller.ts';

const MCP_ENDPOINT = `${HUMAN_BASE}/mcp`;

export function humanPolicy(limits: KeyedLimits, db: AppContext['db']): AccessPolicy<KeyRow> {
  return {
    service: 'human',
    keyPrefixes: ['ho_test_', 'ho_live_'],
    keyHeaders: {
      take: 'bearer-or-x-api-key',
      malformedAuthorization: () =>
        malformedCredential('Send the key as Authorization: Bearer <key> (or in X-Api-Key).'),
      conflictingKeys: () =>
        humanHttpError(
          'invalid_request',
          'Authorization and X-Api-Key carry different keys; send one key.',
          'Authorization',
        ),
    },
    refusedQueryNames: KEY_QUERY_NAMES,
    anonymous: limits.anonymous,
    keyed: ({ key }) => ({ tier: 'key', bucket: `human:key:${key!.id}`, limits: limits.key }),
    headers: 'minute',
    keyRequired: {
      at: (req) => req.path === MCP_ENDPOINT || req.path === `${MCP_ENDPOINT}/`,
      refusal: () => keyRequired('The MCP server needs a key: Authorization: Bearer <key> (or X-Api-Key).'),
    },
    // The explorer's playground marks the request it builds with its key's id (in-process-caller.ts).
    inProcess: (req) => {
      const check = inProcessKeyCheck(db, req);
      return check === null ? undefined : { check };
    },
    errors: {
      keyInQuery: (name) =>
        humanHttpError(
          'invalid_request',
          `Query parameter '${name}' is refused: send the key as Authorization: Bearer <key> (or in X-Api-Key), never in the URL. A key that has been in a URL may be in logs: revoke it and create a new one.`,
          name,
        ),
      unknownKey: () => unauthorized('The key is not recognised. Human task keys start with ho_test_ or ho_live_.'),
      revokedKey: () => keyRevoked('The key has been revoked. Create a new one in the console.'),
      expiredKey: () =>
        keyRevoked('The key has expired (it was rotated and its grace period ended). Use its replacement.'),
      limited: (decision) =>
        humanHttpError(
          'rate_limited',
          `More than ${decision.minute!.limit} calls a minute. Wait ${decision.retryAfterSeconds} s.`,
          undefined,
          { 'retry-after': String(decision.retryAfterSeconds) },
        ),
    },
  };
}

export type HumanAccess = AccessStage<KeyRow>;

export const humanAccess = (ctx: AppContext): HumanAccess =>
  accessStage(humanPolicy(ctx.config.rateLimits.human, ctx.db), accessDeps(ctx));

/** The caller of a keyed endpoint: 401 when no key was sent. */
export function requireCaller(req: ApiRequest, transport: Transport = 'rest'): HumanCaller {
  const key = grantOf(req)?.key;
  if (!key) throw keyRequired('This endpoint needs a key: Authorization: Bearer <key> (or X-Api-Key).');
  return {
    keyId: key.id,
    accountId: key.account_id,
    environment: key.environment === 'live' ? 'live' : 'test',
    scopes: key.scopes ? key.scopes.split(' ') : [],
    transport,
  };
}

/**
 * The access stage every service runs before its routes (SPEC "Keys", "Rate limits and quotas"): who
 * is asking, and whether they may ask now. One mechanism, configured per service by an AccessPolicy
 * (routes/<service>/access.ts): the key prefixes and the headers a key may come in, the query names
 * refused as a key in a URL, the limits per tier, the accounting headers' style and the service's
 * error codes. In order:
 *  1. a request marked in process by server code (the explorer) is served as that account or key;
 *  2. a key-like query parameter is refused: a key in a URL ends up in logs;
 *  3. the credential is read from the policy's headers; a malformed or conflicting one is refused;
 *  4. no key: anonymous, counted against the client address (unless the path needs a key);
 *  5. a key that is unknown, revoked or expired is 401 on every service, never served anonymously;
 *  6. a valid key is counted in the bucket its tier names (a key's, or its account's).
 * Every refusal before 6 is counted against the address, so guessing keys is limited like anonymous
 * traffic; every counted request carries the accounting headers, a 429 included. A request refused
 * unserved after it was counted (a 503: the database down or busy, a write on a read-only node) gets
 * its count back (`refund`, issue 28): an outage of ours never costs a client its allowance.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { checkKey, type KeyCheck, type StoredKey } from '../key-check.ts';
import type { KeyPrefix } from '../keys.ts';
import type { Decision, Limiter, Limits } from '../rate-limit.ts';
import type { HttpError } from './errors.ts';
import { readPresentedKey } from './presented-key.ts';
import { GRANT, type ApiRequest } from './types.ts';

/** What a request was served as, once the stage has let it through. */
export interface Grant<K extends StoredKey = StoredKey> {
  /** The tier's name (funding's X-API-Tier: anonymous, basic, pro; 'key' elsewhere). */
  tier: string;
  /** The counter this request was taken from, e.g. `funding:account:7`, `impact:ip:203.0.113.9`. */
  bucket: string;
  limits: Limits;
  /** The key presented (or marked in process); absent for anonymous and account-marked requests. */
  key?: K;
  accountId?: number;
  /** Not counted by the stage (each MCP tool call counts itself), or counted and given back since. */
  uncounted?: true;
}

export interface AccessErrors {
  /** A key-like query parameter (its name as sent). */
  keyInQuery(name: string): HttpError;
  unknownKey(): HttpError;
  revokedKey(): HttpError;
  expiredKey(): HttpError;
  /** A 429 for a refused decision: its code, message and Retry-After. */
  limited(decision: Decision): HttpError;
}

export interface AccessPolicy<K extends StoredKey = StoredKey> {
  /** Bucket namespace: `<service>:ip:<address>`, `<service>:key:<id>`, `<service>:account:<id>`. */
  service: string;
  keyPrefixes: readonly KeyPrefix[];
  /** Where a key may be sent, and how a credential sent otherwise is refused. */
  keyHeaders:
    | {
        take: 'x-api-key';
        /** An Authorization header (this service takes keys only in X-API-Key). */
        authorizationRefused(): HttpError;
      }
    | {
        take: 'bearer-or-x-api-key';
        /** Authorization that is not `Bearer <token>`. */
        malformedAuthorization(): HttpError;
        /** Authorization and X-API-Key carrying different keys. */
        conflictingKeys(): HttpError;
      };
  /** Query names refused as a key in a URL (compared case-insensitively). */
  refusedQueryNames: readonly string[];
  anonymous: Limits;
  /** The tier, bucket and limits of a valid key (or of an account a request was marked with). */
  keyed(holder: { key?: K; accountId: number }, now: number): Omit<Grant<K>, 'key' | 'accountId'>;
  /**
   * Which windows the accounting headers show: `minute` or `day` for X-RateLimit-*, `minute+quota`
   * for X-RateLimit-* from the minute and X-Quota-* from the day, with X-API-Tier (funding).
   */
  headers: 'minute' | 'day' | 'minute+quota';
  errors: AccessErrors;
  /** Paths that need a key, and whose requests the stage does not count (each MCP tool call counts itself). */
  keyRequired?: { at(req: ApiRequest): boolean; refusal(): HttpError };
  /** A request server code marked in process: a key to check like a presented one, or an account. */
  inProcess?: (req: ApiRequest) => { check: KeyCheck<K> } | { accountId: number } | undefined;
}

export interface AccessDeps<K extends StoredKey> {
  limiter: Limiter;
  lookupKey: (hash: string) => K | undefined;
  noteKeyUse: (keyId: number, now: number) => void;
}

// On the request itself (a symbol no client input can set), not in a WeakMap: a WeakMap entry per
// request is a costly insert and more work for every garbage collection (issue 29).
const grants = {
  get: (req: ApiRequest): Grant | undefined => req[GRANT] as Grant | undefined,
  set: (req: ApiRequest, grant: Grant): void => void (req[GRANT] = grant),
};

/** What the stage served a request as (handlers that gate on the tier or need the caller's key). */
export const grantOf = (req: ApiRequest): Grant | undefined => grants.get(req);

export interface AccessStage<K extends StoredKey> {
  /** The stage the service router runs before every operation (a promise when it must wait, or refuses). */
  (req: ApiRequest): void | Promise<void>;
  /** A presented credential → its checked key, or the policy's 401/400 (the MCP transport). */
  authenticate(headers: IncomingHttpHeaders, now: number): K | null;
  /** Counts one request of a grant; the policy's 429 when the bucket is empty. */
  take(grant: Pick<Grant, 'bucket' | 'limits'>, now: number): Promise<Decision>;
  /** Gives back one request `take` counted, for a call refused unserved (an MCP tool call on a 503). */
  giveBack(grant: Pick<Grant, 'bucket' | 'limits'>, now: number): void;
  /**
   * Gives back the count of a request refused unserved (serviceRouter, on a 503), and shows it in the
   * accounting headers of the refusal. Once per request; nothing for a request the stage did not count.
   */
  refund(req: ApiRequest): void;
}

export function accessStage<K extends StoredKey>(policy: AccessPolicy<K>, deps: AccessDeps<K>): AccessStage<K> {
  const { errors } = policy;
  const refusedNames = new Set(policy.refusedQueryNames.map((n) => n.toLowerCase()));

  const anonymousGrant = (req: ApiRequest): Grant<K> => ({
    tier: 'anonymous',
    bucket: `${policy.service}:ip:${req.ipBucket}`,
    limits: policy.anonymous,
  });

  const take = async (grant: Pick<Grant, 'bucket' | 'limits'>, now: number): Promise<Decision> => {
    const decision = await deps.limiter.take(grant.bucket, grant.limits, now);
    if (!decision.allowed) throw errors.limited(decision);
    return decision;
  };

  /** Writes the accounting headers of a counted request (on a 429 too), and lets it through or refuses it. */
  const counted = (req: ApiRequest, grant: Grant<K>, decision: Decision): void => {
    writeHeaders(req.replyHeaders, policy.headers, grant.tier, decision);
    if (!decision.allowed) throw errors.limited(decision);
    grants.set(req, grant);
  };

  /** Counts the request; at once when the limiter answers at once (in process), else when it answers. */
  const count = (req: ApiRequest, grant: Grant<K>): void | Promise<void> => {
    const decision = deps.limiter.take(grant.bucket, grant.limits, req.now);
    if (decision instanceof Promise) return decision.then((d) => counted(req, grant, d));
    counted(req, grant, decision);
  };

  /** A refusal, counted against the address first: a 429 there wins, as for any anonymous request. */
  const refuse = async (req: ApiRequest, err: HttpError): Promise<never> => {
    await count(req, anonymousGrant(req));
    throw err;
  };

  const checked = (check: KeyCheck<K>): K => {
    if (check.kind === 'unknown') throw errors.unknownKey();
    if (check.kind === 'revoked') throw errors.revokedKey();
    if (check.kind === 'expired') throw errors.expiredKey();
    return check.key;
  };

  /** The presented key string, or null when none was sent; throws the policy's refusal. */
  const presented = (headers: IncomingHttpHeaders): string | null => {
    const taken = policy.keyHeaders;
    if (taken.take === 'x-api-key') {
      if (headers.authorization !== undefined) throw taken.authorizationRefused();
      const header = headers['x-api-key'];
      return header === undefined ? null : Array.isArray(header) ? header.join(',') : header;
    }
    const read = readPresentedKey(headers);
    if (read.kind === 'malformed') throw taken.malformedAuthorization();
    if (read.kind === 'conflict') throw taken.conflictingKeys();
    return read.kind === 'key' ? read.key : null;
  };

  const authenticate = (headers: IncomingHttpHeaders, now: number): K | null => {
    const key = presented(headers);
    return key === null ? null : checked(checkKey(key, policy.keyPrefixes, now, deps.lookupKey));
  };

  // The policy's grant is made for this request: the holder is added to it, not copied with it.
  const keyedGrant = (req: ApiRequest, holder: { key?: K; accountId: number }): Grant<K> =>
    Object.assign(policy.keyed(holder, req.now), holder);

  /**
   * The stage: answers at once (no promise) for a request it lets through with an in-process limiter,
   * the common case; a promise when it waits on the cluster primary or Redis, or refuses.
   */
  const stage = (req: ApiRequest): void | Promise<void> => {
    const marked = policy.inProcess?.(req);
    if (marked && 'accountId' in marked) return count(req, keyedGrant(req, { accountId: marked.accountId }));

    let key: K | null;
    if (marked) {
      try {
        key = checked(marked.check);
      } catch (err) {
        return refuse(req, err as HttpError);
      }
    } else {
      const inQuery = keyInQuery(req.query);
      if (inQuery !== undefined) return refuse(req, errors.keyInQuery(inQuery));
      try {
        key = authenticate(req.headers, req.now);
      } catch (err) {
        return refuse(req, err as HttpError);
      }
    }

    const needsKey = policy.keyRequired?.at(req) ?? false;
    if (key === null) {
      if (needsKey) return refuse(req, policy.keyRequired!.refusal());
      return count(req, anonymousGrant(req));
    }
    deps.noteKeyUse(key.id, req.now);
    const grant = keyedGrant(req, { key, accountId: key.account_id });
    if (!needsKey) return count(req, grant);
    grant.uncounted = true; // not counted here: each call on it counts itself
    grants.set(req, grant);
  };

  /** The first query name that is refused as a key in a URL (as sent), if any. */
  const keyInQuery = (query: ApiRequest['query']): string | undefined => {
    for (const name in query) if (refusedNames.has(name.toLowerCase())) return name;
    return undefined;
  };

  const giveBack = (grant: Pick<Grant, 'bucket' | 'limits'>, now: number): void => {
    try {
      // Best effort: counters that cannot be reached now keep the count (docs/operations.md).
      void Promise.resolve(deps.limiter.refund(grant.bucket, grant.limits, now)).catch(() => {});
    } catch {
      // the in-process limiter does not throw; nothing to undo if it did
    }
  };

  const refund = (req: ApiRequest): void => {
    const grant = grants.get(req);
    if (!grant || grant.uncounted) return;
    grant.uncounted = true;
    giveBack(grant, req.now);
    const h = req.replyHeaders;
    showGivenBack(h, 'x-ratelimit-remaining', 'x-ratelimit-limit');
    showGivenBack(h, 'x-quota-remaining', 'x-quota-limit');
  };

  return Object.assign(stage, { authenticate, take, giveBack, refund });
}

/** One more request remaining in an accounting header (at most the limit). */
function showGivenBack(h: Record<string, string>, remaining: string, limit: string): void {
  const left = h[remaining];
  if (left !== undefined) h[remaining] = String(Math.min(Number(h[limit]), Number(left) + 1));
}

/** The document's accounting headers for one counted request. */
function writeHeaders(
  h: Record<string, string>,
  style: AccessPolicy['headers'],
  tier: string,
  decision: Decision,
): void {
  const shown = style === 'day' ? decision.day! : decision.minute!;
  h['x-ratelimit-limit'] = String(shown.limit);
  h['x-ratelimit-remaining'] = String(shown.remaining);
  h['x-ratelimit-reset'] = String(shown.resetSeconds);
  if (style !== 'minute+quota') return;
  h['x-api-tier'] = tier;
  if (decision.day) {
    h['x-quota-limit'] = String(decision.day.limit);
    h['x-quota-remaining'] = String(decision.day.remaining);
    h['x-quota-reset'] = String(decision.day.resetSeconds);
  }
}

/**
 * The limits the three documents set, per service and tier (SPEC "Rate limits and quotas"), and the
 * query names every service refuses as a key in a URL. They reach the access stage through Config
 * (lib/config.ts), so a benchmark or a test that needs other limits builds its own Config instead of
 * patching shared objects.
 */
import type { Limits } from './rate-limit.ts';

export interface FundingLimits {
  anonymous: Limits;
  basic: Limits;
  pro: Limits;
}

export interface KeyedLimits {
  anonymous: Limits;
  key: Limits;
}

export interface ServiceLimits {
  /** docs/services/funding.txt "Limits": per minute and per day, by tier. */
  funding: FundingLimits;
  /** SPEC: one bucket per key (REST and MCP), 120 a minute; 60 a minute per address without a key. */
  human: KeyedLimits;
  /** SPEC: 100 a day per address; 10,000 a day per key. */
  impact: KeyedLimits;
}

export function documentedLimits(): ServiceLimits {
  return {
    funding: {
      anonymous: { perMinute: 60, perDay: null },
      basic: { perMinute: 120, perDay: 1_000 },
      pro: { perMinute: 600, perDay: 25_000 },
    },
    human: { key: { perMinute: 120, perDay: null }, anonymous: { perMinute: 60, perDay: null } },
    impact: { anonymous: { perMinute: null, perDay: 100 }, key: { perMinute: null, perDay: 10_000 } },
  };
}

/**
 * Limits no benchmark load reaches, in the same windows as the documented ones (so every reply still
 * computes and carries its accounting headers): for benchmark servers that measure serving, not refusing.
 */
export function liftedLimits(): ServiceLimits {
  const minute = { perMinute: 1e9, perDay: null };
  const both = { perMinute: 1e9, perDay: 1e12 };
  const day = { perMinute: null, perDay: 1e12 };
  return {
    funding: { anonymous: minute, basic: both, pro: both },
    human: { key: minute, anonymous: minute },
    impact: { anonymous: day, key: day },
  };
}

/**
 * Query names refused as a key in a URL, on every service (SPEC names api_key, apikey, key; the rest
 * are what clients and other APIs use). A key that has been in a URL may be in logs and histories.
 */
export const KEY_QUERY_NAMES: readonly string[] = ['api_key', 'apikey', 'key', 'x-api-key', 'access_token'];

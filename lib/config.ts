/**
 * Configuration from the environment (SPEC "One process, one file"; every variable is in
 * .env.example and docs/decisions.md). Pure: takes the environment as an argument.
 */
import { parseTrustProxy, type TrustProxy } from './http/client-address.ts';
import { readHumanConfig, type HumanConfig } from './human/config.ts';
import { readFundingSyncConfig, type FundingSyncConfig } from './funding/sync-config.ts';
import { integer } from './env-integer.ts';
import { readWebhookConfig, type WebhookConfig } from './webhooks/config.ts';
import { documentedLimits, type ServiceLimits } from './limits.ts';
import { readMailConfig, type MailConfig } from './mail/config.ts';
import { readStripeConfig, type StripeConfig } from './billing/config.ts';

export interface Config {
  port: number;
  host: string;
  /** Host names the MCP endpoint answers for (ALLOWED_HOSTS); empty: loopback names when HOST is loopback. */
  allowedHosts: string[];
  databasePath: string;
  trustProxy: TrustProxy;
  trustProxySetting: string;
  logLevel: string;
  demo: boolean;
  bodyLimitBytes: number;
  /** Rendered /funding/v1/search pages kept in memory (0: no cache). */
  searchCacheEntries: number;
  /** SANDBOX_DELAY_MS, HUMAN_SCHEDULER_TICK_MS, HUMAN_DURABLE_COMMIT (lib/human/config.ts). */
  human: HumanConfig;
  /** WEBHOOK_* (lib/webhooks/config.ts): the deliverer of every service's webhook events. */
  webhooks: WebhookConfig;
  /** SMTP_URL, MAIL_*, PUBLIC_URL (lib/mail/config.ts): e-mail for accounts, alerts and tasks. */
  mail: MailConfig;
  /** FUNDING_SYNC_* (lib/funding/sync-config.ts): `funding sync` and the scheduled sync in serve. */
  fundingSync: FundingSyncConfig;
  /** Scaling (docs/scaling.md): WORKERS, REDIS_URL, READ_ONLY, PRIMARY_URL, REPLICA_HEARTBEAT_MS, READ_ONLY_MAX_LAG_MS. */
  scaling: ScalingConfig;
  /** Per service and tier, the documents' numbers (lib/limits.ts); benchmarks and tests pass their own. */
  rateLimits: ServiceLimits;
  /** STRIPE_* (lib/billing/config.ts): payments through Stripe; null when not set up (operators grant). */
  stripe: StripeConfig | null;
}

export interface ScalingConfig {
  /** Processes serving the port (node:cluster); 1 is the plain single process. */
  workers: number;
  /** Shared counters (per-minute and per-day limits, quotas) in Redis; null keeps them in this server. */
  redisUrl: string | null;
  /** This node serves a replicated copy of the database: writes are refused with 503. */
  readOnly: boolean;
  /** Where writes go (the primary's public address): a read-only node's refusal names it. */
  primaryUrl: string | null;
  /** How often the primary writes its heartbeat row for replicas to measure their lag (0: never). */
  heartbeatMs: number;
  /** A read-only node is not ready (/readyz 503) when its copy is older than this. */
  maxLagMs: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function readConfig(env: Record<string, string | undefined>): Config {
  const port = integer(env.PORT, 8080, 'PORT', 0, 65535);
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const host = env.HOST ?? '127.0.0.1';
  return {
    port,
    host,
    allowedHosts: (env.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    databasePath: env.DATABASE_PATH ?? './data/trio.sqlite',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    trustProxySetting: env.TRUST_PROXY ?? 'off',
    logLevel,
    demo: flag(env.DEMO, true, 'DEMO'),
    bodyLimitBytes: integer(env.BODY_LIMIT_BYTES, 1_048_576, 'BODY_LIMIT_BYTES', 1, 64 * 1_048_576),
    searchCacheEntries: integer(env.SEARCH_CACHE_ENTRIES, 1000, 'SEARCH_CACHE_ENTRIES', 0, 1_000_000),
    human: readHumanConfig(env),
    webhooks: readWebhookConfig(env, host),
    fundingSync: readFundingSyncConfig(env),
    mail: readMailConfig(env),
    scaling: {
      workers: integer(env.WORKERS, 1, 'WORKERS', 1, 64),
      redisUrl: redisUrl(env.REDIS_URL),
      readOnly: flag(env.READ_ONLY, false, 'READ_ONLY'),
      primaryUrl: primaryUrl(env.PRIMARY_URL),
      heartbeatMs: integer(env.REPLICA_HEARTBEAT_MS, 0, 'REPLICA_HEARTBEAT_MS', 0, 3_600_000),
      maxLagMs: integer(env.READ_ONLY_MAX_LAG_MS, 30_000, 'READ_ONLY_MAX_LAG_MS', 1, 86_400_000),
    },
    rateLimits: documentedLimits(),
    stripe: readStripeConfig(env),
  };
}

function redisUrl(value: string | undefined): string | null {
  return (
    urlSetting(
      value,
      'REDIS_URL',
      ['redis:', 'rediss:'],
      'a URL such as redis://127.0.0.1:6379/0 (or rediss:// for TLS)',
    )?.toString() ?? null
  );
}

function primaryUrl(value: string | undefined): string | null {
  const url = urlSetting(
    value,
    'PRIMARY_URL',
    ['https:', 'http:'],
    'the address clients send writes to, such as https://api.example.org',
  );
  if (url && (url.username || url.password)) throw new Error('PRIMARY_URL must not carry a user name or password');
  return url ? url.href.replace(/\/$/, '') : null;
}

/** An optional URL setting: null when unset; refused, naming the setting, when it is not a URL of `protocols`. */
function urlSetting(value: string | undefined, name: string, protocols: string[], what: string): URL | null {
  if (value === undefined || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`${name} must be ${what}`);
  }
  if (!protocols.includes(url.protocol))
    throw new Error(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got ${url.protocol})`);
  return url;
}

function flag(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  const v = value.toLowerCase();
  if (['1', 'on', 'true', 'yes'].includes(v)) return true;
  if (['0', 'off', 'false', 'no'].includes(v)) return false;
  throw new Error(`${name} must be on or off`);
}

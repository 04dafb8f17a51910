/**
 * The funding sync's settings, from the environment (documented in .env.example and
 * docs/operations.md "Keeping the funding corpus current"). Pure: takes the environment.
 *
 * - FUNDING_SYNC_EVERY (default off): `serve` runs a sync this often (e.g. 6h, 30m, 1d).
 * - FUNDING_SYNC_CONTACT: the operator's e-mail or URL, sent in the User-Agent so a source can
 *   reach whoever runs the crawler.
 * - FUNDING_SYNC_RATE (default 1): most requests per second to one host (BDNS allows 10, asks for
 *   no bursts; the EU and BOE publish no limit).
 * - FUNDING_SYNC_TIMEOUT_MS (120000): one request, headers and body (the EU bulk file is about 130 MB).
 * - FUNDING_SYNC_RETRIES (4), FUNDING_SYNC_RETRY_BASE_MS (1000), FUNDING_SYNC_RETRY_MAX_MS (60000):
 *   retries of a network error, 429 or 5xx, exponential backoff with jitter; a Retry-After longer
 *   than the maximum ends the retries (the source is reported failed and tried on the next run).
 * - FUNDING_SYNC_BACKFILL_DAYS (30): how far back a first BOE/BDNS sync reads.
 * - FUNDING_SYNC_PAGE_SIZE (100): EU and BDNS list page size (the EU caps it at 100).
 * - FUNDING_SYNC_BATCH_ROWS (1000): records per write transaction when one document is large (the EU
 *   bulk file, a CORDIS export), so that no transaction holds the write lock for long.
 * - FUNDING_SYNC_SOURCES (eu,cordis,bdns,boe): what a sync runs without --source (the scheduled one too).
 * - FUNDING_SYNC_SOURCE_MAX (15m): the longest one source may take in a run. At the bound the source
 *   stops where it is (what it stored stays; the next run resumes there), and a request still waiting
 *   is abandoned and reported with its URL.
 * - FUNDING_SYNC_PROGRESS_EVERY (30s): without a terminal, a progress line per running source this often.
 * - FUNDING_SYNC_<EU|EU_BULK|BDNS|BOE|CORDIS>_URL: each source's base address (mirrors, tests).
 */
import type { SourceCode } from './records.ts';
import { integer } from '../env-integer.ts';

export const SYNC_SOURCES = ['eu', 'cordis', 'bdns', 'boe'] as const satisfies readonly SourceCode[];

export interface SyncUrls {
  eu: string;
  euBulk: string;
  bdns: string;
  boe: string;
  cordis: string;
}

export interface FundingSyncConfig {
  /** Milliseconds between scheduled syncs inside `serve`; null: off. */
  everyMs: number | null;
  contact: string;
  ratePerHost: number;
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  backfillDays: number;
  pageSize: number;
  batchRows: number;
  sources: SourceCode[];
  /** The longest one source may take in a run (ms). */
  sourceMaxMs: number;
  /** Without a terminal, a progress line per running source this often (ms). */
  progressEveryMs: number;
  urls: SyncUrls;
}

export const DEFAULT_URLS: SyncUrls = {
  eu: 'https://api.tech.ec.europa.eu/search-api/prod/rest/search',
  euBulk: 'https://ec.europa.eu/info/funding-tenders/opportunities/data/referenceData/grantsTenders.json',
  bdns: 'https://www.infosubvenciones.es/bdnstrans/api',
  boe: 'https://www.boe.es/datosabiertos/api/boe/sumario',
  cordis: 'https://cordis.europa.eu/data/cordis-HORIZONprojects-csv.zip',
};

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "6h", "30m", "90s", "1d" → ms; "off", "" → null. */
export function parseEvery(value: string | undefined): number | null {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'off' || v === '0') return null;
  return duration(v, 'FUNDING_SYNC_EVERY', 'off or a duration such as 6h, 30m, 1d');
}

function duration(v: string, name: string, accepts: string): number {
  const m = /^(\d+)\s*([smhd])$/.exec(v.trim().toLowerCase());
  if (!m || Number(m[1]) === 0) throw new Error(`${name} must be ${accepts} (got ${JSON.stringify(v)})`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

export function readFundingSyncConfig(env: Record<string, string | undefined>): FundingSyncConfig {
  const sources = (env.FUNDING_SYNC_SOURCES ?? SYNC_SOURCES.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = sources.filter((s) => !(SYNC_SOURCES as readonly string[]).includes(s));
  if (unknown.length)
    throw new Error(`FUNDING_SYNC_SOURCES: unknown source ${unknown.join(', ')} (one of ${SYNC_SOURCES.join(', ')})`);
  const url = (name: string, fallback: string) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    if (!/^https?:\/\/[^\s]+$/.test(v)) throw new Error(`${name} must be an http(s) URL`);
    return v.replace(/\/+$/, '');
  };
  const rate = Number(env.FUNDING_SYNC_RATE ?? '1');
  if (!Number.isFinite(rate) || rate <= 0 || rate > 1000)
    throw new Error('FUNDING_SYNC_RATE must be a number of requests per second above 0 (at most 1000)');
  const contact = (env.FUNDING_SYNC_CONTACT ?? '').trim();
  // It goes into a request header: printable ASCII only (fetch refuses anything else, on every request).
  if (!/^[\x20-\x7e]*$/.test(contact))
    throw new Error('FUNDING_SYNC_CONTACT must be printable ASCII (an e-mail address or a URL)');
  const retryBaseMs = integer(env.FUNDING_SYNC_RETRY_BASE_MS, 1000, 'FUNDING_SYNC_RETRY_BASE_MS', 0, 600_000);
  return {
    everyMs: parseEvery(env.FUNDING_SYNC_EVERY),
    contact,
    ratePerHost: rate,
    timeoutMs: integer(env.FUNDING_SYNC_TIMEOUT_MS, 120_000, 'FUNDING_SYNC_TIMEOUT_MS', 1, 3_600_000),
    retries: integer(env.FUNDING_SYNC_RETRIES, 4, 'FUNDING_SYNC_RETRIES', 0, 20),
    retryBaseMs,
    retryMaxMs: integer(
      env.FUNDING_SYNC_RETRY_MAX_MS,
      Math.max(60_000, retryBaseMs),
      'FUNDING_SYNC_RETRY_MAX_MS',
      0,
      3_600_000,
    ),
    backfillDays: integer(env.FUNDING_SYNC_BACKFILL_DAYS, 30, 'FUNDING_SYNC_BACKFILL_DAYS', 0, 3650),
    pageSize: integer(env.FUNDING_SYNC_PAGE_SIZE, 100, 'FUNDING_SYNC_PAGE_SIZE', 1, 100),
    batchRows: integer(env.FUNDING_SYNC_BATCH_ROWS, 1000, 'FUNDING_SYNC_BATCH_ROWS', 1, 100_000),
    sources: sources as SourceCode[],
    sourceMaxMs: duration(
      env.FUNDING_SYNC_SOURCE_MAX || '15m',
      'FUNDING_SYNC_SOURCE_MAX',
      'a duration such as 20m, 1h',
    ),
    progressEveryMs: duration(
      env.FUNDING_SYNC_PROGRESS_EVERY || '30s',
      'FUNDING_SYNC_PROGRESS_EVERY',
      'a duration such as 30s, 1m',
    ),
    urls: {
      eu: url('FUNDING_SYNC_EU_URL', DEFAULT_URLS.eu),
      euBulk: url('FUNDING_SYNC_EU_BULK_URL', DEFAULT_URLS.euBulk),
      bdns: url('FUNDING_SYNC_BDNS_URL', DEFAULT_URLS.bdns),
      boe: url('FUNDING_SYNC_BOE_URL', DEFAULT_URLS.boe),
      cordis: url('FUNDING_SYNC_CORDIS_URL', DEFAULT_URLS.cordis),
    },
  };
}

/** What trio says it is to every source: product, version, purpose, and who to contact. */
export function userAgent(version: string, contact: string): string {
  return `trio/${version} (funding corpus sync; +${contact || 'operator contact not configured: set FUNDING_SYNC_CONTACT'})`;
}

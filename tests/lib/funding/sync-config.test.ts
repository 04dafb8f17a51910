/** The funding sync's settings and its retry arithmetic (pure: lib/funding/sync-config.ts, backoff.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, isRetryableStatus, retryAfterMs } from '../../../lib/funding/backoff.ts';
import { DEFAULT_URLS, parseEvery, readFundingSyncConfig, userAgent } from '../../../lib/funding/sync-config.ts';

test('FUNDING_SYNC_EVERY: off by default; durations in s, m, h, d; anything else refused by name', () => {
  const cases: Array<[string | undefined, number | null]> = [
    [undefined, null],
    ['', null],
    ['off', null],
    ['OFF', null],
    ['0', null],
    ['6h', 21_600_000],
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['1d', 86_400_000],
    [' 12h ', 43_200_000],
  ];
  for (const [value, ms] of cases) assert.equal(parseEvery(value), ms, String(value));
  for (const bad of ['6', 'h', '6 hours', '0h', '-1h', '1.5h', 'every 6h']) {
    assert.throws(() => parseEvery(bad), /FUNDING_SYNC_EVERY must be off or a duration such as 6h/, bad);
  }
});

test("defaults: the sources' public endpoints, polite rates, off schedule", () => {
  const c = readFundingSyncConfig({});
  assert.deepEqual(c.urls, DEFAULT_URLS);
  assert.equal(c.urls.boe, 'https://www.boe.es/datosabiertos/api/boe/sumario');
  assert.deepEqual(
    [
      c.everyMs,
      c.ratePerHost,
      c.timeoutMs,
      c.retries,
      c.retryBaseMs,
      c.retryMaxMs,
      c.backfillDays,
      c.pageSize,
      c.batchRows,
      c.sourceMaxMs,
      c.progressEveryMs,
    ],
    [null, 1, 120_000, 4, 1000, 60_000, 30, 100, 1000, 15 * 60_000, 30_000],
  );
  assert.deepEqual(c.sources, ['eu', 'cordis', 'bdns', 'boe']);
});

test('settings are read, URLs lose a trailing slash, and bad values are refused naming the variable', () => {
  const c = readFundingSyncConfig({
    FUNDING_SYNC_BOE_URL: 'http://mirror.local/boe/',
    FUNDING_SYNC_RATE: '0.5',
    FUNDING_SYNC_SOURCES: 'boe, bdns',
    FUNDING_SYNC_CONTACT: ' ops@example.org ',
    FUNDING_SYNC_SOURCE_MAX: '1h',
    FUNDING_SYNC_PROGRESS_EVERY: '10s',
  });
  assert.deepEqual([c.sourceMaxMs, c.progressEveryMs], [3_600_000, 10_000]);
  assert.equal(c.urls.boe, 'http://mirror.local/boe');
  assert.equal(c.ratePerHost, 0.5);
  assert.deepEqual(c.sources, ['boe', 'bdns']);
  assert.equal(c.contact, 'ops@example.org');
  const refusals: Array<[Record<string, string>, RegExp]> = [
    [{ FUNDING_SYNC_BOE_URL: 'ftp://x' }, /FUNDING_SYNC_BOE_URL must be an http\(s\) URL/],
    [{ FUNDING_SYNC_RATE: '0' }, /FUNDING_SYNC_RATE/],
    [{ FUNDING_SYNC_RATE: 'fast' }, /FUNDING_SYNC_RATE/],
    [{ FUNDING_SYNC_SOURCES: 'eu,grants' }, /FUNDING_SYNC_SOURCES: unknown source grants/],
    [{ FUNDING_SYNC_PAGE_SIZE: '500' }, /FUNDING_SYNC_PAGE_SIZE must be an integer from 1 to 100/],
    [{ FUNDING_SYNC_BATCH_ROWS: '0' }, /FUNDING_SYNC_BATCH_ROWS must be an integer from 1 to 100000/],
    [{ FUNDING_SYNC_RETRIES: '-1' }, /FUNDING_SYNC_RETRIES/],
    [{ FUNDING_SYNC_TIMEOUT_MS: '0' }, /FUNDING_SYNC_TIMEOUT_MS/],
    [{ FUNDING_SYNC_CONTACT: 'José <jose@example.org>' }, /FUNDING_SYNC_CONTACT must be printable ASCII/],
    [{ FUNDING_SYNC_SOURCE_MAX: '20' }, /FUNDING_SYNC_SOURCE_MAX must be a duration such as 20m, 1h \(got "20"\)/],
    [{ FUNDING_SYNC_SOURCE_MAX: '0m' }, /FUNDING_SYNC_SOURCE_MAX must be a duration/],
    [{ FUNDING_SYNC_PROGRESS_EVERY: 'often' }, /FUNDING_SYNC_PROGRESS_EVERY must be a duration such as 30s, 1m/],
    [{ FUNDING_SYNC_CONTACT: 'ops@example.org\r\nX-Injected: 1' }, /FUNDING_SYNC_CONTACT must be printable ASCII/],
  ];
  for (const [env, message] of refusals) assert.throws(() => readFundingSyncConfig(env), message, JSON.stringify(env));
});

test('the User-Agent names trio, its version, its purpose and the contact (or that none is set)', () => {
  assert.equal(userAgent('0.1.0', 'ops@example.org'), 'trio/0.1.0 (funding corpus sync; +ops@example.org)');
  assert.match(
    userAgent('0.1.0', ''),
    /^trio\/0\.1\.0 \(funding corpus sync; \+operator contact not configured: set FUNDING_SYNC_CONTACT\)$/,
  );
});

test('backoff doubles per attempt within [half, all] of the ceiling, and stops at the cap', () => {
  const rows: Array<[number, number, number]> = [
    // attempt, random, expected (base 1000, cap 60000)
    [0, 0, 500],
    [0, 1, 1000],
    [1, 0, 1000],
    [1, 1, 2000],
    [3, 0.5, 6000],
    [6, 0, 30_000],
    [6, 1, 60_000],
    [10, 1, 60_000],
    [10, 0, 30_000],
  ];
  for (const [attempt, r, ms] of rows)
    assert.equal(
      backoffMs(attempt, 1000, 60_000, () => r),
      ms,
      `attempt ${attempt}, random ${r}`,
    );
});

test('Retry-After: seconds or an HTTP date, relative to now; unreadable is null', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  assert.equal(retryAfterMs('1', now), 1000);
  assert.equal(retryAfterMs(' 120 ', now), 120_000);
  assert.equal(retryAfterMs('Wed, 25 Nov 2026 10:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('Wed, 25 Nov 2026 09:00:00 GMT', now), 0, 'a date in the past: now');
  for (const v of [null, '', 'soon', '-5', '1.5']) assert.equal(retryAfterMs(v, now), null, String(v));
});

test('retried statuses: 408, 429 and 5xx except 501; never 4xx answers that will not change', () => {
  for (const s of [408, 429, 500, 502, 503, 504]) assert.equal(isRetryableStatus(s), true, String(s));
  for (const s of [400, 401, 403, 404, 405, 410, 501]) assert.equal(isRetryableStatus(s), false, String(s));
});

test('the explorer puts a data age in coarse words', async () => {
  const { ageWords } = await import('../../../routes/explore/funding-freshness.ts');
  const rows: Array<[number, string]> = [
    [0, 'less than a minute'],
    [59, 'less than a minute'],
    [60, '1 minute'],
    [3599, '59 minutes'],
    [3600, '1 hour'],
    [7200, '2 hours'],
    [86_399, '23 hours'],
    [86_400, '1 day'],
    [10 * 86_400, '10 days'],
  ];
  for (const [s, words] of rows) assert.equal(ageWords(s), words, String(s));
});

/**
 * "How current is this data?" on the funding pages, from GET /funding/v1/sources: the day the newest
 * record was published ("records published up to 5 August 2026", from the records themselves) and,
 * per source, when it was last synced from its publisher, never the time a file was loaded (issue 34:
 * the demo, loaded a minute ago, was said to be a minute old). The explorer asks the API as its own
 * client, not the visitor's: once a minute at most, counted against an address of its own, so a
 * visitor's page stays one call to the API in their allowance and a sync's age is never more than a
 * minute stale.
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type { ApiCall } from './api.ts';
import { sourceWords } from './funding-words.ts';

interface SourceFreshness {
  code: string;
  newest_published_on: string | null;
  last_sync_at: string | null;
  data_age_seconds: number | null;
}

const REFRESH_MS = 60_000;

/** "3 minutes", "5 hours", "2 days": coarse on purpose, the age of a corpus not a stopwatch. */
export function ageWords(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'}`;
  }
  return 'less than a minute';
}

const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/** "2026-02-26" → "26 February 2026" (a calendar day: no weekday, no zone shift). */
export const publishedDayWords = (isoDate: string) => DAY.format(Date.parse(`${isoDate}T00:00:00Z`));

/**
 * The sentence for the sources the explorer lists (CORDIS holds projects, not calls: left out), with
 * the seconds elapsed since the API was asked added to each sync's age.
 */
export function freshnessWords(sources: SourceFreshness[], elapsedSeconds = 0): Html {
  const shown = sources.filter((s) => s.code !== 'cordis');
  const days = shown.map((s) => s.newest_published_on).filter((d): d is string => d !== null);
  if (days.length === 0) return html``;
  const newest = days.reduce((a, b) => (a > b ? a : b));
  const neverSynced = shown.every((s) => s.last_sync_at === null);
  const one = (s: SourceFreshness) =>
    html`${sourceWords(s.code)} up to ${s.newest_published_on ? publishedDayWords(s.newest_published_on) : 'no dated record'}, ${s.data_age_seconds === null ? 'never synced' : `synced ${ageWords(s.data_age_seconds + elapsedSeconds)} ago`}`;
  return html`<p class="freshness muted" data-testid="data-age">Records published up to <time datetime="${newest}">${publishedDayWords(newest)}</time>${neverSynced ? html`; run <code>funding sync</code> to bring them up to date` : ''}. ${shown.map((s, i) => html`${i ? '; ' : ''}${one(s)}`)} (<a href="/funding/v1/sources">sources</a>).</p>`;
}

export function fundingFreshness(api: ApiCall) {
  let cached: { at: number; sources: SourceFreshness[] } | null = null;
  return async (visitor: ApiRequest): Promise<Html> => {
    if (!cached || visitor.now - cached.at >= REFRESH_MS) {
      const asExplorer: ApiRequest = { ...visitor, ip: '127.0.0.1', ipBucket: 'explorer:funding-freshness' };
      const answer = await api(asExplorer, '/funding/v1/sources');
      if (answer.status !== 200) return html``;
      cached = { at: visitor.now, sources: (answer.json as { data: SourceFreshness[] }).data };
    }
    return freshnessWords(cached.sources, Math.floor((visitor.now - cached.at) / 1000));
  };
}

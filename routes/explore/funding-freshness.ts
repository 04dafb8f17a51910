/**
 * "How old is this data?" on the funding pages: each source's data age, from GET
 * /funding/v1/sources (last successful sync or import). The explorer asks it as its own client, not
 * the visitor's: once a minute at most, counted against an address of its own, so a visitor's page
 * stays one call to the API in their allowance and the age shown is never more than a minute stale.
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type { ApiCall } from './api.ts';
import { sourceWords } from './funding-words.ts';

interface SourceAge {
  code: string;
  data_age_seconds: number | null;
  last_sync_at: string | null;
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

export function fundingFreshness(api: ApiCall) {
  let cached: { at: number; ages: SourceAge[] } | null = null;
  return async (visitor: ApiRequest): Promise<Html> => {
    if (!cached || visitor.now - cached.at >= REFRESH_MS) {
      const asExplorer: ApiRequest = { ...visitor, ip: '127.0.0.1', ipBucket: 'explorer:funding-freshness' };
      const answer = await api(asExplorer, '/funding/v1/sources');
      if (answer.status !== 200) return html``;
      cached = { at: visitor.now, ages: (answer.json as { data: SourceAge[] }).data };
    }
    const age = (s: SourceAge) =>
      s.data_age_seconds === null
        ? 'never loaded'
        : `${ageWords(s.data_age_seconds + Math.floor((visitor.now - cached!.at) / 1000))} old`;
    return html`<p class="freshness muted" data-testid="data-age">Age of the data: ${cached.ages.filter((s) => s.code !== 'cordis').map((s, i) => html`${i ? '; ' : ''}${sourceWords(s.code)} ${age(s)}${s.last_sync_at ? '' : ' (not synced)'}`)} (<a href="/funding/v1/sources">sources</a>).</p>`;
  };
}

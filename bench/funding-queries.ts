/**
 * What `npm run bench -- funding` sends (bench/funding.ts), and the profiles that replay it
 * (funding-explain.ts, funding-mix-profile.ts): the named shapes, and the mix of distinct queries
 * drawn from the corpus.
 */
import type Database from 'better-sqlite3';
import { mulberry32 } from '../lib/mulberry32.ts';
import { RARE_TERM } from './funding-corpus.ts';

export const SEARCH = '/funding/v1/search';

/** A shape's parameters as /search's schema outputs them (amounts as numbers), for in-process counts. */
export const asFilterParams = (params: Record<string, string>) => ({
  ...params,
  ...(params.budget_min !== undefined ? { budget_min: Number(params.budget_min) } : {}),
  ...(params.budget_max !== undefined ? { budget_max: Number(params.budget_max) } : {}),
});
const MIX_SIZE = 1_200;

export interface Query {
  name: string;
  params: Record<string, string>;
}

/** The shapes people send: what they type, from the rarest to the broadest, and the filters they add. */
export const QUERY_MIX: Query[] = [
  { name: 'rare term', params: { q: RARE_TERM } },
  { name: 'common term', params: { q: 'ayudas' } },
  { name: 'phrase', params: { q: '"economía circular"' } },
  { name: 'prefix', params: { q: 'subvenc*' } },
  { name: 'filters only', params: { status: 'open' } },
  { name: 'country+status+sort', params: { country: 'ES', status: 'open', sort: 'deadline' } },
  { name: 'text+status', params: { q: 'energía', status: 'open' } },
  { name: 'text+country', params: { q: 'ayudas', country: 'FR' } },
  { name: 'text+forthcoming', params: { q: 'ayudas', status: 'forthcoming' } },
  { name: 'text+status+country+sort', params: { q: 'ayudas', status: 'open', country: 'ES', sort: 'deadline' } },
  { name: 'stemmed word', params: { q: 'subvención' } },
  { name: 'identifier', params: { q: '(set from the corpus)' } },
  // Issue 34: an English query the vocabulary expands to the Spanish calls' words, two words that never
  // meet in one call (partial matches: posidonia is Spanish summaries', quantum English topics'), a typo.
  { name: 'english → spanish', params: { q: 'social services' } },
  { name: 'partial match', params: { q: `${RARE_TERM} quantum` } },
  { name: 'typo', params: { q: 'discapacidd' } },
  { name: 'region', params: { region: 'Madrid' } },
  // Issue 27: who may apply, how much, what changed; alone and with text, status and order.
  { name: 'applicant type', params: { applicant_type: 'large_company' } },
  {
    name: 'applicant types+status+sort',
    params: { applicant_type: 'individual,self_employed', status: 'open', sort: 'deadline' },
  },
  { name: 'text+applicant type', params: { q: 'ayudas', applicant_type: 'research' } },
  { name: 'budget range', params: { budget_min: '100000', budget_max: '1000000' } },
  { name: 'budget stated only+status', params: { budget_min: '5000000', budget_unstated: 'exclude', status: 'open' } },
  { name: 'text+budget', params: { q: 'energía', budget_min: '1000000', budget_unstated: 'exclude' } },
  { name: 'recently changed', params: { changed_since: '2026-10-01' } },
  { name: 'text+recently changed', params: { q: 'ayudas', changed_since: '2026-10-01' } },
  {
    name: 'text+every new filter+status',
    params: {
      q: 'innovación',
      status: 'open',
      applicant_type: 'sme',
      budget_min: '50000',
      changed_since: '2026-08-01',
    },
  },
];

/**
 * More than 1,000 distinct queries drawn from the corpus itself: words and pairs of words of real
 * titles, phrases, prefixes, identifiers, regions, with the filters people add (open calls, a country,
 * deadline order), in a fixed random order.
 */
export function buildMix(db: Database.Database, calls: number): string[] {
  const r = mulberry32(13); // the mix is the same on every run
  const row = db.prepare(
    'SELECT id, source_id, title, country, region FROM funding_calls WHERE seq = ? AND personal_data = 0',
  );
  const out = new Set<string>();
  for (let guard = 0; out.size < MIX_SIZE && guard < MIX_SIZE * 20; guard++) {
    const c = row.get(1 + Math.floor(r() * calls)) as
      { id: string; source_id: string; title: string; country: string; region: string | null } | undefined;
    if (!c) continue;
    const ws = c.title.split(/[^\p{L}]+/u).filter((w) => w.length >= 4);
    if (ws.length < 2) continue;
    const w = ws[Math.floor(r() * ws.length)]!.toLowerCase();
    const i = Math.floor(r() * (ws.length - 1));
    const kind = r();
    const params: Record<string, string> = {};
    if (kind < 0.35) params.q = w;
    else if (kind < 0.55) params.q = `${ws[i]!.toLowerCase()} ${ws[i + 1]!.toLowerCase()}`;
    else if (kind < 0.65) params.q = `"${ws[i]!.toLowerCase()} ${ws[i + 1]!.toLowerCase()}"`;
    else if (kind < 0.75) params.q = `${w.slice(0, Math.max(4, w.length - 3))}*`;
    else if (kind < 0.82) params.q = r() < 0.5 ? c.source_id : c.id;
    else if (kind < 0.9) params.q = `${w} or ${ws[i]!.toLowerCase()}`;
    else params.q = `${w} -${ws[(i + 1) % ws.length]!.toLowerCase()}`;
    if (r() < 0.4) params.status = 'open';
    if (r() < 0.15) params.country = c.country;
    if (r() < 0.15) params.sort = 'deadline';
    if (c.region && r() < 0.05)
      params.region =
        c.region
          .split(/[^\p{L}]+/u)
          .filter((x) => x.length >= 4)
          .pop() ?? c.region;
    out.add(`${SEARCH}?${new URLSearchParams(params).toString()}`);
  }
  return [...out];
}

/**
 * Filter tokens in the FTS index (the `facets` column, db/migrations/008_funding_search.sql and 012_funding_derived_terms.sql): with a
 * text query, a selective filter is added to the MATCH as an FTS term, so FTS5 intersects doclists
 * (seeking through the larger one) instead of SQLite looking up the row of every text match to test the
 * filter. That is what made `q=ayudas&country=FR` and `q=energía&status=open` take 400–900 ms on a
 * million calls (BENCHMARKS.md). The exact filter is still applied in SQL; the facet only narrows.
 *
 * The plan is chosen by selectivity: a facet is added only when it holds at most a quarter of the
 * corpus (`country=ES`, three calls in four, would only slow the intersection). Counts come from the
 * index's vocabulary and are cached until the next import.
 *
 *  - country → `_c<iso2>`; source → `_s<source>` (`_` keeps them apart from words: migration 012);
 *  - status open or forthcoming → the months (UTC) of last cut-offs from this month on, and `_mnone`
 *    (undated): a call not closed at `now` closes at or after now, so its month is one of these.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

const SELECTIVE = 0.25;

export interface FacetFilters {
  country: string | null;
  source: string | null;
  status: 'open' | 'forthcoming' | 'closed' | null;
  now: number;
}

export interface FacetPlan {
  expr: string | null;
  exact: { country: boolean; source: boolean };
}

const statements = statementsFor((db) => ({
  generation: db.prepare('SELECT coalesce(max(id), 0) FROM funding_imports').pluck(),
  range: db.prepare('SELECT term, doc FROM temp.funding_vocab WHERE term >= ? AND term < ?'),
}));

export function facetPlanner(db: Db) {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.funding_vocab USING fts5vocab(main, funding_calls_fts, row)');
  const { generation, range } = statements(db);
  let seen = -1;
  let docs = new Map<string, number>();
  let total = 0;
  let months: Array<[string, number]> = [];

  const refresh = () => {
    const current = generation.get() as number;
    if (current === seen) return;
    seen = current;
    docs = new Map();
    for (const [lo, hi] of [
      ['_c', '_d'],
      ['_s', '_t'],
    ]) {
      for (const { term, doc } of range.all(lo, hi) as Array<{ term: string; doc: number }>) docs.set(term, doc);
    }
    total = [...docs].filter(([t]) => t.startsWith('_s')).reduce((n, [, d]) => n + d, 0);
    months = (range.all('_m', '_n') as Array<{ term: string; doc: number }>).map(({ term, doc }) => [term, doc]);
  };

  /**
   * The facet expression to AND with a text MATCH for these filters (null when none is selective), and
   * which filters it decides exactly (country and source tokens are the column's value; months only
   * narrow status).
   */
  return (f: FacetFilters): FacetPlan => {
    const none: FacetPlan = { expr: null, exact: { country: false, source: false } };
    if (!f.country && !f.source && (!f.status || f.status === 'closed')) return none;
    refresh();
    if (total === 0) return none;
    const terms: string[] = [];
    const exact = { country: false, source: false };
    const selective = (n: number) => n <= total * SELECTIVE;
    if (f.country) {
      const t = `_c${f.country.toLowerCase()}`;
      if (selective(docs.get(t) ?? 0)) {
        terms.push(`"${t}"`);
        exact.country = true;
      }
    }
    if (f.source) {
      const t = `_s${f.source}`;
      if (selective(docs.get(t) ?? 0)) {
        terms.push(`"${t}"`);
        exact.source = true;
      }
    }
    if (f.status === 'open' || f.status === 'forthcoming') {
      const from = `_m${new Date(f.now).toISOString().slice(0, 7).replace('-', '')}`;
      // _mnone sorts after every _mYYYYMM: it is always in the range.
      const open = months.filter(([t]) => t >= from);
      if (open.length === 0) terms.push('"_mnone"');
      else if (selective(open.reduce((n, [, d]) => n + d, 0)))
        terms.push(`(${open.map(([t]) => `"${t}"`).join(' OR ')})`);
    }
    // Only the facets column holds these tokens: no column filter (it would read every position list).
    return terms.length ? { expr: `(${terms.join(' AND ')})`, exact } : none;
  };
}

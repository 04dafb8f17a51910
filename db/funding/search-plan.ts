/**
 * How a funding search reads its rows (./search.ts pages through what this returns): the ordered
 * streams (segments) of SQL a sort is read from and, for a sorted text search, the plan chosen by
 * estimated cost. Relevance is two segments (calls whose identifiers or title hold the query, then the
 * other matches, newest first in each); every other order is one, keyed on the order's key and the id.
 */
import { undatedHorizon } from '../../lib/funding/status.ts';
import type { SearchContext } from './search-candidates.ts';
import { TOTAL_CAP } from './search-count.ts';
import { MAX_TIERS } from '../../lib/funding/search-tiers.ts';
import { COLUMNS, ORDERS, where, type SearchFilters } from './search-sql.ts';

/**
 * Relative costs of the sorted plans, per unit of work (µs on the benchmark machine, in-process, page
 * cache warm): reading a call's row, putting a match in a temporary list, stepping the order's index
 * against that list, and asking the FTS index about one row.
 */
const COST = { row: 12, list: 0.6, walk: 0.4, seek: 60 };

/** One ordered stream of rows; a sort is one or more of them, read in turn. */
export interface Segment {
  /** Bound with @ids: the calls the plan reads (a JSON array of seq). */
  ids?: string;
  sql: (keyed: boolean, paged: boolean) => string;
  match: string | null;
  /** The query's units this stream's calls lack (a partial-match tier). */
  missing?: number[];
}

type Plan = 'ids' | 'read' | 'list' | 'seek';

/**
 * The plan of a sorted text search, by estimated cost (COST), for the first `want` rows:
 * - `ids`: every text match is known and the filters were decided in memory: read the rows of those
 *   that pass and sort them (few);
 * - `read`: every text match is known: read them all, filter and sort (the filters need the rows);
 * - `list`: walk the order's index, checking each row against a temporary list of the matches;
 * - `seek`: walk the order's index, asking the FTS index about each row (a word in half the corpus).
 * A walk's length is estimated from the share of the corpus that matches and passes: the newest
 * matches' density over the rowids they span, and the share of them that passed the filters.
 */
function plan(ctx: SearchContext, f: SearchFilters, want: number): Plan {
  const c = ctx.candidates(f);
  const seen = c.seqs.length;
  const corpus = Math.max(1, ctx.stmt('SELECT coalesce(max(seq), 0) FROM funding_calls').pluck().get() as number);
  const matches = c.complete
    ? seen
    : Math.min(corpus, (seen * corpus) / Math.max(1, c.seqs[0]! - c.seqs[seen - 1]! + 1));
  const passing = matches * (c.passing ? c.passing.length / Math.max(1, seen) : 1);
  const range =
    c.passing && (f.status === 'open' || f.status === 'forthcoming')
      ? ctx.memory.notClosedCount(f.now, undatedHorizon(f.now))
      : corpus;
  const walk = passing >= 1 ? Math.min(range, (range * want) / passing) : range;
  const costs: Array<[Plan, number]> = [['seek', walk * COST.seek]];
  if (c.complete && seen <= ctx.options.materializeUpTo)
    costs.push(c.passing ? ['ids', c.passing.length * COST.row] : ['read', seen * COST.row]);
  if (ctx.options.listUpTo > 0 && matches <= ctx.options.listUpTo)
    costs.push(['list', matches * COST.list + walk * COST.walk]);
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

/** The rows of calls known by id (`ids`), filtered again in SQL and sorted. */
function idsSegment(
  f: SearchFilters,
  ids: number[],
  order: (typeof ORDERS)[keyof typeof ORDERS],
  tail: (keyed: boolean, paged: boolean) => string,
): Segment {
  return {
    match: null,
    ids: JSON.stringify(ids),
    sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k
        FROM json_each(@ids) j CROSS JOIN funding_calls c ON c.seq = j.value
        WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
  };
}

/** The most streams a search reads: relevance's tiers (a cursor names one of them). */
export const MAX_SEGMENTS = MAX_TIERS;

/** The streams a search reads, in order; `want`: how many rows the caller reads (its offset included). */
export function segments(ctx: SearchContext, f: SearchFilters, want: number): Segment[] {
  const text = f.text ? ctx.query(f) : null;
  if (f.sort === 'relevance' && text && text.tiers.length > 0) {
    // Relevance: the tiers of lib/funding/search-tiers.ts, each read newest first.
    // CROSS JOIN: the index's matches drive; a filter index must not (it would run the MATCH once per row it walks).
    return text.tiers.map((tier) => ({
      // Compiled when the tier is read: a page is often full before the partial tiers.
      get match() {
        return ctx.match(f, tier.match);
      },
      missing: tier.missing,
      sql: (
        keyed,
        paged,
      ) => `SELECT ${COLUMNS}, c.seq AS k FROM funding_calls_fts f CROSS JOIN funding_calls c ON c.seq = f.rowid
          WHERE funding_calls_fts MATCH @match AND ${where(f, true)}${keyed ? ' AND f.rowid < @k' : ''}
          ORDER BY f.rowid DESC LIMIT @limit${paged ? ' OFFSET @offset' : ''}`,
    }));
  }
  const order = ORDERS[f.sort === 'relevance' ? 'published' : f.sort];
  const cmp = order.dir === 'ASC' ? '>' : '<';
  const keyset = (keyed: boolean) => (keyed ? `AND (${order.key}, c.id) ${cmp} (@k, @id)` : '');
  const tail = (keyed: boolean, paged: boolean) =>
    `${keyset(keyed)} ORDER BY ${order.key} ${order.dir}, c.id ${order.dir} LIMIT @limit${paged ? ' OFFSET @offset' : ''}`;
  if (!text) {
    // Issue 27's filters can make a walk of the order's index long (a rare combination): when the few
    // calls that pass are known (counted in memory), read them by id instead, if that costs less.
    const few = ctx.filtersOnly(f, TOTAL_CAP)?.seqs;
    if (few) {
      const corpus = ctx.stmt('SELECT coalesce(max(seq), 0) FROM funding_calls').pluck().get() as number;
      const walk = Math.min(corpus, (corpus * want) / Math.max(1, few.length));
      if (few.length * COST.row < walk * COST.walk) return [idsSegment(f, few, order, tail)];
    }
    return [
      {
        match: null,
        sql: (keyed, paged) =>
          `SELECT ${COLUMNS}, ${order.key} AS k FROM funding_calls c WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
      },
    ];
  }
  const match = ctx.match(f, text.all);
  // The plan by cost (see `plan`): the rows of few matches are read and sorted; more are found by
  // walking the order's index, checking each row against a temporary list of the matches or asking the
  // FTS index about it (a seek by rowid; text that matches half the corpus), and the walk stops when
  // the page is full.
  const chosen = plan(ctx, f, want);
  if (chosen === 'ids') return [{ ...idsSegment(f, ctx.candidates(f).passing!, order, tail), match }];
  if (chosen === 'read') {
    return [
      {
        match,
        sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k
        FROM (SELECT rowid AS seq FROM funding_calls_fts WHERE funding_calls_fts MATCH @match) m CROSS JOIN funding_calls c ON c.seq = m.seq
        WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
      },
    ];
  }
  if (chosen === 'list') {
    // `+c.seq`: the list filters the walk; it must not drive it.
    return [
      {
        match,
        sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k FROM funding_calls c
        WHERE ${where(f, order.range)} AND +c.seq IN (SELECT rowid FROM funding_calls_fts WHERE funding_calls_fts MATCH @match)
        ${tail(keyed, paged)}`,
      },
    ];
  }
  return [
    {
      match,
      sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k FROM funding_calls c
      WHERE ${where(f, order.range)} AND EXISTS (SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH @match AND rowid = c.seq)
      ${tail(keyed, paged)}`,
    },
  ];
}

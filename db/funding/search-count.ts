/**
 * The `total` of a funding search (./search.ts): matches counted up to TOTAL_CAP, a filtered text
 * count looking through at most the count budget of text matches (newest first), past which the total
 * is a floor (`exact: false`), so that its cost is bounded whatever the query.
 */
import type { SearchContext } from './search-candidates.ts';
import { hasFilters, where, type SearchFilters } from './search-sql.ts';

export const TOTAL_CAP = 10_000;

export interface Total {
  total: number;
  exact: boolean;
}

/**
 * A filtered count's total from the text matches it looked through (`seen`, at most budget + 1) and
 * those that passed (`found`): past the budget the total is a floor.
 */
const budgetedTotal = (seen: number, found: number, budget: number): Total =>
  seen > budget ? { total: Math.min(found, TOTAL_CAP), exact: false } : { total: found, exact: found <= TOTAL_CAP };

export function countMatches(ctx: SearchContext, f: SearchFilters): Total {
  let sql: string;
  let match: string | null = null;
  if (f.text) {
    match = ctx.match(f, ctx.query(f).all);
    // Filters the facets decide exactly need no row: without others, the index alone counts.
    const decided = ctx.facets(f).exact;
    const rest: SearchFilters = {
      ...f,
      country: decided.country ? null : f.country,
      source: decided.source ? null : f.source,
    };
    // A filtered text count looks through at most countBudget text matches, newest first (one more
    // to know whether there were more): past that it says its total is a floor (total_exact false),
    // so its cost is bounded. The budget is TOTAL_CAP, so "found" never needs a cap of its own.
    const budget = ctx.options.countBudget;
    const candidates = `(SELECT rowid AS seq FROM funding_calls_fts WHERE funding_calls_fts MATCH @match ORDER BY rowid DESC LIMIT ${budget + 1}) m`;
    if (hasFilters(rest)) {
      // The filters decided in memory: the newest text matches come from the index alone, and no row
      // is read (the same sums as the SQL below, which reads a row per match).
      const c = ctx.candidates(f);
      if (c.passing) {
        return budgetedTotal(c.seqs.length, c.passing.length, budget);
      }
      // Forthcoming calls are few and found in the deadline index alone (it covers every column the
      // filters read): their ids go in a temporary b-tree once, and each text match is checked against
      // it instead of reading its row (q=ayudas&status=forthcoming on 1M calls: 150 → 57 ms). For open
      // calls, ten times as many, reading the rows of the matches was as fast or faster.
      const passes =
        f.status === 'forthcoming'
          ? `m.seq IN (SELECT c.seq FROM funding_calls c WHERE ${where(rest, true)})`
          : where(rest, true);
      const from =
        f.status === 'forthcoming' ? candidates : `${candidates} CROSS JOIN funding_calls c ON c.seq = m.seq`;
      const { seen, found } = ctx
        .stmt(`SELECT count(*) AS seen, coalesce(sum(CASE WHEN ${passes} THEN 1 ELSE 0 END), 0) AS found FROM ${from}`)
        .get({ ...ctx.params(f), match }) as { seen: number; found: number };
      return budgetedTotal(seen, found, budget);
    }
    // Only public calls are in the index: no join needed. A sorted search's plan has already read
    // the newest matches (up to the same cap): they are the count.
    const known = ctx.known(f);
    if (known && budget === TOTAL_CAP)
      return known.complete ? { total: known.seqs.length, exact: true } : { total: TOTAL_CAP, exact: false };
    sql = `SELECT count(*) FROM (SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH @match LIMIT ${TOTAL_CAP + 1})`;
  } else {
    // Issue 27's filters without text: counted in memory (a covering index walk would read up to the
    // whole index for a rare combination).
    const counted = ctx.filtersOnly(f, TOTAL_CAP);
    if (counted)
      return counted.count > TOTAL_CAP ? { total: TOTAL_CAP, exact: false } : { total: counted.count, exact: true };
    sql = `SELECT count(*) FROM (SELECT 1 FROM funding_calls c WHERE ${where(f, true)} LIMIT ${TOTAL_CAP + 1})`;
  }
  const n = ctx
    .stmt(sql)
    .pluck()
    .get({ ...ctx.params(f), match }) as number;
  return n > TOTAL_CAP ? { total: TOTAL_CAP, exact: false } : { total: n, exact: true };
}

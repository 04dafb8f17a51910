/**
 * The SQL behind /search and /export (docs/decisions.md "What a search matches"; speed in BENCHMARKS.md).
 *
 * - Text is matched in the stemmed FTS5 index (db/migrations/008_funding_search.sql, then
 *   012_funding_derived_terms.sql) with expressions compiled by lib/funding/search-query.ts (phrases and
 *   title matches as single derived terms); long prefixes are expanded into their terms (./prefix-terms.ts).
 * - Relevance is two tiers: calls whose identifiers or title hold the query first, then the other
 *   matches; newest first inside each tier. It depends only on each call, not on the rest of the
 *   corpus (bm25's does), so it is cheap for a word in half the corpus and a cursor over it is exact.
 * - Every order is a key ending in the call's id, and a page continues after the last row's key
 *   (keyset, not offset): inserting or withdrawing calls during a walk neither repeats nor skips one.
 * - sort=deadline orders by the deadline the call serves now (served_closes_at, kept current by
 *   ./served-deadline.ts), calls without a deadline last.
 * - Status filters (./search-sql.ts) are written so that "not closed yet" is a range on the deadline
 *   indexes, which also carry every column the status rules read. `total` counts up to TOTAL_CAP.
 */
import type { Db } from '../connection.ts';
import type { StoredCall } from '../../lib/funding/present.ts';
import { undatedHorizon } from '../../lib/funding/status.ts';
import { facetPlanner } from './facets.ts';
import { filterMemory } from './filter-memory.ts';
import { prefixExpander } from './prefix-terms.ts';
import { servedDeadlines } from './served-deadline.ts';
import { preparedSql } from '../statements.ts';
import {
  COLUMNS,
  DAY_MS,
  FORTHCOMING,
  hasFilters,
  notClosed,
  ORDERS,
  where,
  type SearchFilters,
} from './search-sql.ts';

export const TOTAL_CAP = 10_000;
/** The most text matches a filtered count examines (newest first); beyond, its total is a floor. */
export const COUNT_BUDGET = 10_000;
/** Default of `listUpTo`: the most matches put in a temporary list for a walk (see `plan`). */
const MATERIALIZE_CAP = 100_000;
/**
 * Relative costs of the sorted plans, per unit of work (µs on the benchmark machine, in-process, page
 * cache warm): reading a call's row, putting a match in a temporary list, stepping the order's index
 * against that list, and asking the FTS index about one row.
 */
const COST = { row: 12, list: 0.6, walk: 0.4, seek: 60 };
/** Where a page ended: the segment (relevance tier) and the last row's key. Opaque to clients (routes/funding/filters.ts). */
export interface Position {
  segment: number;
  key: string | number;
  id: string;
}

/** A stored call as the presenter reads it, plus where the row stands in the order it was read in. */
export interface CallRow extends StoredCall {
  seq: number;
  /** The row's order key and the segment it came from: a Position after it is {segment, key: k, id}. */
  k: string | number;
  segment: number;
}

/** The position just after a row. */
export const positionAfter = (row: CallRow): Position => ({ segment: row.segment, key: row.k, id: row.id });

/** One ordered stream of rows; a sort is one or more of them, read in turn. */
interface Segment {
  /** Bound with @ids: the calls the plan reads (a JSON array of seq). */
  ids?: string;
  sql: (keyed: boolean, paged: boolean) => string;
  match: string | null;
}

/** The newest text matches of a search (rowids, newest first) and those that pass its filters. */
interface Candidates {
  seqs: number[];
  /** Every text match is in `seqs` (there were at most countBudget). */
  complete: boolean;
  /** null: some filter needs the row (closed, a deadline window). */
  passing: number[] | null;
}

export interface SearchPage {
  rows: CallRow[];
  total: number;
  exact: boolean;
}

/**
 * A filtered count's total from the text matches it looked through (`seen`, at most budget + 1) and
 * those that passed (`found`): past the budget the total is a floor.
 */
const budgetedTotal = (seen: number, found: number, budget: number) =>
  seen > budget ? { total: Math.min(found, TOTAL_CAP), exact: false } : { total: found, exact: found <= TOTAL_CAP };

/** Statements are kept per SQL text (db/statements.ts): there are few distinct shapes (filters × sort). */
export class FundingSearch {
  private readonly expand: (fts: string) => string;
  private readonly refreshServed: (now: number) => number;
  private readonly facets: ReturnType<typeof facetPlanner>;
  private readonly memory: ReturnType<typeof filterMemory>;

  /**
   * A sorted text search with at most `materializeUpTo` matches reads and sorts them; beyond, a region
   * filter alone walks the order's index against a temporary list of its matches (unless `listUpTo` is
   * 0), and text asks the FTS index about each row it walks. A filtered text count looks through at most `countBudget` text
   * matches. (Tests lower these to run every plan on a small corpus.)
   */
  constructor(
    private readonly db: Db,
    private readonly options: {
      materializeUpTo: number;
      listUpTo: number;
      countBudget: number;
      /** false: filtered counts read the rows (the SQL path), as before the filters were kept in memory. */
      memory?: boolean;
    } = { materializeUpTo: TOTAL_CAP, listUpTo: MATERIALIZE_CAP, countBudget: COUNT_BUDGET },
  ) {
    this.expand = prefixExpander(db);
    this.refreshServed = servedDeadlines(db);
    this.facets = facetPlanner(db);
    this.memory = filterMemory(db, { notClosed: notClosed(true), forthcoming: FORTHCOMING });
  }

  /** A text expression, long prefixes expanded, with the filters' selective facets (./facets.ts). */
  private match(f: SearchFilters, expr: string): string {
    const facets = this.facets(f).expr;
    const expanded = this.expand(expr);
    return facets ? `(${expanded}) AND ${facets}` : expanded;
  }

  private stmt(sql: string) {
    return preparedSql(this.db, sql);
  }

  private params(f: SearchFilters) {
    return {
      country: f.country,
      source: f.source,
      now: f.now,
      undatedHorizon: undatedHorizon(f.now),
      deadlineFrom: f.deadlineFrom,
      deadlineTo: f.deadlineTo,
      deadlineFromMs: f.deadlineFrom ? Date.parse(`${f.deadlineFrom}T00:00:00Z`) - 3 * 3_600_000 : null,
      deadlineToMs: f.deadlineTo ? Date.parse(`${f.deadlineTo}T00:00:00Z`) + DAY_MS + 3_600_000 : null,
    };
  }

  /**
   * The newest text matches (up to the count budget and one more), and those of them that pass the
   * filters when every filter the facets left is decided in memory (./filter-memory.ts); null when one
   * is not (closed, a deadline window). Once per filters object, shared by the count and the plan.
   */
  private candidates(f: SearchFilters): Candidates {
    let c = this.candidatesOf.get(f);
    if (c) return c;
    const budget = this.options.countBudget;
    const seqs = this.stmt(
      `SELECT rowid FROM funding_calls_fts WHERE funding_calls_fts MATCH @match ORDER BY rowid DESC LIMIT ${budget + 1}`,
    )
      .pluck()
      .all({ match: this.match(f, f.text!.all) }) as number[];
    const test =
      this.options.memory === false ? null : this.memory.test(f, this.facets(f).exact, undatedHorizon(f.now));
    const passing = test === null ? null : test === undefined ? seqs : seqs.filter(test);
    this.candidatesOf.set(f, (c = { seqs, complete: seqs.length <= budget, passing }));
    return c;
  }

  private candidatesOf = new WeakMap<SearchFilters, Candidates>();

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
  private plan(f: SearchFilters, want: number): 'ids' | 'read' | 'list' | 'seek' {
    const c = this.candidates(f);
    const seen = c.seqs.length;
    const corpus = Math.max(1, this.stmt('SELECT coalesce(max(seq), 0) FROM funding_calls').pluck().get() as number);
    const matches = c.complete
      ? seen
      : Math.min(corpus, (seen * corpus) / Math.max(1, c.seqs[0]! - c.seqs[seen - 1]! + 1));
    const passing = matches * (c.passing ? c.passing.length / Math.max(1, seen) : 1);
    const range =
      c.passing && (f.status === 'open' || f.status === 'forthcoming')
        ? this.memory.notClosedCount(f.now, undatedHorizon(f.now))
        : corpus;
    const walk = passing >= 1 ? Math.min(range, (range * want) / passing) : range;
    const costs: Array<['ids' | 'read' | 'list' | 'seek', number]> = [['seek', walk * COST.seek]];
    if (c.complete && seen <= this.options.materializeUpTo)
      costs.push(c.passing ? ['ids', c.passing.length * COST.row] : ['read', seen * COST.row]);
    if (this.options.listUpTo > 0 && matches <= this.options.listUpTo)
      costs.push(['list', matches * COST.list + walk * COST.walk]);
    return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
  }

  /** The streams a search reads, in order; `want`: how many rows the caller reads (its offset included). */
  private segments(f: SearchFilters, want: number): Segment[] {
    const text = f.text;
    if (f.sort === 'relevance' && text?.primary && text.secondary) {
      const tier = (match: string): Segment => ({
        match: this.match(f, match),
        // CROSS JOIN: the index's matches drive (newest first); a filter index must not (it would run
        // the MATCH once per row it walks).
        sql: (
          keyed,
          paged,
        ) => `SELECT ${COLUMNS}, c.seq AS k FROM funding_calls_fts f CROSS JOIN funding_calls c ON c.seq = f.rowid
          WHERE funding_calls_fts MATCH @match AND ${where(f, true)}${keyed ? ' AND f.rowid < @k' : ''}
          ORDER BY f.rowid DESC LIMIT @limit${paged ? ' OFFSET @offset' : ''}`,
      });
      return [tier(text.primary), tier(text.secondary)];
    }
    const order = ORDERS[f.sort === 'relevance' ? 'published' : f.sort];
    const cmp = order.dir === 'ASC' ? '>' : '<';
    const keyset = (keyed: boolean) => (keyed ? `AND (${order.key}, c.id) ${cmp} (@k, @id)` : '');
    const tail = (keyed: boolean, paged: boolean) =>
      `${keyset(keyed)} ORDER BY ${order.key} ${order.dir}, c.id ${order.dir} LIMIT @limit${paged ? ' OFFSET @offset' : ''}`;
    if (!text) {
      return [
        {
          match: null,
          sql: (keyed, paged) =>
            `SELECT ${COLUMNS}, ${order.key} AS k FROM funding_calls c WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
        },
      ];
    }
    const match = this.match(f, text.all);
    // The plan by cost (see `plan`): the rows of few matches are read and sorted; more are found by
    // walking the order's index, checking each row against a temporary list of the matches or asking the
    // FTS index about it (a seek by rowid; text that matches half the corpus), and the walk stops when
    // the page is full.
    const plan = this.plan(f, want);
    if (plan === 'ids') {
      return [
        {
          match,
          ids: JSON.stringify(this.candidates(f).passing),
          sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k
        FROM json_each(@ids) j CROSS JOIN funding_calls c ON c.seq = j.value
        WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
        },
      ];
    }
    if (plan === 'read') {
      return [
        {
          match,
          sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k
        FROM (SELECT rowid AS seq FROM funding_calls_fts WHERE funding_calls_fts MATCH @match) m CROSS JOIN funding_calls c ON c.seq = m.seq
        WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
        },
      ];
    }
    if (plan === 'list') {
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

  /**
   * Up to `limit` rows after `after` (a Position from an earlier page), or, for numbered pages, after
   * skipping `offset` rows from the start.
   */
  rows(f: SearchFilters, limit: number, after: Position | null, offset = 0): CallRow[] {
    const base = this.params(f);
    const segments = this.segments(f, limit + (after ? 0 : offset));
    const rows: CallRow[] = [];
    let skip = after ? 0 : offset;
    let firstTier: Set<number> | null = null;
    for (let s = after ? after.segment : 0; s < segments.length && rows.length < limit; s++) {
      const seg = segments[s]!;
      const keyed = after !== null && after.segment === s;
      const params = {
        ...base,
        match: seg.match,
        ids: seg.ids ?? null,
        limit: limit - rows.length,
        offset: skip,
        k: keyed ? after.key : null,
        id: keyed ? after.id : null,
      };
      const got: CallRow[] =
        (s === 1 && firstTier ? this.secondTierFromCandidates(f, firstTier, limit - rows.length) : null) ??
        (this.stmt(seg.sql(keyed, skip > 0)).all(params) as CallRow[]);
      // The first tier of a first page, read whole (fewer rows than asked): every call of it that passes.
      firstTier = s === 0 && !keyed && skip === 0 && got.length < params.limit ? new Set(got.map((r) => r.seq)) : null;
      if (skip > 0) {
        // Numbered pages: rows skipped in this segment count against the offset.
        if (got.length === 0) skip -= this.segmentSize(seg, base, skip);
        else skip = 0;
      }
      for (const row of got) row.segment = s;
      rows.push(...got);
    }
    return rows;
  }

  /**
   * The second relevance tier's first rows without a second pass over the text: when every text match
   * is known (the candidates, which the count needs anyway) with the filters decided in memory, and the
   * first tier was read whole, the second tier is the passing matches the first did not hold, newest
   * first; only their rows are read. Null when that is not known: the tier's own SQL runs instead.
   * (A phrase of common words costs 20–60 ms per pass over the index on 1M calls: BENCHMARKS.md.)
   */
  private secondTierFromCandidates(f: SearchFilters, firstTier: Set<number>, want: number): CallRow[] | null {
    if (this.options.memory === false || f.sort !== 'relevance') return null;
    const c = this.candidates(f);
    if (!c.complete || !c.passing) return null;
    const ids: number[] = [];
    for (const seq of c.passing) {
      if (ids.length === want) break;
      if (!firstTier.has(seq)) ids.push(seq);
    }
    if (ids.length === 0) return [];
    return this.stmt(
      `SELECT ${COLUMNS}, c.seq AS k FROM json_each(@ids) j CROSS JOIN funding_calls c ON c.seq = j.value
        WHERE ${where(f, true)} ORDER BY c.seq DESC`,
    ).all({ ...this.params(f), ids: JSON.stringify(ids) }) as CallRow[];
  }

  /** How many rows a segment has, counted up to `cap`. */
  private segmentSize(seg: Segment, base: object, cap: number): number {
    return this.stmt(`SELECT count(*) FROM (${seg.sql(false, false)})`)
      .pluck()
      .get({ ...base, match: seg.match, ids: seg.ids ?? null, limit: cap, offset: 0, k: null, id: null }) as number;
  }

  /** One page of results and the (capped) number of matches. */
  search(f: SearchFilters, limit: number, after: Position | null, offset = 0): SearchPage {
    this.refreshServed(f.now);
    return { rows: this.rows(f, limit, after, offset), ...this.count(f) };
  }

  private counted = new WeakMap<SearchFilters, { total: number; exact: boolean }>();

  /** Matches counted up to TOTAL_CAP; once per filters object (a request's plan and its total share it). */
  private count(f: SearchFilters): { total: number; exact: boolean } {
    let c = this.counted.get(f);
    if (!c) this.counted.set(f, (c = this.countNow(f)));
    return c;
  }

  private countNow(f: SearchFilters): { total: number; exact: boolean } {
    let sql: string;
    let match: string | null = null;
    if (f.text) {
      match = this.match(f, f.text.all);
      // Filters the facets decide exactly need no row: without others, the index alone counts.
      const decided = this.facets(f).exact;
      const rest: SearchFilters = {
        ...f,
        country: decided.country ? null : f.country,
        source: decided.source ? null : f.source,
      };
      // A filtered text count looks through at most countBudget text matches, newest first (one more
      // to know whether there were more): past that it says its total is a floor (total_exact false),
      // so its cost is bounded. The budget is TOTAL_CAP, so "found" never needs a cap of its own.
      const budget = this.options.countBudget;
      const candidates = `(SELECT rowid AS seq FROM funding_calls_fts WHERE funding_calls_fts MATCH @match ORDER BY rowid DESC LIMIT ${budget + 1}) m`;
      if (hasFilters(rest)) {
        // The filters decided in memory: the newest text matches come from the index alone, and no row
        // is read (the same sums as the SQL below, which reads a row per match).
        const c = this.candidates(f);
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
        const { seen, found } = this.stmt(
          `SELECT count(*) AS seen, coalesce(sum(CASE WHEN ${passes} THEN 1 ELSE 0 END), 0) AS found FROM ${from}`,
        ).get({ ...this.params(f), match }) as { seen: number; found: number };
        return budgetedTotal(seen, found, budget);
      }
      // Only public calls are in the index: no join needed. A sorted search's plan has already read
      // the newest matches (up to the same cap): they are the count.
      const known = this.candidatesOf.get(f);
      if (known && budget === TOTAL_CAP)
        return known.complete ? { total: known.seqs.length, exact: true } : { total: TOTAL_CAP, exact: false };
      sql = `SELECT count(*) FROM (SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH @match LIMIT ${TOTAL_CAP + 1})`;
    } else {
      sql = `SELECT count(*) FROM (SELECT 1 FROM funding_calls c WHERE ${where(f, true)} LIMIT ${TOTAL_CAP + 1})`;
    }
    const n = this.stmt(sql)
      .pluck()
      .get({ ...this.params(f), match }) as number;
    return n > TOTAL_CAP ? { total: TOTAL_CAP, exact: false } : { total: n, exact: true };
  }

  /** Every match in the search's order, in chunks, for /export: no statement stays open across an await. */
  *chunks(f: SearchFilters, chunkSize = 1000): Generator<CallRow[]> {
    this.refreshServed(f.now);
    let after: Position | null = null;
    for (;;) {
      const rows = this.rows(f, chunkSize, after);
      if (rows.length === 0) return;
      yield rows;
      after = positionAfter(rows[rows.length - 1]!);
      if (rows.length < chunkSize) return;
    }
  }
}

/**
 * The SQL behind /search and /export (docs/decisions.md "What a search matches"; speed in BENCHMARKS.md).
 *
 * - Text is matched in the stemmed FTS5 index (db/migrations/008_funding_search.sql) with expressions
 *   compiled by lib/funding/search-query.ts; long prefixes are expanded into their terms (./prefix-terms.ts).
 * - Relevance is two tiers: calls whose identifiers or title hold the query first, then the other
 *   matches; newest first inside each tier. It depends only on each call, not on the rest of the
 *   corpus (bm25's does), so it is cheap for a word in half the corpus and a cursor over it is exact.
 * - Every order is a key ending in the call's id, and a page continues after the last row's key
 *   (keyset, not offset): inserting or withdrawing calls during a walk neither repeats nor skips one.
 * - sort=deadline orders by the deadline the call serves now (served_closes_at, kept current by
 *   ./served-deadline.ts), calls without a deadline last.
 * - Status filters are written so that "not closed yet" is a range on the deadline indexes, which also
 *   carry every column the status rules read. `total` counts up to TOTAL_CAP.
 */
import type { Db } from '../connection.ts';
import type { StoredCall } from '../../lib/funding/present.ts';
import type { FtsQuery } from '../../lib/funding/search-query.ts';
import { undatedHorizon } from '../../lib/funding/status.ts';
import { facetPlanner } from './facets.ts';
import { prefixExpander } from './prefix-terms.ts';
import { servedDeadlines } from './served-deadline.ts';
import { preparedSql } from '../statements.ts';

export const TOTAL_CAP = 10_000;
/** The most text matches a filtered count examines (newest first); beyond, its total is a floor. */
export const COUNT_BUDGET = 10_000;
/** Default of `listUpTo` (non-zero: region-only searches use the list plan). */
const MATERIALIZE_CAP = 100_000;
/** The closing instant used to sort calls without a deadline last (9999-12-31T23:59:59.999Z). */
const NO_DEADLINE = 253402300799999;
const DAY_MS = 86_400_000;

export type Sort = 'relevance' | 'deadline' | '-deadline' | 'published';

export interface SearchFilters {
  /** The compiled text (q) and region filter; null when neither is given. */
  text: FtsQuery | null;
  country: string | null;
  status: 'open' | 'forthcoming' | 'closed' | null;
  source: string | null;
  /** Served deadline day window, inclusive (YYYY-MM-DD in the call's zone); calls without a deadline are outside any window. */
  deadlineFrom: string | null;
  deadlineTo: string | null;
  sort: Sort;
  now: number;
}

/** Where a page ended: the segment (relevance tier) and the last row's key. Opaque to clients (routes/funding/filters.ts). */
export interface Position {
  segment: number;
  key: string | number;
  id: string;
}

// The status rules of lib/funding/status.ts, in SQL (the end-to-end tests hold the two to each other).
const CLOSED = `(coalesce(c.source_status, '') = 'closed' OR coalesce(c.closes_at, ${NO_DEADLINE}) <= @now
  OR (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon))`;
// NOT(CLOSED) with the negation pushed inside, its first term a range on the deadline indexes (the
// served deadline is after now exactly when the last one is: see served-deadline.ts). `range: false`
// prefixes it with `+`, which keeps the planner on another index (publication order, where open calls,
// being recent, are found at once).
const notClosed = (range: boolean) => `${range ? '' : '+'}coalesce(c.served_closes_at, ${NO_DEADLINE}) > @now
  AND coalesce(c.closes_at, ${NO_DEADLINE}) > @now
  AND coalesce(c.source_status, '') <> 'closed'
  AND NOT (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon)`;
const FORTHCOMING = `(coalesce(c.opens_at, CASE WHEN c.source_status = 'forthcoming' THEN ${NO_DEADLINE} ELSE 0 END) > @now)`;

function statusSql(status: NonNullable<SearchFilters['status']>, range: boolean): string {
  if (status === 'closed') return CLOSED;
  return `(${notClosed(range)} AND ${status === 'open' ? 'NOT ' : ''}${FORTHCOMING})`;
}

function where(f: SearchFilters, range: boolean): string {
  const parts = ['c.personal_data = 0'];
  if (f.country) parts.push('c.country = @country');
  if (f.source) parts.push('c.source = @source');
  if (f.status) parts.push(statusSql(f.status, range));
  // The day is checked exactly; the instant range around it (a local day lies within UTC-3h..+1d+1h
  // for the sources' zones) lets the deadline index find the window.
  if (f.deadlineFrom)
    parts.push(`c.deadline >= @deadlineFrom AND coalesce(c.served_closes_at, ${NO_DEADLINE}) >= @deadlineFromMs`);
  if (f.deadlineTo)
    parts.push(`c.deadline <= @deadlineTo AND coalesce(c.served_closes_at, ${NO_DEADLINE}) < @deadlineToMs`);
  return parts.join(' AND ');
}

const hasFilters = (f: SearchFilters) => Boolean(f.country || f.source || f.status || f.deadlineFrom || f.deadlineTo);

/** A stored call as the presenter reads it, plus where the row stands in the order it was read in. */
export interface CallRow extends StoredCall {
  seq: number;
  /** The row's order key and the segment it came from: a Position after it is {segment, key: k, id}. */
  k: string | number;
  segment: number;
}

/** The position just after a row. */
export const positionAfter = (row: CallRow): Position => ({ segment: row.segment, key: row.k, id: row.id });

const COLUMNS = `c.seq, c.id, c.source, c.source_id, c.title, c.summary, c.funder, c.programme, c.country, c.region, c.url,
  c.published_on, c.opening_on, c.deadline, c.deadline_time, c.deadline_text, c.cutoffs, c.time_zone, c.opens_at,
  c.closes_at, c.budget, c.currency, c.language, c.source_status, c.bdns_id, c.deadline_source`;

/** One ordered stream of rows; a sort is one or more of them, read in turn. */
interface Segment {
  sql: (keyed: boolean, paged: boolean) => string;
  match: string | null;
}

/** Order key, its direction, and whether the deadline index should drive the filters. */
const ORDERS: Record<Exclude<Sort, 'relevance'>, { key: string; dir: 'ASC' | 'DESC'; range: boolean }> = {
  deadline: { key: `coalesce(c.served_closes_at, ${NO_DEADLINE})`, dir: 'ASC', range: true },
  '-deadline': { key: 'coalesce(c.served_closes_at, 0)', dir: 'DESC', range: true },
  published: { key: "coalesce(c.published_on, '')", dir: 'DESC', range: false },
};

export interface SearchPage {
  rows: CallRow[];
  total: number;
  exact: boolean;
}

/** Statements are kept per SQL text (db/statements.ts): there are few distinct shapes (filters × sort). */
export class FundingSearch {
  private readonly expand: (fts: string) => string;
  private readonly refreshServed: (now: number) => number;
  private readonly facets: ReturnType<typeof facetPlanner>;

  /**
   * A sorted text search with at most `materializeUpTo` matches reads and sorts them; beyond, a region
   * filter alone walks the order's index against a temporary list of its matches (unless `listUpTo` is
   * 0), and text asks the FTS index about each row it walks. A filtered text count looks through at most `countBudget` text
   * matches. (Tests lower these to run every plan on a small corpus.)
   */
  constructor(
    private readonly db: Db,
    private readonly options = { materializeUpTo: TOTAL_CAP, listUpTo: MATERIALIZE_CAP, countBudget: COUNT_BUDGET },
  ) {
    this.expand = prefixExpander(db);
    this.refreshServed = servedDeadlines(db);
    this.facets = facetPlanner(db);
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

  /** The streams a search reads, in order. */
  private segments(f: SearchFilters): Segment[] {
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
    // The plan by selectivity: few matches (counted, up to TOTAL_CAP) are read from the index and
    // sorted; more are found by walking the order's index, checking each row against a temporary list
    // of the matches (a region alone) or asking the FTS index about it (a seek by rowid; text, which
    // may match half the corpus), and the walk stops when the page is full.
    const counted = this.count(f);
    if (counted.exact && counted.total <= this.options.materializeUpTo) {
      return [
        {
          match,
          sql: (keyed, paged) => `SELECT ${COLUMNS}, ${order.key} AS k
        FROM (SELECT rowid AS seq FROM funding_calls_fts WHERE funding_calls_fts MATCH @match) m CROSS JOIN funding_calls c ON c.seq = m.seq
        WHERE ${where(f, order.range)} ${tail(keyed, paged)}`,
        },
      ];
    }
    // A region alone (no q) is a filter of middling size (a region holds a few per cent of the calls):
    // its list is built at once. Text may match half the corpus: it is asked about row by row.
    if (!text.primary && this.options.listUpTo > 0) {
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
    const segments = this.segments(f);
    const rows: CallRow[] = [];
    let skip = after ? 0 : offset;
    for (let s = after ? after.segment : 0; s < segments.length && rows.length < limit; s++) {
      const seg = segments[s]!;
      const keyed = after !== null && after.segment === s;
      const params = {
        ...base,
        match: seg.match,
        limit: limit - rows.length,
        offset: skip,
        k: keyed ? after.key : null,
        id: keyed ? after.id : null,
      };
      const got = this.stmt(seg.sql(keyed, skip > 0)).all(params) as CallRow[];
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

  /** How many rows a segment has, counted up to `cap`. */
  private segmentSize(seg: Segment, base: object, cap: number): number {
    return this.stmt(`SELECT count(*) FROM (${seg.sql(false, false)})`)
      .pluck()
      .get({ ...base, match: seg.match, limit: cap, offset: 0, k: null, id: null }) as number;
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
        return seen > budget
          ? { total: Math.min(found, TOTAL_CAP), exact: false }
          : { total: found, exact: found <= TOTAL_CAP };
      }
      // Only public calls are in the index: no join needed.
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

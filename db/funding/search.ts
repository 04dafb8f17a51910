/**
 * The funding search behind /search and /export (docs/decisions.md "What a search matches"; speed in
 * BENCHMARKS.md): pages of rows and their total. In parts: what a search works from (./search-candidates.ts),
 * how its rows are read (./search-plan.ts), how many there are (./search-count.ts), the SQL pieces
 * (./search-sql.ts).
 *
 * - Text is matched in the stemmed FTS5 index (db/migrations/008_funding_search.sql, then
 *   012_funding_derived_terms.sql) with expressions compiled by lib/funding/search-query.ts (phrases and
 *   title matches as single derived terms); long prefixes are expanded into their terms (./prefix-terms.ts).
 * - Relevance is tiers: calls whose identifiers or title hold the query first (the words as typed before
 *   the glossary's other forms), then the other
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
import { servedDeadlines } from './served-deadline.ts';
import { SearchContext, type SearchOptions } from './search-candidates.ts';
import { countMatches, TOTAL_CAP, type Total } from './search-count.ts';
import { segments, type Segment } from './search-plan.ts';
import { COLUMNS, where, type SearchFilters } from './search-sql.ts';

/** The most text matches a filtered count examines (newest first); beyond, its total is a floor. */
export const COUNT_BUDGET = 10_000;
/** Default of `listUpTo`: the most matches put in a temporary list for a walk (./search-plan.ts). */
const MATERIALIZE_CAP = 100_000;

/** Where a page ended: the segment (relevance tier) and the last row's key. Opaque to clients (routes/funding/filters.ts). */
export interface Position {
  segment: number;
  key: string | number;
  id: string;
}

/** A stored call as the presenter reads it, plus where the row stands in the order it was read in. */
export interface CallRow extends StoredCall {
  seq: number;
  /** When the call entered the corpus (UTC ms). */
  imported_at: number;
  /** The row's order key and the segment it came from: a Position after it is {segment, key: k, id}. */
  k: string | number;
  segment: number;
  /** The query's words this call does not hold (a partial match), as typed; empty for a full match. */
  missing: string[];
}

/** The position just after a row. */
export const positionAfter = (row: CallRow): Position => ({ segment: row.segment, key: row.k, id: row.id });

export interface SearchPage {
  rows: CallRow[];
  total: number;
  exact: boolean;
}

/** Statements are kept per SQL text (db/statements.ts): there are few distinct shapes (filters × sort). */
export class FundingSearch {
  private readonly ctx: SearchContext;
  private readonly refreshServed: (now: number) => number;
  private readonly counted = new WeakMap<SearchFilters, Total>();

  /**
   * A sorted text search with at most `materializeUpTo` matches reads and sorts them; beyond, a region
   * filter alone walks the order's index against a temporary list of its matches (unless `listUpTo` is
   * 0), and text asks the FTS index about each row it walks. A filtered text count looks through at most `countBudget` text
   * matches. (Tests lower these to run every plan on a small corpus.)
   */
  constructor(
    db: Db,
    options: SearchOptions = { materializeUpTo: TOTAL_CAP, listUpTo: MATERIALIZE_CAP, countBudget: COUNT_BUDGET },
  ) {
    this.ctx = new SearchContext(db, options);
    this.refreshServed = servedDeadlines(db);
  }

  /**
   * Up to `limit` rows after `after` (a Position from an earlier page), or, for numbered pages, after
   * skipping `offset` rows from the start.
   */
  rows(f: SearchFilters, limit: number, after: Position | null, offset = 0): CallRow[] {
    const base = this.ctx.params(f);
    const streams = segments(this.ctx, f, limit + (after ? 0 : offset));
    const query = f.text ? this.ctx.query(f) : null;
    // The last tier of full matches (relevance), which can be read from the candidates.
    const lastFull = query && query.tiers.length > 0 ? query.fullTiers - 1 : 0;
    const rows: CallRow[] = [];
    let skip = after ? 0 : offset;
    // Every call of the tiers read so far, while each was read whole on a first page (else null).
    let earlier: Set<number> | null = after ? null : new Set();
    for (let s = after ? after.segment : 0; s < streams.length && rows.length < limit; s++) {
      const seg = streams[s]!;
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
      const last = s > 0 && s === lastFull;
      const got: CallRow[] =
        (last && earlier ? this.lastTierFromCandidates(f, earlier, limit - rows.length) : null) ??
        (this.ctx.stmt(seg.sql(keyed, skip > 0)).all(params) as CallRow[]);
      // A tier of a first page read whole (fewer rows than asked): every call of it that passes.
      if (earlier && !keyed && skip === 0 && got.length < params.limit) for (const r of got) earlier.add(r.seq);
      else earlier = null;
      if (skip > 0) {
        // Numbered pages: rows skipped in this segment count against the offset.
        if (got.length === 0) skip -= this.segmentSize(seg, base, skip);
        else skip = 0;
      }
      const missing = (seg.missing ?? []).map((i) => query!.units[i]!);
      for (const row of got) {
        row.segment = s;
        row.missing = missing;
      }
      rows.push(...got);
    }
    return rows;
  }

  /**
   * The last relevance tier's first rows without another pass over the text: when every text match
   * is known (the candidates, which the count needs anyway) with the filters decided in memory, and the
   * tiers before it were read whole, the last tier is the passing matches they did not hold, newest
   * first; only their rows are read. Null when that is not known: the tier's own SQL runs instead.
   * (A phrase of common words costs 20–60 ms per pass over the index on 1M calls: BENCHMARKS.md.)
   */
  private lastTierFromCandidates(f: SearchFilters, earlier: Set<number>, want: number): CallRow[] | null {
    if (this.ctx.options.memory === false || f.sort !== 'relevance') return null;
    const c = this.ctx.candidates(f);
    if (!c.complete || !c.passing) return null;
    const ids: number[] = [];
    for (const seq of c.passing) {
      if (ids.length === want) break;
      if (!earlier.has(seq)) ids.push(seq);
    }
    if (ids.length === 0) return [];
    return this.ctx
      .stmt(
        `SELECT ${COLUMNS}, c.seq AS k FROM json_each(@ids) j CROSS JOIN funding_calls c ON c.seq = j.value
        WHERE ${where(f, true)} ORDER BY c.seq DESC`,
      )
      .all({ ...this.ctx.params(f), ids: JSON.stringify(ids) }) as CallRow[];
  }

  /** How many rows a segment has, counted up to `cap`. */
  private segmentSize(seg: Segment, base: object, cap: number): number {
    return this.ctx
      .stmt(`SELECT count(*) FROM (${seg.sql(false, false)})`)
      .pluck()
      .get({ ...base, match: seg.match, ids: seg.ids ?? null, limit: cap, offset: 0, k: null, id: null }) as number;
  }

  /** One page of results and the (capped) number of matches. */
  search(f: SearchFilters, limit: number, after: Position | null, offset = 0): SearchPage {
    this.refreshServed(f.now);
    return { rows: this.rows(f, limit, after, offset), ...this.count(f) };
  }

  /** Matches counted up to TOTAL_CAP; once per filters object (a request's plan and its total share it). */
  private count(f: SearchFilters): Total {
    let c = this.counted.get(f);
    if (!c) this.counted.set(f, (c = countMatches(this.ctx, f)));
    return c;
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

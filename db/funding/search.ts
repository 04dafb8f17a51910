/**
 * The SQL behind /search and /export. Measured on a million synthetic calls (BENCHMARKS.md); the
 * shapes below are the ones that kept every query of the benchmark's mix under 30 ms at p95.
 *
 * - Status filters are written so that "not closed yet" is a range on the deadline indexes, which
 *   also carry every column the status rules read: counting open calls never touches a table row.
 * - `total` counts up to TOTAL_CAP. A text query matching at most that many calls is ranked by bm25
 *   (title weighted above summary and body). bm25's per-query pass reads every match, which costs
 *   tens to hundreds of milliseconds for a word found in half the corpus, so a broader query lists
 *   its newest matches instead; `meta.total_exact` (false) says so. docs/decisions.md records this.
 * - Long prefixes are expanded into the terms they cover (./prefix-terms.ts).
 */
import type { Db } from '../connection.ts';
import { undatedHorizon } from '../../lib/funding/status.ts';
import { prefixExpander } from './prefix-terms.ts';

export const TOTAL_CAP = 10_000;
/** The closing instant used to sort calls without a deadline last (9999-12-31T23:59:59.999Z). */
const NO_DEADLINE = 253402300799999;

export type Sort = 'relevance' | 'deadline' | '-deadline' | 'published';

export interface SearchFilters {
  fts: string | null;
  country: string | null;
  status: 'open' | 'forthcoming' | 'closed' | null;
  source: string | null;
  sort: Sort;
  now: number;
}

// The status rules of lib/funding/status.ts, in SQL (the end-to-end tests hold the two to each other).
const CLOSED = `(coalesce(c.source_status, '') = 'closed' OR coalesce(c.closes_at, ${NO_DEADLINE}) <= @now
  OR (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon))`;
// NOT(CLOSED) with the negation pushed inside, so its first term is a range on the deadline index.
// `range: false` prefixes it with `+`, which keeps the planner on another index (the published one,
// where open calls, being recent, are found at once).
const notClosed = (range: boolean) => `${range ? '' : '+'}coalesce(c.closes_at, ${NO_DEADLINE}) > @now
  AND coalesce(c.source_status, '') <> 'closed'
  AND NOT (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon)`;
const FORTHCOMING = `(coalesce(c.opens_at, CASE WHEN c.source_status = 'forthcoming' THEN ${NO_DEADLINE} ELSE 0 END) > @now)`;

function statusSql(status: NonNullable<SearchFilters['status']>, range: boolean): string {
  if (status === 'closed') return CLOSED;
  return `(${notClosed(range)} AND ${status === 'open' ? 'NOT ' : ''}${FORTHCOMING})`;
}

const ORDER_SQL: Record<Exclude<Sort, 'relevance'>, string> = {
  deadline: `coalesce(c.closes_at, ${NO_DEADLINE}), c.id`,
  '-deadline': 'c.closes_at DESC, c.id DESC',
  published: 'c.published_on DESC, c.id',
};

const hasFilters = (f: SearchFilters) => Boolean(f.country || f.source || f.status);

function where(f: SearchFilters, range: boolean): string {
  const parts = ['c.personal_data = 0'];
  if (f.country) parts.push('c.country = @country');
  if (f.source) parts.push('c.source = @source');
  if (f.status) parts.push(statusSql(f.status, range));
  return parts.join(' AND ');
}

export interface CallRow {
  seq: number; id: string; source: string; source_id: string; title: string; summary: string | null;
  funder: string | null; programme: string | null; country: string; region: string | null; url: string | null;
  published_on: string | null; opening_on: string | null; deadline: string | null; deadline_time: string | null;
  deadline_text: string | null; cutoffs: string; time_zone: string; opens_at: number | null; closes_at: number | null;
  budget: number | null; currency: string | null; language: string; source_status: 'open' | 'forthcoming' | 'closed' | null;
  bdns_id: string | null; deadline_source: string | null;
}

const COLUMNS = `c.seq, c.id, c.source, c.source_id, c.title, c.summary, c.funder, c.programme, c.country, c.region, c.url,
  c.published_on, c.opening_on, c.deadline, c.deadline_time, c.deadline_text, c.cutoffs, c.time_zone, c.opens_at,
  c.closes_at, c.budget, c.currency, c.language, c.source_status, c.bdns_id, c.deadline_source`;

export interface SearchPage { rows: CallRow[]; total: number; exact: boolean }

/** Statements are cached per SQL text: there are few distinct shapes (filters × sort). */
export class FundingSearch {
  private readonly statements = new Map<string, ReturnType<Db['prepare']>>();
  private readonly expand: (fts: string) => string;

  constructor(private readonly db: Db) {
    this.expand = prefixExpander(db);
  }

  private stmt(sql: string) {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private bind(f: SearchFilters, fts: string | null) {
    return { fts, country: f.country, source: f.source, now: f.now, undatedHorizon: undatedHorizon(f.now) };
  }

  /** One page of results and the (capped) number of matches. */
  search(f: SearchFilters, limit: number, offset: number): SearchPage {
    const fts = f.fts ? this.expand(f.fts) : null;
    const params = { ...this.bind(f, fts), limit, offset };
    const { total, exact } = this.count(f, fts, params);
    if (!fts) {
      const sort = f.sort === 'relevance' ? 'published' : f.sort;
      const sql = `SELECT ${COLUMNS} FROM funding_calls c WHERE ${where(f, sort !== 'published')}
        ORDER BY ${ORDER_SQL[sort]} LIMIT @limit OFFSET @offset`;
      return { rows: this.stmt(sql).all(params) as CallRow[], total, exact };
    }
    const join = hasFilters(f);
    const matches = `funding_calls_fts f${join ? ' JOIN funding_calls c ON c.seq = f.rowid' : ''}
      WHERE funding_calls_fts MATCH @fts${join ? ` AND ${where(f, true)}` : ''}`;
    let sql: string;
    if (f.sort === 'relevance' && !exact) {
      // Too broad to rank cheaply: the newest matches.
      sql = `WITH hits AS (SELECT f.rowid AS seq FROM ${matches} ORDER BY f.rowid DESC LIMIT @limit OFFSET @offset)
        SELECT ${COLUMNS} FROM hits JOIN funding_calls c ON c.seq = hits.seq ORDER BY c.seq DESC`;
    } else {
      const hits = `SELECT f.rowid AS seq, bm25(funding_calls_fts, 10.0, 3.0, 1.0) AS score FROM ${matches}
        ORDER BY f.rowid DESC LIMIT ${TOTAL_CAP}`;
      sql = f.sort === 'relevance'
        // Rank inside the window, keep the page, then read only its rows.
        ? `WITH hits AS (${hits}), top AS (SELECT seq, score FROM hits ORDER BY score, seq LIMIT @limit OFFSET @offset)
           SELECT ${COLUMNS} FROM top JOIN funding_calls c ON c.seq = top.seq ORDER BY top.score, c.id`
        : `WITH hits AS (${hits}) SELECT ${COLUMNS} FROM hits JOIN funding_calls c ON c.seq = hits.seq
           ORDER BY ${ORDER_SQL[f.sort]} LIMIT @limit OFFSET @offset`;
    }
    return { rows: this.stmt(sql).all(params) as CallRow[], total, exact };
  }

  private count(f: SearchFilters, fts: string | null, params: object): { total: number; exact: boolean } {
    const sql = fts
      ? hasFilters(f)
        // Newest first: filters such as status=open match recent calls, so the cap is reached early.
        ? `SELECT count(*) FROM (SELECT 1 FROM funding_calls_fts f JOIN funding_calls c ON c.seq = f.rowid
             WHERE funding_calls_fts MATCH @fts AND ${where(f, true)} ORDER BY f.rowid DESC LIMIT ${TOTAL_CAP + 1})`
        // Only public calls are in the index: no join needed.
        : `SELECT count(*) FROM (SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH @fts LIMIT ${TOTAL_CAP + 1})`
      : `SELECT count(*) FROM (SELECT 1 FROM funding_calls c WHERE ${where(f, true)} LIMIT ${TOTAL_CAP + 1})`;
    const n = this.stmt(sql).pluck().get(params) as number;
    return n > TOTAL_CAP ? { total: TOTAL_CAP, exact: false } : { total: n, exact: true };
  }

  /** Every match in a stable order, in chunks, for /export: no statement stays open across an await. */
  *chunks(f: SearchFilters, chunkSize = 1000): Generator<CallRow[]> {
    const fts = f.fts ? this.expand(f.fts) : null;
    const sql = fts
      ? `SELECT ${COLUMNS} FROM funding_calls_fts f JOIN funding_calls c ON c.seq = f.rowid
         WHERE funding_calls_fts MATCH @fts AND ${where(f, false)} AND c.seq > @after ORDER BY c.seq LIMIT @limit`
      : `SELECT ${COLUMNS} FROM funding_calls c WHERE ${where(f, false)} AND c.seq > @after ORDER BY c.seq LIMIT @limit`;
    let after = 0;
    for (;;) {
      const rows = this.stmt(sql).all({ ...this.bind(f, fts), after, limit: chunkSize }) as CallRow[];
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.seq;
      if (rows.length < chunkSize) return;
    }
  }
}

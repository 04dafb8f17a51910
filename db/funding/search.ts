/**
 * The SQL behind /search and /export. Filters and sort use indexes; text goes through FTS5.
 *
 * Ranking every match of a common word costs hundreds of milliseconds on a million calls (bm25
 * scores each match), so text queries rank within a bounded candidate set: the RANK_WINDOW most
 * recently imported matches that pass the filters. When a query matches fewer calls than that (most
 * do, and nearly all with filters) the order is exact; beyond it `meta.total_exact` is false and the
 * order covers the newest matches. docs/decisions.md records this and BENCHMARKS.md the cost.
 */
import type { Db } from '../connection.ts';
import { undatedHorizon } from '../../lib/funding/status.ts';

export const RANK_WINDOW = 10_000;
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

// The status rules of lib/funding/status.ts, in SQL (kept equal by tests).
const CLOSED = `(coalesce(c.source_status, '') = 'closed' OR coalesce(c.closes_at, ${NO_DEADLINE}) <= @now
  OR (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon))`;
const FORTHCOMING = `(coalesce(c.opens_at, CASE WHEN c.source_status = 'forthcoming' THEN ${NO_DEADLINE} ELSE 0 END) > @now)`;
const STATUS_SQL = {
  closed: CLOSED,
  forthcoming: `(NOT ${CLOSED} AND ${FORTHCOMING})`,
  open: `(NOT ${CLOSED} AND NOT ${FORTHCOMING})`,
} as const;

const ORDER_SQL: Record<Sort, string> = {
  relevance: 'score, c.id',
  deadline: `coalesce(c.closes_at, ${NO_DEADLINE}), c.id`,
  '-deadline': 'c.closes_at DESC, c.id DESC',
  published: 'c.published_on DESC, c.id',
};

function whereClause(f: SearchFilters): string {
  const parts = ['c.personal_data = 0'];
  if (f.country) parts.push('c.country = @country');
  if (f.source) parts.push('c.source = @source');
  if (f.status) parts.push(STATUS_SQL[f.status]);
  return parts.join(' AND ');
}

function bind(f: SearchFilters) {
  return { fts: f.fts, country: f.country, source: f.source, now: f.now, undatedHorizon: undatedHorizon(f.now) };
}

export interface CallRow {
  seq: number; id: string; source: string; source_id: string; title: string; summary: string | null;
  funder: string | null; programme: string | null; country: string; region: string | null; url: string | null;
  published_on: string | null; opening_on: string | null; deadline: string | null; deadline_time: string | null;
  deadline_text: string | null; cutoffs: string; time_zone: string; opens_at: number | null; closes_at: number | null;
  budget: number | null; currency: string | null; language: string; source_status: 'open' | 'forthcoming' | 'closed' | null;
  bdns_id: string | null;
}

const COLUMNS = `c.seq, c.id, c.source, c.source_id, c.title, c.summary, c.funder, c.programme, c.country, c.region, c.url,
  c.published_on, c.opening_on, c.deadline, c.deadline_time, c.deadline_text, c.cutoffs, c.time_zone, c.opens_at,
  c.closes_at, c.budget, c.currency, c.language, c.source_status, c.bdns_id`;

/** Statements are cached per SQL text: there are few distinct shapes (filters × sort). */
export class FundingSearch {
  private readonly cache = new Map<string, ReturnType<Db['prepare']>>();
  constructor(private readonly db: Db) {}

  private stmt(sql: string) {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  private candidates(f: SearchFilters): string {
    // Newest matches first, filters applied inside, so the window holds only calls that qualify.
    return `SELECT f.rowid AS seq, bm25(funding_calls_fts, 10.0, 3.0, 1.0) AS score
            FROM funding_calls_fts f JOIN funding_calls c ON c.seq = f.rowid
            WHERE funding_calls_fts MATCH @fts AND ${whereClause(f)}
            ORDER BY f.rowid DESC LIMIT ${RANK_WINDOW}`;
  }

  page(f: SearchFilters, limit: number, offset: number): CallRow[] {
    const sql = f.fts
      ? `WITH hits AS (${this.candidates(f)})
         SELECT ${COLUMNS} FROM hits JOIN funding_calls c ON c.seq = hits.seq
         ORDER BY ${ORDER_SQL[f.sort]} LIMIT @limit OFFSET @offset`
      : `SELECT ${COLUMNS} FROM funding_calls c WHERE ${whereClause(f)}
         ORDER BY ${ORDER_SQL[f.sort === 'relevance' ? 'published' : f.sort]} LIMIT @limit OFFSET @offset`;
    return this.stmt(sql).all({ ...bind(f), limit, offset }) as CallRow[];
  }

  /** Counts matches up to TOTAL_CAP (+1 tells that there are more). */
  count(f: SearchFilters): { total: number; exact: boolean } {
    const sql = f.fts
      ? `SELECT count(*) FROM (${this.candidates(f).replace(`LIMIT ${RANK_WINDOW}`, `LIMIT ${TOTAL_CAP + 1}`)})`
      : `SELECT count(*) FROM (SELECT 1 FROM funding_calls c WHERE ${whereClause(f)} LIMIT ${TOTAL_CAP + 1})`;
    const n = this.stmt(sql).pluck().get(bind(f)) as number;
    return n > TOTAL_CAP ? { total: TOTAL_CAP, exact: false } : { total: n, exact: true };
  }

  /** Every match in a stable order, in chunks, for /export: no statement stays open across an await. */
  *chunks(f: SearchFilters, chunkSize = 1000): Generator<CallRow[]> {
    const sql = f.fts
      ? `SELECT ${COLUMNS} FROM funding_calls_fts f JOIN funding_calls c ON c.seq = f.rowid
         WHERE funding_calls_fts MATCH @fts AND ${whereClause(f)} AND c.seq > @after ORDER BY c.seq LIMIT @limit`
      : `SELECT ${COLUMNS} FROM funding_calls c WHERE ${whereClause(f)} AND c.seq > @after ORDER BY c.seq LIMIT @limit`;
    let after = 0;
    for (;;) {
      const rows = this.stmt(sql).all({ ...bind(f), after, limit: chunkSize }) as CallRow[];
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.seq;
      if (rows.length < chunkSize) return;
    }
  }
}

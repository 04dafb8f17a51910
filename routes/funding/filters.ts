/**
 * Turns validated /search and /export parameters into the filters db/funding/search.ts runs, and
 * encodes the opaque paging cursor. Shared by both endpoints so they can never disagree on what a
 * query means.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../lib/http/errors.ts';
import { QueryError, toFtsQuery } from '../../lib/funding/search-query.ts';
import type { SearchFilters, Sort } from '../../db/funding/search.ts';

export interface FilterParams {
  q?: string | undefined;
  country?: string | undefined;
  status?: 'open' | 'forthcoming' | 'closed' | undefined;
  source?: string | undefined;
  sort?: Sort | undefined;
}

export function toFilters(params: FilterParams, now: number): SearchFilters {
  let fts: string | null = null;
  if (params.q !== undefined) {
    try {
      fts = toFtsQuery(params.q);
    } catch (err) {
      if (err instanceof QueryError) throw badRequest(`Invalid query parameter 'q': ${err.message}`, 'q');
      throw err;
    }
  }
  if (params.sort === 'relevance' && fts === null) {
    throw badRequest("Invalid query parameter 'sort': relevance needs q; without q use deadline, -deadline or published.", 'sort');
  }
  return {
    fts,
    country: params.country?.toUpperCase() ?? null,
    status: params.status ?? null,
    source: params.source ?? null,
    sort: params.sort ?? (fts ? 'relevance' : 'published'),
    now,
  };
}

/** A cursor is the next offset, bound to the query it continues (a cursor from another query is refused). */
export function encodeCursor(filters: SearchFilters, offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint(filters) })).toString('base64url');
}

export function decodeCursor(cursor: string, filters: SearchFilters): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
    if (Number.isInteger(parsed.o) && (parsed.o as number) >= 0 && parsed.f === fingerprint(filters)) return parsed.o as number;
  } catch {
    // fall through to the refusal
  }
  throw badRequest("Invalid query parameter 'cursor': it must be a next_cursor from a search with the same q, country, status, source and sort.", 'cursor');
}

function fingerprint(f: SearchFilters): string {
  return createHash('sha256').update(JSON.stringify([f.fts, f.country, f.status, f.source, f.sort])).digest('base64url').slice(0, 12);
}

/**
 * Turns validated /search and /export parameters into the filters db/funding/search.ts runs, and
 * encodes the opaque paging cursor. Shared by both endpoints so they can never disagree on what a
 * query means.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../lib/http/errors.ts';
import { QueryError, toFtsQuery } from '../../lib/funding/search-query.ts';
import type { Position } from '../../db/funding/search.ts';
import type { SearchFilters, Sort } from '../../db/funding/search-sql.ts';
import { isIsoDate } from '../../lib/funding/zoned-time.ts';

export interface FilterParams {
  q?: string | undefined;
  country?: string | undefined;
  region?: string | undefined;
  status?: 'open' | 'forthcoming' | 'closed' | undefined;
  source?: string | undefined;
  deadline_from?: string | undefined;
  deadline_to?: string | undefined;
  sort?: Sort | undefined;
}

function day(name: 'deadline_from' | 'deadline_to', value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isIsoDate(value))
    throw badRequest(`Invalid query parameter '${name}': '${value}' is not a calendar date (YYYY-MM-DD).`, name);
  return value;
}

export function toFilters(params: FilterParams, now: number): SearchFilters {
  let text: SearchFilters['text'];
  try {
    text = toFtsQuery(params.q, params.region);
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    const name = params.q !== undefined && !err.message.startsWith('region') ? 'q' : 'region';
    throw badRequest(`Invalid query parameter '${name}': ${err.message.replace(/^region /, '')}`, name);
  }
  const deadlineFrom = day('deadline_from', params.deadline_from);
  const deadlineTo = day('deadline_to', params.deadline_to);
  if (deadlineFrom && deadlineTo && deadlineFrom > deadlineTo) {
    throw badRequest(
      `Invalid query parameter 'deadline_to': ${deadlineTo} is before deadline_from ${deadlineFrom}.`,
      'deadline_to',
    );
  }
  return {
    text,
    country: params.country?.toUpperCase() ?? null,
    status: params.status ?? null,
    source: params.source ?? null,
    deadlineFrom,
    deadlineTo,
    sort: params.sort ?? (params.q !== undefined ? 'relevance' : 'published'),
    now,
  };
}

/**
 * A cursor is the position after the last call shown (keyset: its segment, order key and id) and the
 * page number it leads to, bound to the query it continues (a cursor from another query is refused).
 */
export function encodeCursor(filters: SearchFilters, position: Position, page: number): string {
  return Buffer.from(
    JSON.stringify({ s: position.segment, k: position.key, i: position.id, p: page, f: fingerprint(filters) }),
  ).toString('base64url');
}

export function decodeCursor(cursor: string, filters: SearchFilters): { position: Position; page: number } {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (
      Number.isInteger(c.s) &&
      (c.s as number) >= 0 &&
      (c.s as number) <= 1 &&
      (typeof c.k === 'string' || typeof c.k === 'number') &&
      typeof c.i === 'string' &&
      Number.isInteger(c.p) &&
      (c.p as number) >= 2 &&
      c.f === fingerprint(filters)
    ) {
      return { position: { segment: c.s as number, key: c.k, id: c.i }, page: c.p as number };
    }
  } catch {
    // fall through to the refusal
  }
  throw badRequest(
    "Invalid query parameter 'cursor': it must be a next_cursor from a search with the same q, region, country, status, source, deadline window and sort.",
    'cursor',
  );
}

function fingerprint(f: SearchFilters): string {
  return createHash('sha256')
    .update(JSON.stringify([f.text?.all ?? null, f.country, f.status, f.source, f.deadlineFrom, f.deadlineTo, f.sort]))
    .digest('base64url')
    .slice(0, 12);
}

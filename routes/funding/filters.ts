/**
 * Turns validated /search and /export parameters into the filters db/funding/search.ts runs, and
 * encodes the opaque paging cursor. Shared by both endpoints so they can never disagree on what a
 * query means.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../../lib/http/errors.ts';
import type { Position } from '../../db/funding/search.ts';
import { MAX_SEGMENTS } from '../../db/funding/search-plan.ts';
import type { SearchFilters } from '../../lib/funding/search-filters.ts';

/** The parameters → filters step lives in lib (saved searches run it too); /search and /export call it from here. */
export { toFilters, type FilterParams } from '../../lib/funding/search-filters.ts';

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
      (c.s as number) < MAX_SEGMENTS &&
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
    "Invalid query parameter 'cursor': it must be a next_cursor from a search with the same q, region, filters and sort.",
    'cursor',
  );
}

function fingerprint(f: SearchFilters): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        f.text ? [f.text.q, f.text.region] : null,
        f.country,
        f.status,
        f.source,
        f.deadlineFrom,
        f.deadlineTo,
        f.sort,
        // Issue 27's filters, only when given: a cursor made before them stays valid for the same search.
        ...(f.applicants || f.budget || f.changedSince !== null ? [f.applicants, f.budget, f.changedSince] : []),
      ]),
    )
    .digest('base64url')
    .slice(0, 12);
}

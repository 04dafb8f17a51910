/**
 * The query of a saved search: a /search query string (or the URL of a search or of the explorer's
 * search page, whose query is taken), checked by the very schema /search validates with and compiled
 * as a search would be, so a saved search is always one the API runs. Paging (per_page, page, cursor)
 * is not part of it. The canonical form lists the parameters in the schema's order.
 */
import * as v from 'valibot';
import { toFilters } from '../../lib/funding/search-filters.ts';
import { badRequest } from '../../lib/http/errors.ts';
import { parseQuery } from '../../lib/validate.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { filterEntries } from './schemas.ts';

const savedQuery = v.object(filterEntries);
export type SavedParams = v.InferOutput<typeof savedQuery>;

export function readSavedQuery(text: string, now: number): { query: string; params: SavedParams } {
  const at = text.indexOf('?');
  // Blank fields (a form sent with some left empty) are no parameter.
  const sent = new URLSearchParams(
    [...new URLSearchParams(at === -1 ? text.trim() : text.slice(at + 1).trim())].filter(([, value]) => value !== ''),
  );
  if ([...sent.keys()].length === 0)
    throw badRequest(
      'A saved search needs a query: the parameters of a search, e.g. q=hidrógeno&status=open.',
      'query',
    );
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of sent) query[name] = name in query ? [query[name] as string, value].flat() : value;
  const url = `/search?${sent.toString()}`;
  let params: SavedParams;
  try {
    params = parseQuery(savedQuery, { query, url } as unknown as ApiRequest);
    toFilters(params, now); // a q or region that cannot be searched, a window backwards: refused now
  } catch (err) {
    if (err instanceof Error && 'status' in err) throw badRequest(`In 'query': ${err.message}`, 'query');
    throw err;
  }
  const canonical = new URLSearchParams();
  for (const name of Object.keys(filterEntries)) {
    const value = sent.get(name);
    if (value !== null) canonical.set(name, value);
  }
  return { query: canonical.toString(), params };
}

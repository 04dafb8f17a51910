/**
 * GET /funding/v1/search: published calls matching text and filters, a page at a time.
 *
 * Rendered pages are kept (routes responses, not rows) until the corpus epoch ends: the next instant
 * any call opens or closes, the next UTC midnight, or the next import (db/funding/corpus-epoch.ts),
 * or sooner if a call on the page shows a cut-off that closes sooner. Within that time the same query
 * has the same answer, so a hit costs what /healthz costs. Validation runs on every request.
 */
import { corpusEpoch, type Epoch } from '../../db/funding/corpus-epoch.ts';
import { positionAfter } from '../../db/funding/search.ts';
import { presentationChangesAt, presentCall } from '../../lib/funding/present.ts';
import { badRequest } from '../../lib/http/errors.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import type { Reply } from '../../lib/http/types.ts';
import { ResponseCache } from '../../lib/response-cache.ts';
import type { AppContext } from '../context.ts';
import { decodeCursor, encodeCursor, toFilters } from './filters.ts';
import { MAX_PAGE, MAX_PER_PAGE, searchQuery } from './schemas.ts';
import { feedOperation, feedReplies, prefersAtom } from './feed.ts';
import { ATOM_TYPE } from '../../lib/funding/atom.ts';
import type { Sort } from '../../lib/funding/search-filters.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type * as v from 'valibot';

/** Deepest offset a search pages to, by page or by cursor; /export (pro) serves whole result sets. */
export const MAX_DEPTH = MAX_PAGE * MAX_PER_PAGE;

// Vary: /search answers Atom to a client that asks for it (routes/funding/feed.ts).
// Bytes, not a string: a hit is written as it is kept, with no UTF-8 encoding or length count per request
// (a 20 KB page: 8 µs a request as a string, BENCHMARKS.md "The cost of one request").
const json = (body: Buffer): Reply => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' },
  body,
});

type SearchParams = v.InferOutput<typeof searchQuery>;

export function searchOperations(ctx: AppContext) {
  const search = ctx.fundingSearch;
  const epochs = corpusEpoch(ctx.db);
  const cache = new ResponseCache<Buffer>({
    sizeOf: (body) => body.length,
    maxEntries: ctx.config.searchCacheEntries,
    maxBytes: 32 * 1024 * 1024,
  });
  let epoch: (Epoch & { from: number }) | undefined;

  /** The epoch that holds at `now`, starting a new one (and emptying the cache) when it has ended. */
  const currentEpoch = (now: number) => {
    if (!epoch || now < epoch.from || now >= epoch.validUntil || epochs.generation() !== epoch.generation) {
      cache.clear();
      epoch = { ...epochs.at(now), from: now };
    }
    return epoch;
  };

  const feed = feedReplies(ctx);

  /** One page of a search: its rows (one more than asked, to know whether there is a next page). */
  const pageOf = (params: SearchParams, now: number, sort?: Sort) => {
    const filters = toFilters(sort && params.sort === undefined ? { ...params, sort } : params, now);
    if (params.cursor !== undefined && params.page !== undefined) {
      throw badRequest("Give either 'page' or 'cursor', not both.", 'cursor');
    }
    const perPage = params.per_page ?? 20;
    const resumed = params.cursor !== undefined ? decodeCursor(params.cursor, filters) : null;
    const pageNo = resumed ? resumed.page : (params.page ?? 1);
    const found = search.search(filters, perPage + 1, resumed?.position ?? null, resumed ? 0 : (pageNo - 1) * perPage);
    return { filters, perPage, pageNo, ...found };
  };

  /** A search as a feed: newest first unless sort is given (routes/funding/feed.ts). */
  const asFeed = (req: ApiRequest, params: SearchParams) => {
    const { rows, perPage } = pageOf(params, req.now, 'published');
    return feed(req, params, rows.slice(0, perPage));
  };

  const searchOp = defineOperation({
    spec: {
      method: 'GET',
      path: '/search',
      operationId: 'searchCalls',
      summary: 'Search published funding calls',
      description:
        "Calls matching q (if given) and every filter. q is stemmed (Spanish and English) and expanded with a bilingual vocabulary (EuroVoc's English and Spanish labels, and a glossary of funding terms), and a word of five letters or more that no call holds finds the words one typo away (two from nine letters); it searches identifiers, title, summary, funder, programme, region and the call text. With sort=relevance, the calls holding every word come first, then those holding most of them (meta.not_matching names the words each lacks). status is computed now, from the deadline in the source's time zone. Records about natural persons are never returned. meta.total counts up to 10,000 (meta.total_exact false beyond). Pages continue with meta.next_cursor (keyset: exact while calls are added or withdrawn) or by page number.",
      query: searchQuery,
      responses: {
        200: {
          description:
            'A page of matching calls (with Accept: application/atom+xml, the page as an Atom feed, as /search.atom)',
          schema: 'SearchResponse',
          alternatives: { [ATOM_TYPE]: { schema: { $ref: '#/components/schemas/AtomFeed' } } },
        },
      },
    },
    handle(req, { query: params }) {
      if (prefersAtom(req.headers.accept)) return asFeed(req, params);
      // Keyed by the query string as sent (the router has validated it; quotas and headers were done by
      // the access stage): a hit skips the search and the rendering.
      const key = req.url.slice(req.url.indexOf('?') + 1 || req.url.length);
      const { validUntil } = currentEpoch(req.now);
      const cached = ctx.config.searchCacheEntries > 0 ? cache.get(key, req.now) : undefined;
      if (cached !== undefined) return json(cached);

      const { filters, perPage, pageNo, rows, total, exact } = pageOf(params, req.now);
      const page = rows.slice(0, perPage);
      const hasMore = rows.length > perPage && pageNo * perPage < MAX_DEPTH;
      const body = Buffer.from(
        JSON.stringify({
          data: page.map((row) => presentCall(row, req.now)),
          meta: {
            total,
            total_exact: exact,
            page: pageNo,
            per_page: perPage,
            next_cursor: hasMore ? encodeCursor(filters, positionAfter(page[page.length - 1]!), pageNo + 1) : null,
            not_matching: Object.fromEntries(page.filter((r) => r.missing.length > 0).map((r) => [r.id, r.missing])),
          },
        }),
      );
      if (ctx.config.searchCacheEntries > 0)
        cache.set(key, body, Math.min(validUntil, ...page.map((row) => presentationChangesAt(row, req.now))));
      return json(body);
    },
  });
  return [searchOp, feedOperation(asFeed)];
}

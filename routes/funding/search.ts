/** GET /funding/v1/search: published calls matching text and filters, a page at a time. */
import { FundingSearch } from '../../db/funding/search.ts';
import { presentCall } from '../../lib/funding/present.ts';
import { badRequest } from '../../lib/http/errors.ts';
import type { Operation } from '../../lib/http/service-router.ts';
import { jsonReply } from '../../lib/http/types.ts';
import { parseQuery } from '../../lib/validate.ts';
import type { AppContext } from '../context.ts';
import { decodeCursor, encodeCursor, toFilters } from './filters.ts';
import { MAX_PAGE, MAX_PER_PAGE, searchQuery } from './schemas.ts';

/** Deepest offset a search pages to, by page or by cursor; /export (pro) serves whole result sets. */
export const MAX_DEPTH = MAX_PAGE * MAX_PER_PAGE;

export function searchOperation(ctx: AppContext): Operation {
  const search = new FundingSearch(ctx.db);
  return {
    spec: {
      method: 'GET',
      path: '/search',
      operationId: 'searchCalls',
      summary: 'Search published funding calls',
      description: 'Calls matching all words of q (if given) and every filter. status is computed now, from the deadline in the source\'s time zone. Records about natural persons are never returned.',
      query: searchQuery,
      responses: { 200: { description: 'A page of matching calls', schema: 'SearchResponse' } },
    },
    handle(req) {
      const params = parseQuery(searchQuery, req);
      const filters = toFilters(params, req.now);
      if (params.cursor !== undefined && params.page !== undefined) {
        throw badRequest("Give either 'page' or 'cursor', not both.", 'cursor');
      }
      const perPage = params.per_page ?? 20;
      const offset = params.cursor !== undefined ? decodeCursor(params.cursor, filters) : ((params.page ?? 1) - 1) * perPage;
      const rows = search.page(filters, perPage + 1, offset);
      const hasMore = rows.length > perPage && offset + perPage < MAX_DEPTH;
      const { total, exact } = search.count(filters);
      return jsonReply(200, {
        data: rows.slice(0, perPage).map((row) => presentCall(row, req.now)),
        meta: {
          total,
          total_exact: exact,
          page: Math.floor(offset / perPage) + 1,
          per_page: perPage,
          next_cursor: hasMore ? encodeCursor(filters, offset + perPage) : null,
        },
      });
    },
  };
}

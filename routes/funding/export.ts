/**
 * GET /funding/v1/export: every call of a search, streamed as NDJSON or CSV; part of the paid plan
 * (pro). Rows are read in chunks between writes, so a slow client holds no statement open and other
 * requests keep being served; the whole export counts as one request.
 */
import type { FundingSearch } from '../../db/funding/search.ts';
import { CSV_COLUMNS, csvLine, csvValue, presentCall } from '../../lib/funding/present.ts';
import { fundingError } from './errors.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { tierOf } from './access.ts';
import { toFilters } from './filters.ts';
import { exportQuery } from './schemas.ts';

export function exportOperation(ctx: AppContext) {
  const search = ctx.fundingSearch;
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/export',
      operationId: 'exportCalls',
      summary: 'Export every call of a search (pro)',
      description:
        'The same filters as /search, every match, streamed in a stable order. For keys of accounts with an active subscription (tier pro); others get 403 subscription_required.',
      query: exportQuery,
      security: [{ apiKey: [] }],
      responses: {
        200: {
          description: 'The calls, one per line (NDJSON) or one per row (CSV)',
          schema: 'Call',
          contentType: 'application/x-ndjson',
          alternatives: { 'text/csv': { schema: { type: 'string' } } },
        },
        403: { description: "The key's account has no active subscription", schema: 'Error' },
      },
    },
    // The plan comes first: a key without a subscription is 403 whatever its parameters.
    before(req) {
      if (tierOf(req) !== 'pro') {
        throw fundingError(
          'subscription_required',
          'Export is part of the paid plan: it needs a key whose account has an active subscription.',
        );
      }
    },
    handle(req, { query: params }) {
      const filters = toFilters(params, req.now);
      const csv = params.format === 'csv';
      return {
        status: 200,
        headers: {
          'content-type': csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
          'content-disposition': `attachment; filename="funding-calls.${csv ? 'csv' : 'ndjson'}"`,
          'cache-control': 'no-store',
        },
        body: stream(search, filters, csv, req),
      };
    },
  });
}

async function* stream(search: FundingSearch, filters: ReturnType<typeof toFilters>, csv: boolean, req: ApiRequest) {
  if (csv) yield csvLine(CSV_COLUMNS);
  for (const rows of search.chunks(filters)) {
    let out = '';
    for (const row of rows) {
      const call = presentCall(row, req.now);
      out += csv ? csvLine(CSV_COLUMNS.map((c) => csvValue(call, c))) : JSON.stringify(call) + '\n';
    }
    yield out;
  }
}

/** GET /funding/v1/sources: the four sources, their licences, the credit each requires, and freshness. */
import { fundingReads } from '../../db/funding/calls.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import { jsonReply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';

export function sourcesOperation(ctx: AppContext) {
  const reads = fundingReads(ctx.db);
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/sources',
      operationId: 'listSources',
      summary: 'The sources of the corpus',
      description:
        'Each source with its licence, the credit that licence requires, its time zone, how many of its records are served, when it was last imported and last synced, and how old its data is.',
      responses: { 200: { description: 'The sources', schema: 'SourcesResponse' } },
    },
    handle() {
      const now = ctx.clock();
      const data = reads.sources().map(({ last_import_ms, last_sync_ms, ...source }) => {
        const asOf = Math.max(last_import_ms ?? 0, last_sync_ms ?? 0);
        return {
          ...source,
          last_import_at: last_import_ms === null ? null : new Date(last_import_ms).toISOString(),
          last_sync_at: last_sync_ms === null ? null : new Date(last_sync_ms).toISOString(),
          data_age_seconds: asOf === 0 ? null : Math.max(0, Math.floor((now - asOf) / 1000)),
        };
      });
      return jsonReply(200, { data });
    },
  });
}

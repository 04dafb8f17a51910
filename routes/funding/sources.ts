/**
 * GET /funding/v1/sources: the four sources, their licences, the credit each requires, and how current
 * their records are. Three dates, never merged into one (issue 34): the day the newest served record
 * was published, when the source was last synced from the publisher, and when a file was last loaded.
 * The age counts from the last sync only: a loaded file says nothing of how current the publisher's
 * side is (the demo's files were loaded today and published in 2025 and 2026).
 */
import { fundingReads } from '../../db/funding/calls.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import { jsonReply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function sourcesOperation(ctx: AppContext) {
  const reads = fundingReads(ctx.db);
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/sources',
      operationId: 'listSources',
      summary: 'The sources of the corpus',
      description:
        'Each source with its licence, the credit that licence requires, its time zone, how many of its records are served, the day its newest served record was published, when it was last synced from its publisher and when a file of it was last imported, and how long ago the last sync was.',
      responses: { 200: { description: 'The sources', schema: 'SourcesResponse' } },
    },
    handle() {
      const now = ctx.clock();
      const data = reads.sources().map(({ last_import_ms, last_sync_ms, newest_published_on, ...source }) => ({
        ...source,
        newest_published_on,
        last_sync_at: iso(last_sync_ms),
        last_import_at: iso(last_import_ms),
        data_age_seconds: last_sync_ms === null ? null : Math.max(0, Math.floor((now - last_sync_ms) / 1000)),
      }));
      return jsonReply(200, { data });
    },
  });
}

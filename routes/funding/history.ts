/** GET /funding/v1/calls/{id}/history: what imports and syncs saw change in a call, oldest first, in words too. */
import { fundingReads } from '../../db/funding/calls.ts';
import { callHistory } from '../../db/funding/history.ts';
import { notFound } from '../../lib/http/errors.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import { jsonReply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { callParams } from './schemas.ts';

export function historyOperation(ctx: AppContext) {
  const reads = fundingReads(ctx.db);
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/calls/:id/history',
      operationId: 'getCallHistory',
      summary: "A call's history of meaningful changes",
      description:
        "Every meaningful change an import or a sync saw in the call, oldest first: a deadline extended or brought forward (or its cut-offs or closing time changed), the opening day moved, the source's status changed or the call withdrawn (closed by its source before its deadline), the budget or the per-grant ceiling raised or cut, the title changed. A value first stated (a detail read after a list entry) is not a change. Each entry says it in words too. first_seen is when the call entered the corpus.",
      params: callParams,
      responses: { 200: { description: "The call's history", schema: 'CallHistory' } },
    },
    handle(_req, { params: { id } }) {
      const row = reads.call(id);
      if (!row) throw notFound(`No published call with id '${id}'.`);
      return jsonReply(200, {
        data: callHistory(ctx.db, id),
        meta: { call_id: id, first_seen: new Date(row.imported_at).toISOString() },
      });
    },
  });
}

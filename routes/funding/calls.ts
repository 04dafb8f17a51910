/** GET /funding/v1/calls/{id}: one published call, with CORDIS projects and BOE notices attached. */
import { fundingReads } from '../../db/funding/calls.ts';
import { callHistory } from '../../db/funding/history.ts';
import { presentCall } from '../../lib/funding/present.ts';
import { notFound } from '../../lib/http/errors.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import { jsonReply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { callParams } from './schemas.ts';

export function callOperation(ctx: AppContext) {
  const reads = fundingReads(ctx.db);
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/calls/:id',
      operationId: 'getCall',
      summary: 'One published call',
      description:
        'A call by id, with the projects CORDIS lists under it (EU topics), the BOE notices about it (its announcement, bases, corrections, modifications, award resolutions), its history of meaningful changes (as /calls/{id}/history) and the credit its sources require.',
      params: callParams,
      responses: { 200: { description: 'The call', schema: 'CallDetail' } },
    },
    handle(req, { params: { id } }) {
      const row = reads.call(id);
      if (!row) throw notFound(`No published call with id '${id}'.`);
      const credits = reads.licences();
      const used = new Set([row.source]);
      const projects = row.source === 'eu' ? reads.projects(row.source_id) : [];
      const notices = reads.notices(row);
      if (projects.length) used.add('cordis');
      if (notices.length) used.add('boe');
      return jsonReply(200, {
        data: {
          ...presentCall(row, req.now),
          projects,
          notices,
          history: callHistory(ctx.db, id),
          attribution: credits
            .filter((c) => used.has(c.code))
            .map((c) => ({ source: c.code, licence: c.licence, credit: c.attribution })),
        },
      });
    },
  });
}

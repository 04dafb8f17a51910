/**
 * In-process callers of the funding API. Funding allowances belong to an account and its plan, not to
 * a key (access.ts), so the explorer's search page (routes/explore/funding-*.ts) can search for a
 * signed-in visitor under their own account's tier without a key: it marks the request object it
 * builds itself with the account's id, and the access stage serves it as that account (tier decided
 * from its plan on this request, counted in the account's bucket, the same headers).
 *
 * Only server code holding the request object can mark it: the mark lives in this WeakMap, never in a
 * header or the query, so nothing a client sends over HTTP can reach this path.
 */
import type { ApiRequest } from '../../lib/http/types.ts';

const marks = new WeakMap<ApiRequest, number>();

export function markInProcessAccount(req: ApiRequest, accountId: number): void {
  marks.set(req, accountId);
}

export const inProcessAccountOf = (req: ApiRequest): number | undefined => marks.get(req);

/**
 * A READ_ONLY node serves a replicated copy of the database (Litestream, LiteFS; docs/scaling.md):
 * reads are served, writes are refused with 503 and a message that says where to send them: the
 * primary's address when the node knows it (PRIMARY_URL), and that it does not otherwise. The services
 * refuse in their own error shapes (serviceRouter, via `readOnlyRefusal`); the console and explorer
 * forms, which have no API error shape, get a plain 503 here. Either way the refusal is marked on the
 * request (`refused: read_only`): never counted against the client, and counted in the metrics.
 */
import { HttpError } from './errors.ts';
import type { ApiRequest, Refusal, Reply } from './types.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isWrite = (req: Pick<ApiRequest, 'originalMethod'>) => !READS.has(req.originalMethod);

export const READ_ONLY_REFUSAL: Refusal = { cause: 'read_only', detail: 'a write sent to a READ_ONLY node' };

export function readOnlyMessage(primaryUrl: string | null): string {
  const where = primaryUrl
    ? `to the primary, ${primaryUrl}`
    : 'to the primary (this node was not told its address: its operator can set PRIMARY_URL)';
  return `This node serves a read-only copy of the database (READ_ONLY): nothing was stored. Send writes (orders, keys, accounts, sign-in) ${where}.`;
}

export const readOnlyRefusal = (node: { primaryUrl: string | null }) =>
  new HttpError(503, 'service_unavailable', readOnlyMessage(node.primaryUrl), {
    'retry-after': '5',
    'x-trio-read-only': '1',
  });

const SERVICES = ['/impact/v1', '/funding/v1', '/human/v1'];

/** Wraps the router of a read-only node: marks every request, answers non-service writes itself. */
export function refuseWritesOutsideServices(fetch: (req: ApiRequest) => unknown, primaryUrl: string | null) {
  const node = { primaryUrl };
  const message = readOnlyMessage(primaryUrl) + '\n';
  return (req: ApiRequest): unknown => {
    req.readOnly = node;
    if (isWrite(req) && !SERVICES.some((base) => req.path === base || req.path.startsWith(`${base}/`))) {
      req.refused = READ_ONLY_REFUSAL;
      return {
        status: 503,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'retry-after': '5',
          'x-trio-read-only': '1',
          'cache-control': 'no-store',
        },
        body: message,
      } satisfies Reply;
    }
    return fetch(req);
  };
}

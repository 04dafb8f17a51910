/**
 * A READ_ONLY node serves a replicated copy of the database (Litestream, LiteFS; docs/scaling.md):
 * reads are served, writes are refused with 503 and a message that names the primary as the place to
 * send them. The services refuse in their own error shapes (serviceRouter, via `readOnlyRefusal`);
 * the console and explorer forms, which have no API error shape, get a plain 503 here.
 */
import { HttpError } from './errors.ts';
import type { ApiRequest, Reply } from './types.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isWrite = (req: Pick<ApiRequest, 'originalMethod'>) => !READS.has(req.originalMethod);

export const READ_ONLY_MESSAGE =
  'This node serves a read-only copy of the database (READ_ONLY): nothing was stored. Send writes (orders, keys, accounts, sign-in) to the primary.';

export const readOnlyRefusal = () =>
  new HttpError(503, 'service_unavailable', READ_ONLY_MESSAGE, { 'retry-after': '5', 'x-trio-read-only': '1' });

const SERVICES = ['/impact/v1', '/funding/v1', '/human/v1'];

/** Wraps the router of a read-only node: marks every request, answers non-service writes itself. */
export function refuseWritesOutsideServices(fetch: (req: ApiRequest) => Promise<unknown>) {
  return async (req: ApiRequest): Promise<unknown> => {
    req.readOnly = true;
    if (isWrite(req) && !SERVICES.some((base) => req.path === base || req.path.startsWith(`${base}/`))) {
      return {
        status: 503,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'retry-after': '5',
          'x-trio-read-only': '1',
          'cache-control': 'no-store',
        },
        body: READ_ONLY_MESSAGE + '\n',
      } satisfies Reply;
    }
    return fetch(req);
  };
}

/**
 * One error class for everything a handler refuses. `code` is a generic machine code
 * (bad_request, not_found, …) or a service's own (revoked_key, quota_exceeded, …); each service's
 * renderer (routes/<service>/errors.ts) turns it into that service's documented body. Anything that is
 * not an HttpError is a fault: logged with the request id, answered with a generic 500 that carries no
 * detail (internal messages never reach a client). A message never carries a key: one a client sent
 * in the wrong place (a path, a parameter) and that a message echoes is cut to its prefix.
 */
import { redactKeys } from '../keys.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The parameter at fault, when there is one. */
    readonly param?: string,
  ) {
    super(redactKeys(message));
  }
}

export const badRequest = (message: string, param?: string) => new HttpError(400, 'bad_request', message, {}, param);
export const notFound = (message = 'No such resource.') => new HttpError(404, 'not_found', message);

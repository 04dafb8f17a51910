/**
 * One error class for everything the edge refuses. `code` is one of a closed union: the shared
 * stages' generic codes (bad_request, not_found, …) or a service's own (revoked_key, quota_exceeded,
 * …; the unions live with each service's rules in lib/<service>/errors.ts); each service's renderer
 * (routes/<service>/errors.ts) turns it into that service's documented body. A service's rules raise
 * DomainErrors (lib/domain-error.ts), not these: its edge maps them to an HttpError in one table.
 * Anything that is neither is a fault: logged with the request id, answered with a generic 500 that
 * carries no detail (internal messages never reach a client). A message never carries a key: one a
 * client sent in the wrong place (a path, a parameter) and that a message echoes is cut to its prefix.
 */
import { redactKeys } from '../keys.ts';
import type { FundingErrorCode } from '../funding/errors.ts';
import type { HumanErrorCode } from '../human/errors.ts';
import type { ImpactErrorCode } from '../impact/errors.ts';

/**
 * The shared stages' codes (validation, routing, the adapter, a database that does not answer), and
 * the HTML pages' (console, explorer). `service_unavailable` and `csrf` are in no contract's list.
 */
export type EdgeErrorCode =
  | 'bad_request'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'internal_error'
  | 'service_unavailable'
  | 'csrf';

export type ErrorCode = EdgeErrorCode | HumanErrorCode | FundingErrorCode | ImpactErrorCode;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The parameter at fault, when there is one. */
    readonly param?: string,
    /** Data the client acts on, rendered beside the code and message where the service's shape allows. */
    readonly details?: Record<string, unknown>,
  ) {
    super(redactKeys(message));
  }
}

export const badRequest = (message: string, param?: string) => new HttpError(400, 'bad_request', message, {}, param);
export const notFound = (message = 'No such resource.') => new HttpError(404, 'not_found', message);

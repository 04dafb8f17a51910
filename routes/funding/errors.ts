/**
 * The funding service at the HTTP edge: every code its API answers with and the status each carries,
 * in one table, and its error body: `{"error": "<stable code>", "message": "<human text>"}`.
 */
import { DomainError } from '../../lib/domain-error.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { jsonReply, type Reply } from '../../lib/http/types.ts';
import type { FundingErrorCode } from '../../lib/funding/errors.ts';

export const FUNDING_STATUS = {
  bad_request: 400,
  invalid_key: 401,
  revoked_key: 401,
  key_required: 401,
  subscription_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  limit_reached: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<FundingErrorCode, number>;

/** A funding refusal, its status from the table. */
export function fundingError(
  code: FundingErrorCode,
  message: string,
  headers: Record<string, string> = {},
  param?: string,
): HttpError {
  return new HttpError(FUNDING_STATUS[code], code, message, headers, param);
}

/** The funding rules' refusals (saved searches: db/funding/saved-searches.ts) at the edge; anything else as it is. */
export function fundingEdgeError(err: unknown): unknown {
  if (err instanceof DomainError && (err.code === 'limit_reached' || err.code === 'not_found'))
    return fundingError(err.code, err.message, {}, err.param);
  return err;
}

export function renderFundingError(err: HttpError): Reply {
  return jsonReply(err.status, { error: err.code, message: err.message }, err.headers);
}

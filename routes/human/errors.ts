/**
 * The human service at the HTTP edge: every code its API answers with, and the status each carries,
 * in one table; the domain refusals of its rules (lib/human/errors.ts) become HttpErrors here, for
 * REST (the service router), MCP tools and the console alike. The error body (SPEC "Errors", human):
 * {"error": {"code", "message"}}. The shared stages raise generic codes (bad_request from
 * lib/validate.ts); they are renamed to this service's.
 */
import { HttpError } from '../../lib/http/errors.ts';
import { jsonReply, type Reply } from '../../lib/http/types.ts';
import { isHumanError, type HumanErrorCode } from '../../lib/human/errors.ts';

export const HUMAN_STATUS = {
  invalid_request: 400,
  idempotency_key_required: 400,
  unauthorized: 401,
  key_revoked: 401,
  insufficient_balance: 402,
  forbidden_scope: 403,
  forbidden_origin: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_state: 409,
  price_above_max: 409,
  idempotency_key_in_flight: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const satisfies Record<HumanErrorCode, number>;

/** Headers a code always carries: a retry that helps soon says when. */
const HUMAN_HEADERS: Partial<Record<HumanErrorCode, Record<string, string>>> = {
  idempotency_key_in_flight: { 'retry-after': '1' },
};

const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer realm="human", error="invalid_token"' };

export function humanHttpError(
  code: HumanErrorCode,
  message: string,
  param?: string,
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(HUMAN_STATUS[code], code, message, { ...HUMAN_HEADERS[code], ...headers }, param);
}

/** A refusal of the service's rules, as the edge answers it; anything else is returned as it is. */
export function humanEdgeError(err: unknown): unknown {
  return isHumanError(err) ? humanHttpError(err.code, err.message, err.param) : err;
}

export const unauthorized = (message: string) => humanHttpError('unauthorized', message, undefined, BEARER_CHALLENGE);
export const keyRevoked = (message: string) => humanHttpError('key_revoked', message, undefined, BEARER_CHALLENGE);
/** A request whose Host or Origin this server does not answer for (the MCP endpoint's DNS-rebinding guard). */
export const forbiddenOrigin = (message: string) => humanHttpError('forbidden_origin', message);

const RENAMED: Partial<Record<HttpError['code'], HumanErrorCode>> = { bad_request: 'invalid_request' };

export function renderHumanError(err: HttpError): Reply {
  return jsonReply(
    err.status,
    { error: { code: RENAMED[err.code] ?? err.code, message: err.message } },
    { 'cache-control': 'no-store', ...err.headers },
  );
}

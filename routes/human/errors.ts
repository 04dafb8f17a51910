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
  no_one_available: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  location_not_served: 422,
  sla_not_served: 422,
  rate_limited: 429,
  internal_error: 500,
} as const satisfies Record<HumanErrorCode, number>;

/** Headers a code always carries: a retry that helps soon says when. */
const HUMAN_HEADERS: Partial<Record<HumanErrorCode, Record<string, string>>> = {
  idempotency_key_in_flight: { 'retry-after': '1' },
};

/**
 * RFC 6750 §3: a request that sent no credential gets the bare challenge (no error code: nothing was
 * wrong with a token it did not send); a key that is not one of ours, revoked or expired gets
 * `invalid_token`; a malformed Authorization header `invalid_request`; a key without the scope
 * `insufficient_scope` naming it (with the 403).
 */
const challenge = (error?: 'invalid_token' | 'invalid_request' | 'insufficient_scope', scope?: string) => ({
  'www-authenticate': `Bearer realm="human"${error ? `, error="${error}"` : ''}${scope ? `, scope="${scope}"` : ''}`,
});

export function humanHttpError(
  code: HumanErrorCode,
  message: string,
  param?: string,
  headers: Record<string, string> = {},
  details?: Record<string, unknown>,
): HttpError {
  return new HttpError(HUMAN_STATUS[code], code, message, { ...HUMAN_HEADERS[code], ...headers }, param, details);
}

/** A refusal of the service's rules, as the edge answers it; anything else is returned as it is. */
export function humanEdgeError(err: unknown): unknown {
  if (!isHumanError(err)) return err;
  const headers = err.code === 'forbidden_scope' && err.param ? challenge('insufficient_scope', err.param) : {};
  return humanHttpError(err.code, err.message, err.param, headers, err.details);
}

/** No key was sent where one is needed. */
export const keyRequired = (message: string) => humanHttpError('unauthorized', message, undefined, challenge());
/** A malformed credential header. */
export const malformedCredential = (message: string) =>
  humanHttpError('unauthorized', message, undefined, challenge('invalid_request'));
export const unauthorized = (message: string) =>
  humanHttpError('unauthorized', message, undefined, challenge('invalid_token'));
export const keyRevoked = (message: string) =>
  humanHttpError('key_revoked', message, undefined, challenge('invalid_token'));
/** A request whose Host or Origin this server does not answer for (the MCP endpoint's DNS-rebinding guard). */
export const forbiddenOrigin = (message: string) => humanHttpError('forbidden_origin', message);

const RENAMED: Partial<Record<HttpError['code'], HumanErrorCode>> = { bad_request: 'invalid_request' };

export function renderHumanError(err: HttpError): Reply {
  return jsonReply(
    err.status,
    { error: { code: RENAMED[err.code] ?? err.code, message: err.message, ...err.details } },
    { 'cache-control': 'no-store', ...err.headers },
  );
}

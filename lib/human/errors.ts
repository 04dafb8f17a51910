/**
 * The human service's refusals, as HttpErrors carrying SPEC's codes ("Errors", human). Service
 * functions (db/human/) throw these whether they are called over REST or MCP: the REST renderer
 * (routes/human/errors.ts) turns them into {"error": {"code", "message"}}, and the MCP tools
 * (routes/human/mcp-tools.ts) turn the same code and message into a tool error.
 */
import { HttpError } from '../http/errors.ts';

export const invalidRequest = (message: string, param?: string) => new HttpError(400, 'invalid_request', message, {}, param);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const invalidState = (message: string) => new HttpError(409, 'invalid_state', message);
export const priceAboveMax = (message: string) => new HttpError(409, 'price_above_max', message);
export const insufficientBalance = (message: string) => new HttpError(402, 'insufficient_balance', message);
export const forbiddenScope = (message: string) => new HttpError(403, 'forbidden_scope', message);
/** A request whose Host or Origin this server does not answer for (the MCP endpoint's DNS-rebinding guard). */
export const forbidden = (message: string) => new HttpError(403, 'forbidden_origin', message);
export const unauthorized = (message: string) =>
  new HttpError(401, 'unauthorized', message, { 'www-authenticate': 'Bearer realm="human", error="invalid_token"' });
export const keyRevoked = (message: string) =>
  new HttpError(401, 'key_revoked', message, { 'www-authenticate': 'Bearer realm="human", error="invalid_token"' });
export const idempotencyKeyRequired = (message: string) => new HttpError(400, 'idempotency_key_required', message, {}, 'Idempotency-Key');
export const idempotencyKeyReused = (message: string) => new HttpError(422, 'idempotency_key_reused', message, {}, 'Idempotency-Key');
export const idempotencyKeyInFlight = (message: string) => new HttpError(409, 'idempotency_key_in_flight', message, { 'retry-after': '1' }, 'Idempotency-Key');

/** The codes this service answers with (the contract's error enum). */
export const HUMAN_ERROR_CODES = [
  'invalid_request', 'unauthorized', 'key_revoked', 'forbidden_scope', 'forbidden_origin', 'not_found', 'method_not_allowed',
  'idempotency_key_required', 'idempotency_key_reused', 'idempotency_key_in_flight', 'price_above_max',
  'insufficient_balance', 'invalid_state', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'internal_error',
] as const;

/**
 * Which error responses each operation of the human contract declares: the ones every operation can
 * give (COMMON: a bad query parameter or key, the rate limit, a fault, a busy database), and each
 * operation's own, from `refusals(...)` with the codes it can answer (issue 26: "each operation's error
 * statuses only those it can return"). Codes sharing a status are described together; the statuses
 * come from the one table in errors.ts.
 */
import { ACCOUNTED_HEADERS } from '../../lib/http/contract-headers.ts';
import type { HumanErrorCode } from '../../lib/human/errors.ts';
import type { ResponseSpec } from '../../lib/openapi.ts';
import { HUMAN_STATUS } from './errors.ts';

const WHY: Partial<Record<HumanErrorCode, string>> = {
  invalid_request:
    'invalid_request: a parameter or field failed validation; the message names it and says what it accepts',
  idempotency_key_required: 'idempotency_key_required: no Idempotency-Key, or not a UUID',
  unauthorized: 'unauthorized: no key where one is needed, or not a key of ours (WWW-Authenticate says which)',
  key_revoked: 'key_revoked: the key was revoked, or rotated and its grace period ended',
  insufficient_balance: 'insufficient_balance: the available balance does not cover the price; nothing was ordered',
  forbidden_scope: 'forbidden_scope: the key lacks tasks:read or tasks:write (WWW-Authenticate names it)',
  forbidden_origin: 'forbidden_origin: a Host or Origin this server does not answer MCP for',
  not_found: "not_found: no such resource for this key (another account's, or the other environment's, is 404 too)",
  invalid_state:
    "invalid_state: the task's state does not allow this (the message says why: a closed dispute window, a task already started)",
  price_above_max: 'price_above_max: the price is above max_price_cents; nothing was held',
  idempotency_key_in_flight:
    'idempotency_key_in_flight: the first order with this key is still being written (Retry-After: 1)',
  no_one_available:
    'no_one_available: a live order where no verified person is available now; nothing was held; error.alternatives lists the nearest cities where someone is',
  payload_too_large: 'payload_too_large: the body is larger than BODY_LIMIT_BYTES',
  unsupported_media_type: 'unsupported_media_type: bodies are application/json',
  idempotency_key_reused: 'idempotency_key_reused: the key was used for a different body in the last 24 hours',
  location_not_served:
    'location_not_served: the capability is not served in that city; nothing was ordered; error.alternatives lists the nearest served cities',
  sla_not_served:
    'sla_not_served: the capability is served there, but not under that SLA; error.alternatives lists other SLAs there and nearby',
  rate_limited: 'rate_limited',
};

const WITH_RETRY_AFTER = [...ACCOUNTED_HEADERS, 'Retry-After'];

/** The error responses of an operation that can answer these codes (beside COMMON's). */
export function refusals(...codes: HumanErrorCode[]): Record<number, ResponseSpec> {
  const byStatus = new Map<number, HumanErrorCode[]>();
  for (const code of codes) {
    const status = HUMAN_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? (status === 400 ? ['invalid_request' as const] : [])), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      {
        description: [...new Set(list)].map((c) => WHY[c] ?? c).join('; or '),
        schema: 'Error',
        ...(status === 409 ? { headers: WITH_RETRY_AFTER } : {}),
      },
    ]),
  );
}

/** What an operation reading a JSON body can also answer. */
export const BODY_REFUSALS: HumanErrorCode[] = ['payload_too_large', 'unsupported_media_type'];

/** Every operation: a bad parameter or key, the limit, a fault, a busy database. */
export function commonRefusals(limits: { key: number; anonymous: number }): Record<number, ResponseSpec> {
  return {
    400: { description: WHY.invalid_request!, schema: 'Error' },
    401: {
      description: `${WHY.unauthorized}; or ${WHY.key_revoked}. A key is checked wherever one is sent, on public operations too.`,
      schema: 'Error',
    },
    429: {
      description: `rate_limited: more than ${limits.key} calls a minute with one key (REST and MCP together), or ${limits.anonymous} from one address without a key`,
      schema: 'Error',
      headers: WITH_RETRY_AFTER,
    },
    500: { description: 'internal_error: a fault on our side, logged with the request id', schema: 'Error' },
    503: {
      description:
        'service_unavailable: the database is busy (another process writing) or unavailable; nothing was stored, retry after Retry-After seconds (an order with the same Idempotency-Key is served once)',
      schema: 'Error',
      headers: WITH_RETRY_AFTER,
    },
  };
}

/**
 * The human service's refusals. HUMAN_ERROR_CODES is every code its API answers with (SPEC "Errors",
 * human; the contract's error enum). The rules (lib/human/, db/human/) raise only the domain codes
 * below, as DomainErrors that know nothing of HTTP; the edge (routes/human/errors.ts) gives each code
 * its status in one table, and raises the rest itself (keys, origin, limits, bodies, routing).
 */
import { DomainError } from '../domain-error.ts';

/** The codes this service answers with (the contract's error enum). */
export const HUMAN_ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'key_revoked',
  'forbidden_scope',
  'forbidden_origin',
  'not_found',
  'method_not_allowed',
  'idempotency_key_required',
  'idempotency_key_reused',
  'idempotency_key_in_flight',
  'price_above_max',
  'insufficient_balance',
  'invalid_state',
  'location_not_served',
  'sla_not_served',
  'no_one_available',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
] as const;

export type HumanErrorCode = (typeof HUMAN_ERROR_CODES)[number];

/** The codes the service's rules raise, whoever calls them (REST, MCP, the console, the CLI). */
export const HUMAN_DOMAIN_CODES = [
  'invalid_request',
  'not_found',
  'forbidden_scope',
  'invalid_state',
  'price_above_max',
  'insufficient_balance',
  'idempotency_key_required',
  'idempotency_key_reused',
  'idempotency_key_in_flight',
  'location_not_served',
  'sla_not_served',
  'no_one_available',
] as const satisfies readonly HumanErrorCode[];

export type HumanDomainCode = (typeof HUMAN_DOMAIN_CODES)[number];

export type HumanError = DomainError<HumanDomainCode>;

const refusal =
  (code: HumanDomainCode, param?: string) =>
  (message: string, at = param, details?: Record<string, unknown>): HumanError =>
    new DomainError(code, message, at, details);

export const invalidRequest: (message: string, param?: string) => HumanError = refusal('invalid_request');
export const notFound = refusal('not_found');
export const invalidState = refusal('invalid_state');
export const priceAboveMax = refusal('price_above_max');
export const insufficientBalance = refusal('insufficient_balance');
export const forbiddenScope = refusal('forbidden_scope');
export const idempotencyKeyRequired = refusal('idempotency_key_required', 'Idempotency-Key');
export const idempotencyKeyReused = refusal('idempotency_key_reused', 'Idempotency-Key');
export const idempotencyKeyInFlight = refusal('idempotency_key_in_flight', 'Idempotency-Key');
/** An order the catalogue does not serve there (or under that SLA), or nobody can take now: with alternatives. */
export const locationNotServed = refusal('location_not_served', 'location');
export const slaNotServed = refusal('sla_not_served', 'sla');
export const noOneAvailable = refusal('no_one_available', 'location');

/** Is this one of the human service's domain refusals? (A DomainError of another service is not.) */
export const isHumanError = (err: unknown): err is HumanError =>
  err instanceof DomainError && (HUMAN_DOMAIN_CODES as readonly string[]).includes(err.code);

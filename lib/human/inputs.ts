/**
 * The valibot schemas of every human-service input (REST bodies and queries; the MCP tools of the next
 * issue take the same objects), and one validator that turns the first problem into a 400
 * invalid_request naming the field. Objects are strict: an unknown field is refused, like an unknown
 * query parameter, rather than silently ignored. No transforms, so the OpenAPI contract generated from
 * these schemas is exactly what is enforced.
 */
import * as v from 'valibot';
import { enumParam, integerParam, stringParam } from '../validate.ts';
import { invalidRequest } from './errors.ts';
import { STATUSES } from './states.ts';

export const countryIso = v.pipe(
  v.string(),
  v.regex(/^[A-Z]{2}$/, 'two upper-case letters (ISO 3166-1 alpha-2), e.g. FR'),
  v.description('ISO 3166-1 alpha-2 country code, upper case.'),
);
export const citySlug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a city slug: lower-case letters, digits and hyphens, e.g. paris'),
  v.description('The city, as GET /coverage names it (e.g. paris, madrid).'),
);
const capabilityId = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'a capability id such as human.verify'),
  v.description('A capability id from GET /capabilities, e.g. human.verify.'),
);
const slaCode = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'an SLA code such as standard or express'),
  v.description('standard (default) or a faster SLA that GET /coverage lists.'),
);

export const LocationInput = v.strictObject({ country_iso: countryIso, city_slug: citySlug });

export const QuoteBody = v.strictObject({
  capability: capabilityId,
  location: LocationInput,
  sla: v.optional(slaCode),
});

export const MAX_PRICE_LIMIT = 10_000_000;

export const OrderBody = v.strictObject({
  capability: capabilityId,
  spec: v.pipe(
    v.record(v.string(), v.unknown(), "an object, as the capability's spec_schema describes"),
    v.description("What to do: an object valid against the capability's spec_schema (GET /capabilities/{capability})."),
  ),
  location: LocationInput,
  sla: v.optional(slaCode),
  max_price_cents: v.pipe(
    v.number(),
    v.integer('a whole number of cents'),
    v.minValue(1, 'at least 1'),
    v.maxValue(MAX_PRICE_LIMIT, `at most ${MAX_PRICE_LIMIT}`),
    v.description(
      'The most you accept to pay, in cents. An order priced above it is refused (409 price_above_max) and nothing is held.',
    ),
  ),
  quote_id: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(400, 'a quote_id from POST /quote'),
      v.description('A quote_id from POST /quote: until the quote expires, the order is charged the quoted price.'),
    ),
  ),
});

export const CANCEL_REASONS = ['no_longer_needed', 'ordered_by_mistake', 'too_slow', 'other'] as const;
export const CancelBody = v.strictObject({
  reason: v.optional(
    v.pipe(v.picklist(CANCEL_REASONS, `one of: ${CANCEL_REASONS.join(', ')}`), v.description('Why (default other).')),
  ),
});

export const DISPUTE_REASONS = [
  'wrong_answer',
  'insufficient_evidence',
  'not_done',
  'wrong_location',
  'other',
] as const;
export const DisputeBody = v.strictObject({
  reason: v.pipe(
    v.picklist(DISPUTE_REASONS, `one of: ${DISPUTE_REASONS.join(', ')}`),
    v.description('What is wrong with the delivery.'),
  ),
  statement: v.pipe(
    v.string(),
    v.minLength(20, 'a statement of 20 to 2000 characters'),
    v.maxLength(2000, 'a statement of 20 to 2000 characters'),
    v.description('What is wrong, in enough words for an operator to judge (20 to 2000 characters).'),
  ),
});

const isoInstant = (what: string) =>
  stringParam({
    max: 40,
    pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/,
    accepts: 'an ISO 8601 instant with a zone, e.g. 2026-11-22T10:00:00Z',
    description: what,
  });

export const ListQuery = v.object({
  status: v.optional(enumParam(STATUSES, 'Only tasks in this status.')),
  capability: v.optional(
    stringParam({
      max: 100,
      pattern: /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/,
      accepts: 'a capability id such as human.verify',
      description: 'Only tasks of this capability.',
    }),
  ),
  created_after: v.optional(isoInstant('Only tasks created at or after this instant.')),
  created_before: v.optional(isoInstant('Only tasks created before this instant.')),
  limit: v.optional(integerParam(1, 100, 'Tasks per page, 1 to 100; default 20.')),
  cursor: v.optional(
    stringParam({
      max: 100,
      pattern: /^[A-Za-z0-9_-]+$/,
      accepts: 'a next_cursor value from an earlier page',
      description: 'Continues a listing: meta.next_cursor of the previous page.',
    }),
  ),
});

/**
 * The same filters as a JSON object (an MCP tool's arguments): `limit` a number. Its output has the
 * shape listTasks takes, like ListQuery's.
 */
export const ListInput = v.strictObject({
  status: v.optional(v.picklist(STATUSES, `one of: ${STATUSES.join(', ')}`)),
  capability: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'a capability id such as human.verify')),
  ),
  created_after: v.optional(v.pipe(v.string(), v.isoTimestamp('an ISO 8601 instant with a zone'))),
  created_before: v.optional(v.pipe(v.string(), v.isoTimestamp('an ISO 8601 instant with a zone'))),
  limit: v.optional(
    v.pipe(
      v.number(),
      v.integer('an integer from 1 to 100'),
      v.minValue(1, 'an integer from 1 to 100'),
      v.maxValue(100, 'an integer from 1 to 100'),
    ),
  ),
  cursor: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'a next_cursor value from an earlier page'))),
});

export const LedgerQuery = v.object({
  limit: v.optional(integerParam(1, 100, 'Entries per page, 1 to 100; default 50.')),
  cursor: v.optional(
    stringParam({
      max: 20,
      pattern: /^[0-9]+$/,
      accepts: 'a next_cursor value from an earlier page',
      description: 'Continues the ledger: meta.next_cursor of the previous page.',
    }),
  ),
});

type AnySchema = v.GenericSchema;

/**
 * Validates an input against a schema; the first problem becomes a 400 invalid_request whose message
 * names the field by its path (location.city_slug) and says what is accepted. `prefix` names where
 * the input sits (spec. for a capability's spec).
 */
/** The validated bodies the service functions take (db/human/): the router and the MCP SDK validate them. */
export type QuoteInput = v.InferOutput<typeof QuoteBody>;
export type OrderInput = v.InferOutput<typeof OrderBody>;
export type CancelInput = v.InferOutput<typeof CancelBody>;
export type DisputeInput = v.InferOutput<typeof DisputeBody>;

export function validateInput<S extends AnySchema>(schema: S, input: unknown, prefix = ''): v.InferOutput<S> {
  if (prefix === '' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw invalidRequest('The body must be a JSON object.');
  }
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const keys = (issue.path ?? []).map((p) => String(p.key));
  const field = prefix + keys.join('.');
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    const accepted = acceptedAt(schema, keys.slice(0, -1));
    throw invalidRequest(`Unknown field '${field}'.${accepted ? ` Accepted: ${accepted}.` : ''}`, field);
  }
  if (issue.received === 'undefined') throw invalidRequest(`Missing required field '${field}'.`, field);
  if (field === '') throw invalidRequest(`Invalid body: ${issue.message}.`);
  throw invalidRequest(
    `Invalid field '${field}': must be ${issue.message.startsWith('Invalid') ? issue.message.replace(/^Invalid \w+: /, '') : issue.message}.`,
    field,
  );
}

/** The field names a strict object accepts at a path, for the "unknown field" message. */
function acceptedAt(schema: AnySchema, path: string[]): string {
  let node: unknown = schema;
  for (const key of path) {
    const entries = (node as { entries?: Record<string, unknown> }).entries;
    node = entries?.[key];
    while (node && (node as { type: string }).type === 'optional') node = (node as { wrapped: unknown }).wrapped;
  }
  const entries = (node as { entries?: Record<string, unknown> } | undefined)?.entries;
  return entries ? Object.keys(entries).join(', ') : '';
}

/**
 * The valibot schemas of every human-service input (REST bodies and queries; the MCP tools of the next
 * issue take the same objects); lib/human/validate-input.ts turns the first problem into a 400
 * invalid_request naming the field. Objects are strict: an unknown field is refused, like an unknown
 * query parameter, rather than silently ignored. No transforms, so the OpenAPI contract generated from
 * these schemas is exactly what is enforced.
 */
import * as v from 'valibot';
import { integerParam, stringParam } from '../validate.ts';
import { STATUSES } from './states.ts';
import { next, type Transport } from './transport.ts';

export const countryIso = v.pipe(
  v.string(),
  v.regex(/^[A-Z]{2}$/, 'two upper-case letters (ISO 3166-1 alpha-2), e.g. FR'),
  v.description('ISO 3166-1 alpha-2 country code, upper case.'),
);

export const MAX_PRICE_LIMIT = 10_000_000;

/** Metadata bounds (Stripe's shape, smaller): string values only, so it filters and echoes as it was sent. */
export const METADATA_MAX_KEYS = 20;
export const METADATA_KEY = /^[A-Za-z0-9_.-]{1,40}$/;
const METADATA_KEY_WORDS = 'a key of 1 to 40 letters, digits, _ . or -';
export const METADATA_MAX_VALUE = 500;

const printable = (max: number, what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(max),
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    v.regex(/^[^\u0000-\u001f\u007f]+$/, `${what} of 1 to ${max} characters, without control characters`),
  );

/**
 * The order and quote inputs with descriptions that name the next call as the transport makes it
 * (issue 36): REST's contract says "GET /coverage", an MCP tool's arguments say get_coverage (an agent
 * cannot call a path). The rules are the same objects either way; only the words differ.
 */
function inputsFor(transport: Transport) {
  const rest = transport === 'rest';
  const citySlug = v.pipe(
    v.string(),
    v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a city slug: lower-case letters, digits and hyphens, e.g. paris'),
    v.description(`The city, as ${next(transport, 'coverage')} names it (e.g. paris, madrid).`),
  );
  const capabilityId = v.pipe(
    v.string(),
    v.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'a capability id such as human.verify'),
    v.description(`A capability id from ${next(transport, 'capabilities')}, e.g. human.verify.`),
  );
  const slaCode = v.pipe(
    v.string(),
    v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'an SLA code such as standard or express'),
    v.description(`standard (default) or a faster SLA that ${next(transport, 'coverage')} lists.`),
  );
  const LocationInput = v.pipe(
    v.strictObject({ country_iso: countryIso, city_slug: citySlug }),
    v.description('Where the task is: a country and a city, as coverage names them (FR, paris).'),
  );
  const QuoteBody = v.strictObject({
    capability: capabilityId,
    location: LocationInput,
    sla: v.optional(slaCode),
  });
  const Metadata = v.pipe(
    v.record(
      v.pipe(v.string(), v.regex(METADATA_KEY, METADATA_KEY_WORDS)),
      v.pipe(v.string(), v.maxLength(METADATA_MAX_VALUE)),
    ),
    v.maxEntries(METADATA_MAX_KEYS),
    v.description(
      `Your own labels for the task, echoed in every answer and webhook: up to ${METADATA_MAX_KEYS} keys (1 to 40 letters, digits, _ . -), each a text of at most ${METADATA_MAX_VALUE} characters. ${next(transport, 'tasks')} filters on one key (${rest ? 'metadata=key:value' : 'its metadata argument'}).`,
    ),
  );
  const clientReference = v.pipe(
    printable(200, 'a text'),
    v.description(
      `Your own id for this order (an order number, a row id), echoed in every answer and webhook, and a ${next(transport, 'tasks')} filter. Not required to be unique: the ${rest ? 'Idempotency-Key' : 'idempotency_key'} is what makes retries safe.`,
    ),
  );
  const OrderBody = v.strictObject({
    capability: capabilityId,
    spec: v.pipe(
      v.record(v.string(), v.unknown(), "an object, as the capability's spec_schema describes"),
      v.description(
        `What to do: an object valid against the capability's spec_schema (${next(transport, 'capability')}).`,
      ),
    ),
    location: LocationInput,
    sla: v.optional(slaCode),
    max_price_cents: v.pipe(
      v.number(),
      v.integer('a whole number of cents'),
      v.minValue(1, 'at least 1'),
      v.maxValue(MAX_PRICE_LIMIT, `at most ${MAX_PRICE_LIMIT}`),
      v.description(
        `The most you accept to pay, in cents. An order priced above it is refused (${rest ? '409 ' : ''}price_above_max) and nothing is held.`,
      ),
    ),
    quote_id: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(400),
        v.regex(/^qt_[A-Za-z0-9_.-]+$/, 'a quote_id from a quote (qt_…)'),
        v.description(
          `A quote_id from ${next(transport, 'quote')}: until the quote expires, the order is charged the quoted price.`,
        ),
      ),
    ),
    metadata: v.optional(Metadata),
    client_reference: v.optional(clientReference),
  });
  return { LocationInput, QuoteBody, Metadata, clientReference, OrderBody };
}

const REST_INPUTS = inputsFor('rest');
export const { LocationInput, QuoteBody, Metadata, clientReference, OrderBody } = REST_INPUTS;
/** The same inputs as the MCP tools advertise them: their texts name tools (quote_task, get_coverage…). */
export const MCP_INPUTS = inputsFor('mcp');

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

const statusList = stringParam({
  max: 200,
  pattern: new RegExp(`^(${STATUSES.join('|')})(,(${STATUSES.join('|')}))*$`),
  accepts: `one status or several separated by commas, each one of: ${STATUSES.join(', ')}`,
  description: 'Only tasks in one of these statuses: one, or several separated by commas (pending,dispatched).',
});
const metadataPair = stringParam({
  max: 541,
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  pattern: /^[A-Za-z0-9_.-]{1,40}:[^\u0000-\u001f\u007f]{0,500}$/,
  accepts: 'key:value, a metadata key (1 to 40 letters, digits, _ . -), a colon and the value it must have',
  description: 'Only tasks whose metadata has this key with this value, written key:value (order_id:1234).',
});
const referenceParam = stringParam({
  max: 200,
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  pattern: /^[^\u0000-\u001f\u007f]+$/,
  accepts: 'a client_reference, 1 to 200 characters without control characters',
  description: 'Only tasks ordered with this client_reference.',
});

export const ListQuery = v.object({
  status: v.optional(statusList),
  capability: v.optional(
    stringParam({
      max: 100,
      pattern: /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/,
      accepts: 'a capability id such as human.verify',
      description: 'Only tasks of this capability.',
    }),
  ),
  client_reference: v.optional(referenceParam),
  metadata: v.optional(metadataPair),
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
  status: v.optional(
    v.pipe(
      v.union([
        v.picklist(STATUSES),
        v.pipe(v.array(v.picklist(STATUSES)), v.minLength(1), v.maxLength(STATUSES.length)),
      ]),
      v.description('Only tasks in this status, or in any of a list of statuses (["pending", "dispatched"]).'),
    ),
  ),
  capability: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'a capability id such as human.verify'),
      v.description('Only tasks of this capability (list_capabilities lists them).'),
    ),
  ),
  client_reference: v.optional(
    v.pipe(clientReference, v.description('Only tasks ordered with this client_reference.')),
  ),
  metadata: v.optional(
    v.pipe(
      v.strictObject({
        key: v.pipe(v.string(), v.regex(METADATA_KEY, METADATA_KEY_WORDS), v.description('A metadata key.')),
        value: v.pipe(v.string(), v.maxLength(METADATA_MAX_VALUE), v.description('The value it must have.')),
      }),
      v.description('Only tasks whose metadata has this key with this value.'),
    ),
  ),
  created_after: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp(),
      v.description('Only tasks created at or after this instant (ISO 8601, with a zone).'),
    ),
  ),
  created_before: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp(),
      v.description('Only tasks created before this instant (ISO 8601, with a zone).'),
    ),
  ),
  limit: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(100),
      v.description('Tasks per page, 1 to 100; default 20.'),
    ),
  ),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'a next_cursor value from an earlier page'),
      v.description('Continues a listing: next_cursor of the previous page.'),
    ),
  ),
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

/** The validated bodies the service functions take (db/human/): the router and the MCP tools validate them. */
export type QuoteInput = v.InferOutput<typeof QuoteBody>;
export type OrderInput = v.InferOutput<typeof OrderBody>;
export type CancelInput = v.InferOutput<typeof CancelBody>;
export type DisputeInput = v.InferOutput<typeof DisputeBody>;

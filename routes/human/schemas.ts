/**
 * Response bodies of the human API, for the OpenAPI contract and the contract tests (which validate
 * real responses against it with an independent validator). Request schemas are the service's own
 * (lib/human/inputs.ts), so what is documented is what is enforced.
 */
import * as v from 'valibot';
import { DISPUTE_REASONS, CANCEL_REASONS } from '../../lib/human/inputs.ts';
import { HUMAN_ERROR_CODES } from '../../lib/human/errors.ts';
import { STATUSES } from '../../lib/human/states.ts';
import { PEOPLE_BANDS } from '../../lib/human/availability.ts';

const int = v.pipe(v.number(), v.integer());
const instant = v.pipe(v.string(), v.isoTimestamp());
const nullableInstant = v.nullable(instant);
const Location = v.object({ country_iso: v.string(), city_slug: v.string() });
const Sla = v.object({ code: v.string(), title: v.string(), hours: int });
const Availability = v.object({
  available_now: v.pipe(
    v.boolean(),
    v.description(
      'Verified people on duty now could take a live order here (else a live order is refused: 409 no_one_available).',
    ),
  ),
  people: v.pipe(v.picklist(PEOPLE_BANDS), v.description('How many are available now, as a band.')),
  accept_within_s: v.pipe(
    int,
    v.description(
      'A live order nobody accepts within this many seconds expires early (expiry.reason not_accepted), its hold released.',
    ),
  ),
});

export const Capability = v.object({
  id: v.string(),
  title: v.string(),
  description: v.string(),
  currency: v.string(),
  spec_schema: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description('JSON Schema (2020-12) of the spec an order carries.'),
  ),
  result_schema: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description('JSON Schema (2020-12) of the answer a delivery carries.'),
  ),
  evidence: v.object({
    min_photos: int,
    documents: v.boolean(),
    media_types: v.array(v.string()),
    max_file_bytes: int,
    max_files: int,
  }),
  slas: v.array(Sla),
  prices: v.array(v.object({ location: Location, city_name: v.string(), sla: v.string(), price_cents: int })),
  live_geographies: v.array(v.object({ country_iso: v.string(), city_slug: v.string(), name: v.string() })),
});
export const CapabilityResponse = v.object({ data: Capability });
export const CapabilityList = v.object({ data: v.array(Capability) });

export const Coverage = v.object({
  data: v.object({
    currency: v.string(),
    slas: v.array(Sla),
    countries: v.array(
      v.object({
        country_iso: v.string(),
        cities: v.array(
          v.object({
            city_slug: v.string(),
            name: v.string(),
            latitude: v.number(),
            longitude: v.number(),
            capabilities: v.array(
              v.object({
                capability: v.string(),
                slas: v.array(v.string()),
                availability: v.pipe(
                  v.array(v.object({ sla: v.string(), ...Availability.entries })),
                  v.description('Per SLA: who is available now, and how long a live order waits to be accepted.'),
                ),
              }),
            ),
          }),
        ),
      }),
    ),
  }),
});

const Alternative = v.object({
  location: Location,
  city_name: v.string(),
  sla: v.string(),
  price_cents: int,
  due_in_s: int,
  distance_km: v.nullable(int),
  available_now: v.boolean(),
  people: v.picklist(PEOPLE_BANDS),
});
export const QuoteResponse = v.object({
  data: v.variant('status', [
    v.object({
      status: v.literal('quoted'),
      capability: v.string(),
      location: Location,
      city_name: v.string(),
      sla: v.string(),
      price_cents: int,
      currency: v.string(),
      due_at: v.pipe(instant, v.description('When the task would be due if ordered now.')),
      due_in_s: int,
      expires_at: v.pipe(instant, v.description('Until then, an order sending quote_id is charged price_cents.')),
      quote_id: v.string(),
      availability: Availability,
      alternatives: v.pipe(
        v.array(Alternative),
        v.description(
          'Empty when someone is available here now; otherwise the nearest served cities where someone is.',
        ),
      ),
    }),
    v.object({
      status: v.literal('refused'),
      capability: v.string(),
      location: Location,
      sla: v.string(),
      reason: v.picklist(['location_not_served', 'sla_not_served']),
      message: v.string(),
      currency: v.string(),
      alternatives: v.array(Alternative),
    }),
  ]),
});

export const Task = v.object({
  ref: v.string(),
  status: v.picklist(STATUSES),
  environment: v.picklist(['sandbox', 'live']),
  capability: v.string(),
  spec: v.record(v.string(), v.unknown()),
  location: Location,
  sla: v.string(),
  price_cents: int,
  max_price_cents: int,
  currency: v.string(),
  created_at: instant,
  updated_at: instant,
  due_at: instant,
  dispatched_at: nullableInstant,
  started_at: nullableInstant,
  delivered_at: nullableInstant,
  dispute_deadline: v.pipe(nullableInstant, v.description('Set on delivery: a dispute is accepted before it.')),
  closed_at: nullableInstant,
  result_available: v.boolean(),
  cancellation: v.nullable(v.object({ reason: v.nullable(v.picklist(CANCEL_REASONS)) })),
  failure: v.nullable(v.object({ reason: v.nullable(v.string()) })),
  expiry: v.pipe(
    v.nullable(v.object({ reason: v.picklist(['not_accepted', 'sla_passed']), message: v.string() })),
    v.description(
      'Set when the task expired: not_accepted (nobody took it by accept_by) or sla_passed (not delivered by due_at).',
    ),
  ),
  accept_by: v.pipe(
    nullableInstant,
    v.description('Live tasks: a task still pending then expires early (not_accepted) and its hold is released.'),
  ),
  dispute: v.nullable(
    v.object({
      reason: v.picklist(DISPUTE_REASONS),
      statement: v.string(),
      opened_at: instant,
      resolution: v.nullable(v.picklist(['answer_stands', 'refunded'])),
      resolution_note: v.nullable(v.string()),
      resolved_at: nullableInstant,
    }),
  ),
  poll_after_s: v.pipe(
    v.nullable(int),
    v.description('Seconds to wait before polling again; null when there is nothing to wait for.'),
  ),
  metadata: v.pipe(v.record(v.string(), v.string()), v.description('Your labels, as sent ({} when none).')),
  client_reference: v.nullable(v.string()),
  links: v.object({ self: v.string(), result: v.string(), evidence: v.string(), events: v.string() }),
});
export const TaskResponse = v.object({ data: Task });
export const TaskList = v.object({
  data: v.array(Task),
  meta: v.object({ limit: int, next_cursor: v.nullable(v.string()) }),
});

export const ResultResponse = v.object({
  data: v.object({
    ref: v.string(),
    status: v.picklist(STATUSES),
    answer: v.pipe(
      v.nullable(v.record(v.string(), v.unknown())),
      v.description("Valid against the capability's result_schema; null until delivered."),
    ),
    confidence_bps: v.pipe(
      v.nullable(int),
      v.description("The person's confidence in the answer, 0 to 10,000 basis points."),
    ),
    delivered_at: nullableInstant,
    poll_after_s: v.nullable(int),
  }),
});

const Position = v.object({
  latitude: v.number(),
  longitude: v.number(),
  accuracy_m: v.nullable(v.number()),
  source: v.nullable(v.picklist(['exif', 'reported', 'synthetic'])),
});
export const EvidenceList = v.object({
  data: v.array(
    v.variant('type', [
      v.object({
        id: v.string(),
        type: v.literal('note'),
        synthetic: v.boolean(),
        created_at: instant,
        text: v.string(),
      }),
      v.object({
        id: v.string(),
        type: v.picklist(['photo', 'document']),
        synthetic: v.boolean(),
        created_at: instant,
        media_type: v.string(),
        sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
        size_bytes: int,
        filename: v.nullable(v.string()),
        captured_at: nullableInstant,
        captured_at_source: v.nullable(v.picklist(['exif', 'upload', 'synthetic'])),
        position: v.nullable(Position),
        download_url: v.string(),
      }),
    ]),
  ),
});

export const BalanceResponse = v.object({
  data: v.object({
    environment: v.picklist(['sandbox', 'live']),
    currency: v.string(),
    available_cents: int,
    held_cents: int,
    open_holds: int,
    note: v.nullable(v.string()),
  }),
});

export const LedgerResponse = v.object({
  data: v.array(
    v.object({
      id: v.string(),
      kind: v.pipe(
        v.picklist(['credit', 'debit', 'hold', 'capture', 'release']),
        v.description(
          "credit: a top-up; debit: money paid back out (a refund or lost dispute of a top-up); hold, capture, release: an order's price held, paid, or given back.",
        ),
      ),
      memo: v.string(),
      task_ref: v.nullable(v.string()),
      created_at: instant,
      available_change_cents: int,
      held_change_cents: int,
      available_after_cents: int,
      held_after_cents: int,
    }),
  ),
  meta: v.object({ limit: int, next_cursor: v.nullable(v.string()) }),
});

export const TaskEventList = v.object({
  data: v.array(
    v.object({
      id: v.pipe(
        v.nullable(v.string()),
        v.description('The webhook event (evt_…); null for changes made before webhooks existed.'),
      ),
      type: v.string(),
      status: v.picklist(STATUSES),
      previous_status: v.nullable(v.picklist(STATUSES)),
      actor: v.picklist(['client', 'person', 'scheduler', 'sandbox', 'operator']),
      at: instant,
    }),
  ),
});

export const ErrorBody = v.object({
  error: v.object({
    code: v.pipe(v.picklist(HUMAN_ERROR_CODES), v.description('Stable: branch on this.')),
    message: v.pipe(v.string(), v.description('Human text; may change.')),
    alternatives: v.optional(
      v.pipe(
        v.array(Alternative),
        v.description('no_one_available, location_not_served, sla_not_served: what could be ordered instead.'),
      ),
    ),
  }),
});

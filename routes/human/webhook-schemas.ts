/** Response bodies of the webhook operations of the human API (the contract; tests validate real answers). */
import * as v from 'valibot';
import { EVENT_TYPES } from '../../lib/webhooks/event-types.ts';
import { next, type Transport } from '../../lib/human/transport.ts';

const instant = v.pipe(v.string(), v.isoTimestamp());

export const Endpoint = v.object({
  id: v.string(),
  url: v.string(),
  description: v.nullable(v.string()),
  event_types: v.array(v.string()),
  environment: v.pipe(
    v.picklist(['sandbox', 'live']),
    v.description("The key's: sandbox endpoints receive sandbox events."),
  ),
  enabled: v.boolean(),
  disabled_reason: v.pipe(
    v.nullable(v.picklist(['by_client', 'gone'])),
    v.description('gone: the receiver answered 410 Gone, so deliveries stopped; enable it again to resume.'),
  ),
  secret_hint: v.pipe(v.string(), v.description('The start of the signing secret, to tell secrets apart.')),
  secret_rotating_until: v.pipe(
    v.nullable(instant),
    v.description('After a rotation: until then deliveries are signed with the old secret too.'),
  ),
  created_at: instant,
  updated_at: instant,
});
export const EndpointResponse = v.object({ data: Endpoint });
export const EndpointWithSecret = v.object({
  data: v.object({
    ...Endpoint.entries,
    secret: v.pipe(
      v.string(),
      v.description('whsec_…: verifies every delivery (README, docs/human.md). Shown this once; store it now.'),
    ),
  }),
});
export const EndpointList = v.object({ data: v.array(Endpoint) });

const Delivery = v.object({
  endpoint: v.string(),
  trigger: v.pipe(v.picklist(['event', 'replay', 'test']), v.description('Why it was sent.')),
  status: v.picklist(['pending', 'succeeded', 'failed']),
  attempts: v.number(),
  next_attempt_at: v.nullable(instant),
  last_attempt_at: v.nullable(instant),
  last_status: v.pipe(
    v.nullable(v.number()),
    v.description('HTTP status of the last attempt; null when none came back.'),
  ),
  last_error: v.nullable(v.string()),
  finished_at: v.nullable(instant),
});

/** An event's fields; its texts name the next call as the transport makes it (a REST path, an MCP tool). */
const eventCoreOf = (transport: Transport) => ({
  id: v.pipe(v.string(), v.description('evt_…: the webhook-id header of every delivery of it.')),
  type: v.pipe(v.picklist(Object.keys(EVENT_TYPES) as [string, ...string[]]), v.description('What happened.')),
  subject: v.pipe(v.string(), v.description("What it is about ('task:tsk_…'): deliveries go in order per subject.")),
  environment: v.picklist(['sandbox', 'live']),
  created_at: instant,
  data: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description(`human.task.*: {task, previous_status}, the task as ${next(transport, 'task')} showed it then.`),
  ),
});
const EventCore = eventCoreOf('rest');
/** An event as the MCP tool list_events gives it. */
export const McpEvent = v.object(eventCoreOf('mcp'));
export const EventList = v.object({
  data: v.array(v.object(EventCore)),
  meta: v.object({ limit: v.number(), next_cursor: v.nullable(v.string()) }),
});
export const EventResponse = v.object({ data: v.object({ ...EventCore, deliveries: v.array(Delivery) }) });

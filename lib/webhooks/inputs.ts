/**
 * What a client sends to register or change a webhook endpoint (REST, the console's form), as valibot
 * schemas; the contract is generated from them. Rules the schemas cannot say (a URL's form, the
 * subscriptions) are checked by `checkEndpointUrl` and `isSubscription`, here too. Pure.
 */
import * as v from 'valibot';
import { isSubscription } from './event-types.ts';

export const MAX_URL_LENGTH = 2048;
export const MAX_ENDPOINTS = 16;

const url = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(MAX_URL_LENGTH),
  v.description(
    'Where to POST the events: an absolute https:// URL (http:// is accepted for sandbox endpoints and for a server on a loopback address), without user name or password.',
  ),
);
const eventTypes = v.pipe(
  v.array(v.pipe(v.string(), v.maxLength(100))),
  v.minLength(1),
  v.maxLength(20),
  v.description(
    "The events this endpoint receives: exact types (human.task.delivered), a namespace ('human.task.*', 'human.*'), or '*' for all (the default). GET /events lists the types sent so far; the contract's webhook section lists them all.",
  ),
);
const description = v.pipe(
  v.string(),
  v.maxLength(200),
  v.description('A note for yourself (what receives it), up to 200 characters.'),
);

export const EndpointBody = v.strictObject({
  url,
  event_types: v.optional(eventTypes),
  description: v.optional(description),
});

export const EndpointChanges = v.strictObject({
  url: v.optional(url),
  event_types: v.optional(eventTypes),
  description: v.optional(v.nullable(description)),
  enabled: v.optional(
    v.pipe(
      v.boolean(),
      v.description('false stops deliveries to this endpoint (they are not queued meanwhile); true resumes them.'),
    ),
  ),
});

export type EndpointInput = v.InferOutput<typeof EndpointBody>;
export type EndpointChangesInput = v.InferOutput<typeof EndpointChanges>;

/** The first subscription entry that is not one, or null. */
export function unknownSubscription(entries: readonly string[]): string | null {
  return entries.find((e) => !isSubscription(e)) ?? null;
}

/**
 * Why a URL cannot be an endpoint, or null. `plainHttp`: whether http:// is accepted (sandbox
 * endpoints, a server on loopback). Whether its address is private is the deliverer's check (DNS).
 */
export function checkEndpointUrl(raw: string, plainHttp: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return 'is not an absolute URL such as https://example.org/hooks/trio';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must start with https://';
  if (parsed.protocol === 'http:' && !plainHttp)
    return 'must start with https:// (a live endpoint receives paid task data; http:// is accepted for sandbox endpoints)';
  if (parsed.username || parsed.password)
    return 'must not carry a user name or password: each delivery is signed instead';
  if (parsed.hash) return 'must not have a #fragment';
  if (!parsed.hostname) return 'has no host';
  return null;
}

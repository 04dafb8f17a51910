/**
 * Webhook event types, the one list every service adds its own to. A type is namespaced
 * `<service>.<resource>.<what>` (lower case, digits and underscores in each part): `human.task.delivered`;
 * issue 27's funding notifications go under `funding.` the same way. An endpoint subscribes to exact
 * types, to a namespace with `<prefix>.*` (`human.*`, `human.task.*`), or to everything with `*`;
 * `webhook.endpoint.test` (the test button) reaches the endpoint it was sent to whatever it subscribes
 * to. Pure.
 */

export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/** Every type an endpoint may subscribe to, with what it reports (shown in the contract and the console). */
export const EVENT_TYPES: Readonly<Record<string, string>> = {
  'human.task.created': 'A task was ordered (pending: waiting for a person to accept it).',
  'human.task.dispatched': 'A verified person accepted the task.',
  'human.task.in_progress': 'The person started the task.',
  'human.task.delivered': 'The answer, confidence and evidence are in; the dispute window is open.',
  'human.task.disputed': 'The client disputed the answer; an operator decides.',
  'human.task.completed': 'The task is done and paid (the dispute window closed, or the answer stood).',
  'human.task.cancelled': 'The client cancelled the task; a live hold was released.',
  'human.task.failed': 'The person could not do it; a live hold was released.',
  'human.task.expired': 'Nobody accepted it in time, or its SLA passed undelivered; a live hold was released.',
  'human.task.refunded': 'A dispute ended in a refund; the hold was released.',
  'funding.saved_search.matched':
    "A call new to the corpus matches one of the account's saved funding searches (once per call and saved search).",
  'webhook.endpoint.test': 'A test event, sent by the test button or POST /webhook_endpoints/{id}/test.',
};

export const TEST_EVENT_TYPE = 'webhook.endpoint.test';

/** A subscription entry: `*`, an exact known type, or a prefix of known types followed by `.*`. */
export function isSubscription(entry: string): boolean {
  if (entry === '*') return true;
  if (entry.endsWith('.*')) {
    const prefix = entry.slice(0, -1);
    return /^[a-z][a-z0-9_.]*\.$/.test(prefix) && Object.keys(EVENT_TYPES).some((t) => t.startsWith(prefix));
  }
  return Object.hasOwn(EVENT_TYPES, entry);
}

/** Whether an endpoint subscribed to `entries` receives `type`. */
export function subscribed(entries: readonly string[], type: string): boolean {
  return entries.some((e) => e === '*' || e === type || (e.endsWith('.*') && type.startsWith(e.slice(0, -1))));
}

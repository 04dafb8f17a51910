/**
 * The task state machine (SPEC "Human task ordering: states and money"), as data. Pure: the database
 * applies a transition as a compare-and-set on the current status (db/human/tasks.ts), so two callers
 * racing for the same task cannot both win; this table says which (state, event) pairs exist at all.
 *
 *   pending ──accept──► dispatched ──start──► in_progress ──deliver──► delivered ──review_elapsed──► completed
 *      │                    │                      │                      │
 *      ├──cancel──► cancelled ◄──cancel───┘        ├──cannot_do──► failed └──dispute──► disputed ──resolve_stands──► completed
 *      └──expire──► expired ◄──expire── (dispatched, in_progress)                          └──resolve_refund──► refunded
 */

export const STATUSES = [
  'pending',
  'dispatched',
  'in_progress',
  'delivered',
  'disputed',
  'completed',
  'cancelled',
  'failed',
  'expired',
  'refunded',
] as const;
export type Status = (typeof STATUSES)[number];

export const TERMINAL: ReadonlySet<Status> = new Set(['completed', 'cancelled', 'failed', 'expired', 'refunded']);

export const EVENTS = [
  'accept',
  'start',
  'deliver',
  'cannot_do',
  'cancel',
  'expire',
  'review_elapsed',
  'dispute',
  'resolve_stands',
  'resolve_refund',
] as const;
export type TaskEvent = (typeof EVENTS)[number];

/** What a transition does to a live task's hold. Sandbox tasks have no hold. */
export type MoneyEffect = 'capture' | 'release' | null;

interface Transition {
  from: readonly Status[];
  to: Status;
}

export const TRANSITIONS: Record<TaskEvent, Transition> = {
  accept: { from: ['pending'], to: 'dispatched' }, // a verified person takes it
  start: { from: ['dispatched'], to: 'in_progress' }, // the person is on it
  deliver: { from: ['in_progress'], to: 'delivered' }, // answer, confidence, evidence
  cannot_do: { from: ['in_progress'], to: 'failed' }, // the person cannot do it
  cancel: { from: ['pending', 'dispatched'], to: 'cancelled' }, // by the client
  expire: { from: ['pending', 'dispatched', 'in_progress'], to: 'expired' }, // the SLA passed undelivered
  review_elapsed: { from: ['delivered'], to: 'completed' }, // the dispute window closed
  dispute: { from: ['delivered'], to: 'disputed' }, // by the client, within the window
  resolve_stands: { from: ['disputed'], to: 'completed' }, // operator: the answer stands
  resolve_refund: { from: ['disputed'], to: 'refunded' }, // operator: refund
};

/** The state an event leads to from `status`, or null when the event is not allowed there. */
export function nextStatus(status: Status, event: TaskEvent): Status | null {
  const t = TRANSITIONS[event];
  return t.from.includes(status) ? t.to : null;
}

/** Capture on completion; release on every other terminal state; nothing otherwise. */
export function moneyEffect(to: Status): MoneyEffect {
  if (to === 'completed') return 'capture';
  if (to === 'cancelled' || to === 'failed' || to === 'expired' || to === 'refunded') return 'release';
  return null;
}

/** The answer exists from delivery on (a refunded task keeps the answer it was refunded for). */
export const hasAnswer = (status: Status) =>
  status === 'delivered' || status === 'disputed' || status === 'completed' || status === 'refunded';

/** How long a client has to dispute a delivered live answer (SPEC: within 72 hours). */
export const DISPUTE_WINDOW_MS = 72 * 3_600_000;

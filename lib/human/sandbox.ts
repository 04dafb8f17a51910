/**
 * Sandbox (ho_test_) tasks: the same state machine as live ones, driven by the scheduler instead of
 * people, with synthetic evidence, no ledger row and nobody contacted. A magic value in the spec picks
 * the branch, so a client can rehearse every outcome (documented in docs/human.md). Pure: given a
 * task's plan, status and times, says which event is due next and when.
 *
 * Every wait is one SANDBOX_DELAY_MS ("d"): dispatched at d, started at 2d, delivered or failed at 3d
 * after the order (a fixed timeline from created_at, so a task catches up where it should be after
 * the server was down); the review window after delivery is REVIEW_DELAYS × d; a dispute is resolved
 * d after it was opened.
 */
import type { Status, TaskEvent } from './states.ts';

export const SANDBOX_PLANS = [
  'deliver', // default: delivered with a confident answer, completed when the review window closes
  'low_confidence', // delivered with confidence 3,000 bps and an inconclusive answer
  'fail', // the person "cannot do it": in_progress → failed
  'expire', // nobody takes it: pending → expired after one delay (its due time is one delay)
  'stay_pending', // stays pending until its SLA passes: to rehearse cancel
  'stay_dispatched', // dispatched, then stays so until its SLA passes: to rehearse cancel after dispatch
  'dispute_refund', // delivered; a dispute is resolved as refunded (any other plan: the answer stands)
  'not_accepted', // nobody accepts it: pending → expired (not_accepted) at its acceptance bound, two delays
  'no_one_available', // refused at the order (409 no_one_available, with alternatives), as a live order where nobody is on duty
] as const;
export type SandboxPlan = (typeof SANDBOX_PLANS)[number];

export const MAGIC_PREFIX = 'sandbox:';
/** Review window of a delivered sandbox task, in delays. */
export const REVIEW_DELAYS = 10;
export const SANDBOX_CONFIDENCE = { normal: 9_500, low: 3_000 } as const;

/**
 * The plan a spec asks for: the first top-level string of the spec that is exactly `sandbox:<plan>`.
 * Anything else (including an unknown `sandbox:…`) runs the default plan; live tasks ignore magic.
 */
export function planOf(spec: Record<string, unknown>): SandboxPlan {
  for (const value of Object.values(spec)) {
    if (typeof value === 'string' && value.startsWith(MAGIC_PREFIX)) {
      const plan = value.slice(MAGIC_PREFIX.length);
      if ((SANDBOX_PLANS as readonly string[]).includes(plan)) return plan as SandboxPlan;
    }
  }
  return 'deliver';
}

export interface SandboxTimes {
  created_at: number;
  /** Set for the not_accepted plan only (two delays after the order). */
  accept_by: number | null;
  due_at: number;
  dispatched_at: number | null;
  started_at: number | null;
  delivered_at: number | null;
  dispute_deadline: number | null;
  disputed_at: number | null;
}

export interface DueStep {
  event: TaskEvent;
  at: number;
}

/**
 * The next event the scheduler applies to a sandbox task, or null when it waits for the client (or is
 * done). Expiry by the SLA is handled like for live tasks (the scheduler checks due_at first).
 */
export function nextSandboxStep(plan: SandboxPlan, status: Status, t: SandboxTimes, delayMs: number): DueStep | null {
  switch (status) {
    case 'pending':
      if (plan === 'stay_pending') return { event: 'expire', at: t.due_at };
      if (plan === 'expire') return { event: 'expire', at: t.due_at };
      if (plan === 'not_accepted') return { event: 'expire', at: t.accept_by ?? t.due_at };
      return { event: 'accept', at: t.created_at + delayMs };
    case 'dispatched':
      if (plan === 'stay_dispatched') return { event: 'expire', at: t.due_at };
      return { event: 'start', at: t.created_at + 2 * delayMs };
    case 'in_progress':
      return { event: plan === 'fail' ? 'cannot_do' : 'deliver', at: t.created_at + 3 * delayMs };
    case 'delivered':
      return {
        event: 'review_elapsed',
        at: t.dispute_deadline ?? (t.delivered_at ?? t.created_at) + REVIEW_DELAYS * delayMs,
      };
    case 'disputed':
      return {
        event: plan === 'dispute_refund' ? 'resolve_refund' : 'resolve_stands',
        at: (t.disputed_at ?? t.created_at) + delayMs,
      };
    default:
      return null;
  }
}

/** The acceptance bound of a sandbox order: two delays for the 'not_accepted' plan; the others are accepted at one. */
export function sandboxAcceptBy(plan: SandboxPlan, createdAt: number, delayMs: number): number | null {
  return plan === 'not_accepted' ? createdAt + 2 * delayMs : null;
}

/** The due time a sandbox order gets: one delay for the 'expire' plan, the SLA otherwise. */
export function sandboxDueAt(plan: SandboxPlan, createdAt: number, slaMs: number, delayMs: number): number {
  return plan === 'expire' ? createdAt + delayMs : createdAt + slaMs;
}

/**
 * When the scheduler must next look at a task (stored as `next_check_at`, indexed), and what it does
 * then. Pure. Because the due time lives in the row, a restart loses nothing: the scheduler's first
 * pass after start picks up whatever fell due while the process was down, step by step.
 *
 * Live tasks: pending, the earlier of the acceptance bound (accept_by: nobody took it, expire) and the
 * SLA's due time; dispatched or in progress, the due time (expire); delivered, the end of the dispute
 * window (complete); disputed, nothing (an operator decides). Sandbox tasks: the earlier of the due
 * time and their plan's next step (lib/human/sandbox.ts).
 */
import { nextSandboxStep, type SandboxPlan, type SandboxTimes } from './sandbox.ts';
import { TERMINAL, type Status, type TaskEvent } from './states.ts';

export interface ScheduledTask extends SandboxTimes {
  environment: 'test' | 'live';
  status: Status;
  sandbox_plan: SandboxPlan | null;
}

const BEFORE_DELIVERY: ReadonlySet<Status> = new Set(['pending', 'dispatched', 'in_progress']);

/** When a task that has not been delivered expires: its acceptance bound while pending, else its due time. */
function expiresAt(task: ScheduledTask): number {
  return task.status === 'pending' && task.accept_by !== null ? Math.min(task.accept_by, task.due_at) : task.due_at;
}

/** Why an expiring task expires: nobody accepted it in time, or its SLA passed undelivered. */
export function expiryReason(task: ScheduledTask, now: number): 'not_accepted' | 'sla_passed' {
  return task.status === 'pending' && task.accept_by !== null && task.accept_by <= now && task.accept_by < task.due_at
    ? 'not_accepted'
    : 'sla_passed';
}

/** The event due for the task at or before `now`, if any. Expiry wins over a sandbox step due later. */
export function dueEvent(task: ScheduledTask, now: number, delayMs: number): TaskEvent | null {
  if (TERMINAL.has(task.status)) return null;
  if (BEFORE_DELIVERY.has(task.status) && expiresAt(task) <= now) {
    // A sandbox step due before the deadline still happens first (the task was on time).
    const step = task.environment === 'test' ? nextSandboxStep(task.sandbox_plan!, task.status, task, delayMs) : null;
    if (step && step.event !== 'expire' && step.at < expiresAt(task)) return step.event;
    return 'expire';
  }
  if (task.environment === 'live') {
    return task.status === 'delivered' && task.dispute_deadline !== null && task.dispute_deadline <= now
      ? 'review_elapsed'
      : null;
  }
  const step = nextSandboxStep(task.sandbox_plan!, task.status, task, delayMs);
  return step && step.at <= now ? step.event : null;
}

export function nextCheckAt(task: ScheduledTask, delayMs: number): number | null {
  if (TERMINAL.has(task.status)) return null;
  const deadline = BEFORE_DELIVERY.has(task.status) ? expiresAt(task) : null;
  if (task.environment === 'live') {
    if (deadline !== null) return deadline;
    return task.status === 'delivered' ? task.dispute_deadline : null;
  }
  const step = nextSandboxStep(task.sandbox_plan!, task.status, task, delayMs);
  const candidates = [deadline, step?.at ?? null].filter((t): t is number => t !== null);
  return candidates.length ? Math.min(...candidates) : null;
}

/**
 * What a client does to a task after ordering it (cancel, dispute), and how an operator settles a
 * dispute. Each is a compare-and-set transition (db/human/tasks.ts) run on the group-commit writer,
 * re-reading the task inside the transaction, so it acts on the task as it is at commit, not as it
 * was when the request arrived.
 */
import type { Db } from '../connection.ts';
import { taskById, taskByRef, transition, type TaskRow } from './tasks.ts';
import { invalidState, notFound } from '../../lib/human/errors.ts';
import type { CancelInput, DisputeInput } from '../../lib/human/inputs.ts';
import { presentTask } from '../../lib/human/present.ts';
import { next } from '../../lib/human/transport.ts';
import { requireScope, type HumanCaller, type HumanService } from './service.ts';
import { findOwnTask } from './tasks-read.ts';

/** POST /tasks/{ref}/cancel: pending or dispatched → cancelled; a live hold is released in full. */
export async function cancelTask(
  svc: HumanService,
  caller: HumanCaller,
  ref: string,
  input: CancelInput | undefined,
  now: number,
) {
  requireScope(caller, 'tasks:write', 'cancelling a task');
  const task = findOwnTask(svc, caller, ref);
  const after = await svc.writer.submit(() =>
    transition(svc.db, fresh(svc.db, task), 'cancel', {
      now,
      actor: 'client',
      delayMs: svc.config.sandboxDelayMs,
      set: { cancel_reason: input?.reason ?? 'other' },
    }),
  );
  return presentTask(after, now);
}

/** POST /tasks/{ref}/dispute: delivered → disputed, before the dispute deadline; the hold stays open. */
export async function disputeTask(
  svc: HumanService,
  caller: HumanCaller,
  ref: string,
  input: DisputeInput,
  now: number,
) {
  requireScope(caller, 'tasks:write', 'disputing a task');
  const task = findOwnTask(svc, caller, ref);
  const after = await svc.writer.submit(() => {
    const current = fresh(svc.db, task);
    // A late dispute is told about the window, whether or not the task has completed since it closed.
    if (
      (current.status === 'delivered' || current.status === 'completed') &&
      current.dispute_deadline !== null &&
      current.dispute_deadline <= now
    ) {
      throw invalidState(
        `The dispute window of ${ref} closed at ${new Date(current.dispute_deadline).toISOString()} (disputes are accepted until the task's dispute_deadline, ${current.environment === 'live' ? '72 hours' : 'ten sandbox delays'} after delivery); the answer stands and the task is ${current.status === 'completed' ? 'completed and paid' : 'being completed'}.`,
        'dispute_deadline',
      );
    }
    if (current.status === 'disputed')
      throw invalidState(
        `Task ${ref} is disputed already; an operator decides. ${next(caller.transport, 'task')} shows the resolution.`,
      );
    if (current.status !== 'delivered')
      throw invalidState(
        `Task ${ref} is ${current.status}: only a delivered answer can be disputed${current.delivered_at === null ? ', and this task has none yet' : ''}.`,
      );
    return transition(svc.db, current, 'dispute', {
      now,
      actor: 'client',
      delayMs: svc.config.sandboxDelayMs,
      set: { dispute_reason: input.reason, dispute_statement: input.statement },
    });
  });
  return presentTask(after, now);
}

export type Outcome = 'stands' | 'refund';

/**
 * An operator's decision on a disputed task (`dispute resolve`): the answer stands (completed, the
 * hold is captured) or the client is refunded (refunded, the hold is released). Synchronous, for the
 * CLI's own connection; the caller wraps it in an immediate transaction.
 */
export function resolveDispute(
  db: Db,
  ref: string,
  outcome: Outcome,
  note: string | null,
  now: number,
  delayMs: number,
): TaskRow {
  const task = taskByRef(db, ref);
  if (!task) throw notFound(`No task ${ref}.`);
  if (task.status !== 'disputed')
    throw invalidState(`Task ${ref} is ${task.status}, not disputed: there is nothing to resolve.`);
  return transition(db, task, outcome === 'stands' ? 'resolve_stands' : 'resolve_refund', {
    now,
    actor: 'operator',
    delayMs,
    set: { resolution: outcome === 'stands' ? 'answer_stands' : 'refunded', resolution_note: note },
  });
}

/** The task as it is inside the current transaction. */
export function fresh(db: Db, task: TaskRow): TaskRow {
  return taskById(db, task.id)!;
}

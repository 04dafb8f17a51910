/**
 * Tasks: insert, read (always scoped to an owner and environment for clients), list with a keyset
 * cursor, and transitions. A transition is a compare-and-set: the UPDATE's WHERE names the status and
 * version the caller read, so of two racing callers exactly one changes the row and the other gets an
 * invalid_state refusal (a DomainError; routes/human/errors.ts answers it 409). The hold is captured or
 * released in the same transaction as the status change, and so is the webhook event that reports it
 * (db/webhooks/events.ts emitEvent: `human.task.<status>`, `human.task.created` for the order), whose
 * id the task's history row keeps (GET /tasks/{ref}/events).
 * Every function runs inside the caller's transaction.
 */
import type { Db } from '../connection.ts';
import { preparedSql, rowsAsObjects, statementsFor } from '../statements.ts';
import { captureHold, releaseHold } from './ledger.ts';
import { emitEvent } from '../webhooks/events.ts';
import { mailDisputeOutcome, mailOffer, withdrawOffer } from './offer-mail.ts';
import { presentTask } from '../../lib/human/present.ts';
import { invalidState } from '../../lib/human/errors.ts';
import { expiryReason, nextCheckAt } from '../../lib/human/schedule.ts';
import {
  DISPUTE_WINDOW_MS,
  moneyEffect,
  nextStatus,
  TERMINAL,
  TRANSITIONS,
  type Status,
  type TaskEvent,
} from '../../lib/human/states.ts';
import { REVIEW_DELAYS } from '../../lib/human/sandbox.ts';
import type { TaskRow } from '../../lib/human/rows.ts';
import type { ResultRow } from '../../lib/human/present.ts';

export type { TaskRow };

export type NewTask = Pick<
  TaskRow,
  | 'ref'
  | 'account_id'
  | 'key_id'
  | 'environment'
  | 'capability'
  | 'spec'
  | 'country_iso'
  | 'city_slug'
  | 'sla'
  | 'price_cents'
  | 'max_price_cents'
  | 'currency'
  | 'sandbox_plan'
  | 'created_at'
  | 'due_at'
  | 'accept_by'
  | 'metadata'
  | 'client_reference'
>;

/** Columns a transition may set besides the ones it always sets. */
export type TransitionFields = Partial<
  Pick<
    TaskRow,
    | 'worker_account_id'
    | 'answer'
    | 'confidence_bps'
    | 'cancel_reason'
    | 'failure_reason'
    | 'dispute_reason'
    | 'dispute_statement'
    | 'resolution'
    | 'resolution_note'
  >
>;

const statements = statementsFor((db) => ({
  insert:
    db.prepare(`INSERT INTO human_tasks (ref, account_id, key_id, environment, capability, spec, country_iso, city_slug, sla,
        price_cents, max_price_cents, currency, status, sandbox_plan, created_at, updated_at, due_at, next_check_at,
        accept_by, metadata, client_reference)
      VALUES (@ref, @account_id, @key_id, @environment, @capability, @spec, @country_iso, @city_slug, @sla,
        @price_cents, @max_price_cents, @currency, 'pending', @sandbox_plan, @created_at, @created_at, @due_at, @next_check_at,
        @accept_by, @metadata, @client_reference)`),
  byId: db.prepare('SELECT * FROM human_tasks WHERE id = ?'),
  byRef: db.prepare('SELECT * FROM human_tasks WHERE ref = ?'),
  // Read on every task request: rows built from arrays (db/statements.ts rowsAsObjects, 4 µs less a read).
  own: rowsAsObjects<TaskRow>(
    db.prepare('SELECT * FROM human_tasks WHERE ref = ? AND account_id = ? AND environment = ?'),
  ),
  // A result needs 7 of the 36 columns (the poll clients repeat most: issue 29).
  ownResult: db.prepare(`SELECT ref, status, answer, confidence_bps, delivered_at, next_check_at, environment
    FROM human_tasks WHERE ref = ? AND account_id = ? AND environment = ?`),
  event: db.prepare(
    'INSERT INTO human_task_events (task_id, event, from_status, to_status, actor, at, event_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ),
  events: db.prepare(
    'SELECT event, from_status, to_status, actor, at, event_id FROM human_task_events WHERE task_id = ? ORDER BY id',
  ),
  list: db.prepare(`SELECT * FROM human_tasks WHERE account_id = @account AND environment = @environment
        AND (@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses)))
        AND (@capability IS NULL OR capability = @capability)
        AND (@reference IS NULL OR client_reference = @reference)
        AND (@metaPath IS NULL OR json_extract(metadata, @metaPath) = @metaValue)
        AND (@from IS NULL OR created_at >= @from) AND (@to IS NULL OR created_at < @to)
        AND (@cursorAt IS NULL OR created_at < @cursorAt OR (created_at = @cursorAt AND id < @cursorId))
      ORDER BY created_at DESC, id DESC LIMIT @limit`),
  due: db.prepare(
    'SELECT * FROM human_tasks WHERE next_check_at IS NOT NULL AND next_check_at <= ? ORDER BY next_check_at LIMIT ?',
  ),
}));

export function insertTask(db: Db, task: NewTask, delayMs: number): TaskRow {
  const s = statements(db);
  const draft = {
    ...task,
    expiry_reason: null,
    status: 'pending' as Status,
    dispatched_at: null,
    started_at: null,
    delivered_at: null,
    dispute_deadline: null,
    disputed_at: null,
  };
  const next = nextCheckAt(draft, delayMs);
  const id = Number(s.insert.run({ ...task, next_check_at: next }).lastInsertRowid);
  // The row as inserted, built here rather than read back (reading 35 columns costs as much as the insert).
  const row: TaskRow = {
    ...draft,
    id,
    version: 1,
    worker_account_id: null,
    updated_at: task.created_at,
    closed_at: null,
    answer: null,
    confidence_bps: null,
    cancel_reason: null,
    failure_reason: null,
    dispute_reason: null,
    dispute_statement: null,
    resolution: null,
    resolution_note: null,
    resolved_at: null,
    next_check_at: next,
  };
  const { id: eventId } = report(db, row, null, task.created_at);
  s.event.run(id, 'order', null, 'pending', 'client', task.created_at, eventId);
  mailOffer(db, row, task.created_at);
  return row;
}

/** The webhook event of a task reaching its state (db/webhooks/events.ts), in the caller's transaction. */
function report(db: Db, task: TaskRow, previous: Status | null, now: number) {
  return emitEvent(db, {
    accountId: task.account_id,
    environment: task.environment,
    type: `human.task.${task.status === 'pending' ? 'created' : task.status}`,
    subject: `task:${task.ref}`,
    data: { task: presentTask(task, now), previous_status: previous },
    now,
  });
}

export const taskById = (db: Db, id: number) => statements(db).byId.get(id) as TaskRow | undefined;
export const taskByRef = (db: Db, ref: string) => statements(db).byRef.get(ref) as TaskRow | undefined;

/** A client's view: another account's task, or one of the other environment, does not exist. */
export const ownTask = (db: Db, ref: string, accountId: number, environment: 'test' | 'live') =>
  statements(db).own.get(ref, accountId, environment);

/** The columns of a client's task that its result shows (presentResult). */
export const ownTaskResult = (db: Db, ref: string, accountId: number, environment: 'test' | 'live') =>
  statements(db).ownResult.get(ref, accountId, environment) as ResultRow | undefined;

export const taskEvents = (db: Db, taskId: number) =>
  statements(db).events.all(taskId) as Array<{
    event: string;
    from_status: Status | null;
    to_status: Status;
    actor: string;
    at: number;
    event_id: string | null;
  }>;

export interface ListFilter {
  accountId: number;
  environment: 'test' | 'live';
  statuses?: readonly Status[] | undefined;
  capability?: string | undefined;
  clientReference?: string | undefined;
  /** One metadata key (letters, digits, _ . -) and the value it must have. */
  metadata?: { key: string; value: string } | undefined;
  createdFrom?: number | undefined;
  createdTo?: number | undefined;
  cursor?: { at: number; id: number } | undefined;
  limit: number;
}

/** Newest first; the cursor is the (created_at, id) of the last row of the previous page. */
export function listTasks(db: Db, f: ListFilter): TaskRow[] {
  return statements(db).list.all({
    account: f.accountId,
    environment: f.environment,
    statuses: f.statuses?.length ? JSON.stringify(f.statuses) : null,
    capability: f.capability ?? null,
    reference: f.clientReference ?? null,
    metaPath: f.metadata ? `$."${f.metadata.key}"` : null,
    metaValue: f.metadata?.value ?? null,
    from: f.createdFrom ?? null,
    to: f.createdTo ?? null,
    cursorAt: f.cursor?.at ?? null,
    cursorId: f.cursor?.id ?? null,
    limit: f.limit,
  }) as TaskRow[];
}

export const dueTasks = (db: Db, now: number, limit: number) => statements(db).due.all(now, limit) as TaskRow[];

/**
 * Applies `event` to the task as the caller read it: compare-and-set on (status, version), the
 * timestamps the new state implies, the money move for live tasks, and a history row. Throws
 * invalid_state (a DomainError) when the event is not allowed from the task's status, or when someone else moved the
 * task first.
 */
export function transition(
  db: Db,
  task: TaskRow,
  event: TaskEvent,
  opts: { now: number; actor: string; delayMs: number; set?: TransitionFields },
): TaskRow {
  const to = nextStatus(task.status, event);
  if (!to) throw refused(task, event);
  const { now } = opts;
  const changes: Partial<TaskRow> = { ...opts.set, status: to, version: task.version + 1, updated_at: now };
  if (event === 'accept') changes.dispatched_at = now;
  if (event === 'start') changes.started_at = now;
  if (event === 'deliver') {
    changes.delivered_at = now;
    changes.dispute_deadline = now + (task.environment === 'live' ? DISPUTE_WINDOW_MS : REVIEW_DELAYS * opts.delayMs);
  }
  if (event === 'dispute') changes.disputed_at = now;
  if (event === 'resolve_stands' || event === 'resolve_refund') changes.resolved_at = now;
  if (event === 'expire') changes.expiry_reason = expiryReason(task, now);
  if (TERMINAL.has(to)) changes.closed_at = now;
  const after = { ...task, ...changes } as TaskRow;
  changes.next_check_at = nextCheckAt(after, opts.delayMs);
  after.next_check_at = changes.next_check_at;

  const columns = Object.keys(changes).sort();
  // One UPDATE per set of changed columns (a dozen sets), kept by preparedSql.
  const stmt = preparedSql(
    db,
    `UPDATE human_tasks SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id AND status = @was AND version = @wasVersion`,
  );
  const info = stmt.run({ ...changes, id: task.id, was: task.status, wasVersion: task.version });
  if (info.changes !== 1) {
    const now2 = taskById(db, task.id)!;
    throw invalidState(
      `Task ${task.ref} changed meanwhile: it is ${now2.status} now, and ${event.replace('_', ' ')} is allowed only when ${TRANSITIONS[event].from.join(' or ')}.`,
    );
  }
  if (task.environment === 'live') {
    const money = moneyEffect(to);
    if (money === 'capture') captureHold(db, task.id, after.worker_account_id, `${task.ref} completed`, now);
    if (money === 'release') releaseHold(db, task.id, `${task.ref} ${to}`, now);
  }
  const { id: eventId } = report(db, after, task.status, now);
  statements(db).event.run(task.id, event, task.status, to, opts.actor, now, eventId);
  if (task.environment === 'live') {
    if (task.status === 'pending') withdrawOffer(db, task, now);
    if (event === 'resolve_stands' || event === 'resolve_refund') mailDisputeOutcome(db, after, now);
  }
  return after;
}

export function refused(task: TaskRow, event: TaskEvent) {
  return invalidState(
    `Task ${task.ref} is ${task.status}; ${event.replace('_', ' ')} is allowed only when ${TRANSITIONS[event].from.join(' or ')}.`,
  );
}

/**
 * Reading tasks, results, evidence, the balance and the ledger (GET endpoints; the MCP read tools).
 * A key sees the tasks of its account in its own environment: another account's ref, or a sandbox
 * ref asked with a live key, is 404 exactly like a ref that does not exist.
 */
import { evidenceFile, evidenceOf } from './evidence.ts';
import { balanceOf, ledgerEntries } from './ledger.ts';
import { listTasks as listRows, ownTask, ownTaskResult, taskEvents, type TaskRow } from './tasks.ts';
import { invalidRequest, notFound } from '../../lib/human/errors.ts';
import { LedgerQuery, ListQuery, type ListInput } from '../../lib/human/inputs.ts';
import { presentEvidence, presentResult, presentTask } from '../../lib/human/present.ts';
import { REF_PATTERN } from '../../lib/human/refs.ts';
import { requireScope, type HumanCaller, type HumanService } from './service.ts';
import type * as v from 'valibot';
import type { Status } from '../../lib/human/states.ts';

export function findOwnTask(svc: HumanService, caller: HumanCaller, ref: string): TaskRow {
  return findOwn(svc, caller, ref, ownTask);
}

/** A caller's task as `read` reads it (every column, or those a result needs), or the 400/404 of a ref. */
function findOwn<T>(
  svc: HumanService,
  caller: HumanCaller,
  ref: string,
  read: (db: HumanService['db'], ref: string, accountId: number, environment: 'test' | 'live') => T | undefined,
): T {
  if (!REF_PATTERN.test(ref))
    throw invalidRequest(`'${ref.slice(0, 40)}' is not a task ref (tsk_ followed by 20 letters and digits).`, 'ref');
  const task = read(svc.db, ref, caller.accountId, caller.environment);
  if (!task)
    throw notFound(
      `No task ${ref} for this key's account in the ${caller.environment === 'test' ? 'sandbox' : 'live'} environment.`,
    );
  return task;
}

export function getTask(svc: HumanService, caller: HumanCaller, ref: string, now: number) {
  requireScope(caller, 'tasks:read', 'reading a task');
  return presentTask(findOwnTask(svc, caller, ref), now);
}

export function getResult(svc: HumanService, caller: HumanCaller, ref: string, now: number) {
  requireScope(caller, 'tasks:read', 'reading a result');
  return presentResult(findOwn(svc, caller, ref, ownTaskResult), now);
}

export function getEvidence(svc: HumanService, caller: HumanCaller, ref: string) {
  requireScope(caller, 'tasks:read', 'reading evidence');
  const task = findOwnTask(svc, caller, ref);
  return presentEvidence(task, evidenceOf(svc.db, task.id));
}

/** Who moved a task, as clients see it: never which person (a worker's account id stays inside). */
const ACTORS: Record<string, string> = {
  client: 'client',
  scheduler: 'scheduler',
  sandbox: 'sandbox',
  operator: 'operator',
};

/**
 * GET /tasks/{ref}/events: the task's history, oldest first: every state it reached, when, and who
 * moved it. `id` is the webhook event that reported it (GET /events/{id}; null before webhooks existed).
 */
export function getTaskEvents(svc: HumanService, caller: HumanCaller, ref: string) {
  requireScope(caller, 'tasks:read', "reading a task's events");
  const task = findOwnTask(svc, caller, ref);
  return taskEvents(svc.db, task.id).map((e) => ({
    id: e.event_id,
    type: `human.task.${e.to_status === 'pending' ? 'created' : e.to_status}`,
    status: e.to_status,
    previous_status: e.from_status,
    actor: ACTORS[e.actor] ?? 'person',
    at: new Date(e.at).toISOString(),
  }));
}

/** The bytes of one photo or document of a task's evidence. */
export function getEvidenceFile(svc: HumanService, caller: HumanCaller, ref: string, evidenceId: string) {
  requireScope(caller, 'tasks:read', 'reading evidence');
  const task = findOwnTask(svc, caller, ref);
  const m = /^evd_(\d{1,12})$/.exec(evidenceId);
  if (!m)
    throw invalidRequest(`'${evidenceId.slice(0, 40)}' is not an evidence id (evd_ followed by digits).`, 'evidence');
  const file = evidenceFile(svc.db, task.id, Number(m[1]));
  if (!file) throw notFound(`Task ${ref} has no file ${evidenceId}.`);
  return file;
}

const encodeCursor = (row: TaskRow) => Buffer.from(`${row.created_at}.${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: number; id: number } {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw invalidRequest('cursor is not a next_cursor this API gave out.', 'cursor');
  return { at: Number(m[1]), id: Number(m[2]) };
}

/** GET /tasks: the caller's tasks, newest first, filtered, a page at a time. */
export function listTasks(
  svc: HumanService,
  caller: HumanCaller,
  query: v.InferOutput<typeof ListQuery> | v.InferOutput<typeof ListInput>,
  now: number,
) {
  requireScope(caller, 'tasks:read', 'listing tasks');
  const from = query.created_after === undefined ? undefined : Date.parse(query.created_after);
  const to = query.created_before === undefined ? undefined : Date.parse(query.created_before);
  if (Number.isNaN(from) || Number.isNaN(to))
    throw invalidRequest('created_after and created_before must be real instants, e.g. 2026-11-22T10:00:00Z.');
  if (from !== undefined && to !== undefined && from >= to)
    throw invalidRequest('created_after must be before created_before.', 'created_after');
  const limit = query.limit ?? 20;
  const statuses =
    query.status === undefined
      ? undefined
      : typeof query.status === 'string'
        ? (query.status.split(',') as Status[])
        : query.status;
  const metadata =
    query.metadata === undefined
      ? undefined
      : typeof query.metadata === 'string'
        ? {
            key: query.metadata.slice(0, query.metadata.indexOf(':')),
            value: query.metadata.slice(query.metadata.indexOf(':') + 1),
          }
        : query.metadata;
  const rows = listRows(svc.db, {
    accountId: caller.accountId,
    environment: caller.environment,
    statuses,
    capability: query.capability,
    clientReference: query.client_reference,
    metadata,
    createdFrom: from,
    createdTo: to,
    cursor: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    data: page.map((t) => presentTask(t, now)),
    meta: { limit, next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null },
  };
}

/** GET /balance. Sandbox keys move no money: their balance is always zero, and says so. */
export function getBalance(svc: HumanService, caller: HumanCaller) {
  requireScope(caller, 'tasks:read', 'reading the balance');
  const currency = svc.catalogue.currency();
  if (caller.environment === 'test') {
    return {
      environment: 'sandbox' as const,
      currency,
      available_cents: 0,
      held_cents: 0,
      open_holds: 0,
      note: 'Sandbox orders move no money; use a live key to see the prepaid balance.',
    };
  }
  const b = balanceOf(svc.db, caller.accountId);
  return {
    environment: 'live' as const,
    currency,
    available_cents: b.available_cents,
    held_cents: b.held_cents,
    open_holds: b.open_holds,
    note: null,
  };
}

/** GET /ledger: the journals that moved the account's available or held money, newest first. */
export function getLedger(svc: HumanService, caller: HumanCaller, query: v.InferOutput<typeof LedgerQuery>) {
  requireScope(caller, 'tasks:read', 'reading the ledger');
  const limit = query.limit ?? 50;
  if (caller.environment === 'test') return { data: [], meta: { limit, next_cursor: null } };
  const rows = ledgerEntries(svc.db, caller.accountId, {
    before: query.cursor === undefined ? null : Number(query.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    data: page.map((e) => ({
      id: `led_${e.id}`,
      kind: e.kind,
      memo: e.memo,
      task_ref: e.task_ref,
      created_at: new Date(e.created_at).toISOString(),
      available_change_cents: e.available_change,
      held_change_cents: e.held_change,
      available_after_cents: e.available_after,
      held_after_cents: e.held_after,
    })),
    meta: { limit, next_cursor: rows.length > limit ? String(page[page.length - 1]!.id) : null },
  };
}

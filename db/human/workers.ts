/**
 * Verified people, where they work and what they do. An operator verifies a person (`worker verify`)
 * for whole countries or for cities, and for every capability or some; verified people see the live
 * tasks pending in their areas and capabilities, never tasks ordered by their own account (nobody
 * checks their own order). A person on duty counts as available (lib/human/availability.ts).
 */
import type { Db } from '../connection.ts';
import type { TaskRow } from './tasks.ts';
import { statementsFor } from '../statements.ts';
import type { OnDuty } from '../../lib/human/availability.ts';

export interface Area {
  country_iso: string;
  city_slug: string;
} // city_slug '*' = the whole country
export interface Worker {
  account_id: number;
  verified_at: number;
  revoked_at: number | null;
  note: string | null;
  /** 1 while they take new tasks (until on_duty_until when set). */
  on_duty: 0 | 1;
  on_duty_until: number | null;
  /** Space-separated capability ids they are verified for; null: every capability. */
  capabilities: string | null;
  /** 1: e-mailed when a task is offered where they are on duty (issue 35). */
  offer_mail: 0 | 1;
  areas: Area[];
}

const statements = statementsFor((db) => ({
  upsertWorker: db.prepare(
    `INSERT INTO human_workers (account_id, verified_at, revoked_at, note, capabilities) VALUES (?, ?, NULL, ?, ?)
      ON CONFLICT (account_id) DO UPDATE SET verified_at = excluded.verified_at, revoked_at = NULL, note = excluded.note,
        capabilities = excluded.capabilities`,
  ),
  duty: db.prepare('UPDATE human_workers SET on_duty = ?, on_duty_until = ? WHERE account_id = ?'),
  clearAreas: db.prepare('DELETE FROM human_worker_areas WHERE account_id = ?'),
  addArea: db.prepare('INSERT OR IGNORE INTO human_worker_areas (account_id, country_iso, city_slug) VALUES (?, ?, ?)'),
  revoke: db.prepare(
    'UPDATE human_workers SET revoked_at = ?, on_duty = 0, on_duty_until = NULL WHERE account_id = ? AND revoked_at IS NULL',
  ),
  worker: db.prepare(
    'SELECT account_id, verified_at, revoked_at, note, on_duty, on_duty_until, capabilities, offer_mail FROM human_workers WHERE account_id = ?',
  ),
  areas: db.prepare(
    'SELECT country_iso, city_slug FROM human_worker_areas WHERE account_id = ? ORDER BY country_iso, city_slug',
  ),
  offered: db.prepare(
    `SELECT t.* FROM human_tasks t
    WHERE t.status = 'pending' AND t.environment = 'live' AND t.due_at > @now AND t.account_id <> @worker
      AND EXISTS (SELECT 1 FROM human_workers w WHERE w.account_id = @worker AND w.revoked_at IS NULL
                  AND (w.capabilities IS NULL OR ' ' || w.capabilities || ' ' LIKE '% ' || t.capability || ' %'))
      AND EXISTS (SELECT 1 FROM human_worker_areas a WHERE a.account_id = @worker AND a.country_iso = t.country_iso
                  AND (a.city_slug = '*' OR a.city_slug = t.city_slug))
    ORDER BY t.due_at, t.id LIMIT @limit`,
  ),
  inAreas: db.prepare(
    `SELECT 1 FROM human_worker_areas a JOIN human_workers w ON w.account_id = a.account_id
      WHERE a.account_id = ? AND a.country_iso = ? AND (a.city_slug = '*' OR a.city_slug = ?)
        AND (w.capabilities IS NULL OR ' ' || w.capabilities || ' ' LIKE '% ' || ? || ' %')`,
  ),
  onDuty: db.prepare(
    `SELECT w.account_id, a.country_iso, a.city_slug, w.capabilities FROM human_workers w
      JOIN human_worker_areas a ON a.account_id = w.account_id
      WHERE w.revoked_at IS NULL AND w.on_duty = 1 AND (w.on_duty_until IS NULL OR w.on_duty_until > ?)`,
  ),
  workerTasks: db.prepare(
    `SELECT * FROM human_tasks WHERE worker_account_id = ?
    ORDER BY CASE WHEN status IN ('dispatched', 'in_progress') THEN 0 ELSE 1 END, updated_at DESC LIMIT ?`,
  ),
}));

/**
 * Verifies (or re-verifies) a person; their areas and capabilities (null: all) are replaced by the
 * given ones. Their duty is kept: verification says what they may do, duty whether they do it now.
 */
export function verifyWorker(
  db: Db,
  accountId: number,
  areas: Area[],
  now: number,
  note: string | null = null,
  capabilities: readonly string[] | null = null,
): Worker {
  if (areas.length === 0) throw new RangeError('a verified person works somewhere: give at least one country or city');
  db.transaction(() => {
    statements(db).upsertWorker.run(accountId, now, note, capabilities?.length ? capabilities.join(' ') : null);
    statements(db).clearAreas.run(accountId);
    const add = statements(db).addArea;
    for (const a of areas) add.run(accountId, a.country_iso, a.city_slug);
  }).immediate();
  return workerOf(db, accountId)!;
}

/** Goes on duty (until `until`, or until they go off) or off duty. Only a verified person has a duty. */
export function setDuty(db: Db, accountId: number, onDuty: boolean, until: number | null): Worker | undefined {
  statements(db).duty.run(onDuty ? 1 : 0, onDuty ? until : null, accountId);
  return workerOf(db, accountId);
}

/** Everyone on duty now, one row per area: lib/human/availability.ts counts them. */
export function onDutyNow(db: Db, now: number): OnDuty[] {
  return statements(db).onDuty.all(now) as OnDuty[];
}

/** Withdraws a verification: the person sees no new offers; tasks they hold stay theirs to finish. */
export function revokeWorker(db: Db, accountId: number, now: number): Worker | undefined {
  statements(db).revoke.run(now, accountId);
  return workerOf(db, accountId);
}

export function workerOf(db: Db, accountId: number): Worker | undefined {
  const row = statements(db).worker.get(accountId) as Omit<Worker, 'areas'> | undefined;
  if (!row) return undefined;
  const areas = statements(db).areas.all(accountId) as Area[];
  return { ...row, areas };
}

export const isVerified = (w: Worker | undefined): w is Worker => w !== undefined && w.revoked_at === null;

/** Live tasks waiting for a person in the worker's areas, soonest due first. */
export function offeredTasks(db: Db, workerAccountId: number, now: number, limit = 50): TaskRow[] {
  return statements(db).offered.all({ now, worker: workerAccountId, limit }) as TaskRow[];
}

/** Whether a task is in the worker's areas and capabilities (checked again when they accept it). */
export function inAreas(
  db: Db,
  workerAccountId: number,
  task: Pick<TaskRow, 'country_iso' | 'city_slug' | 'capability'>,
): boolean {
  return statements(db).inAreas.get(workerAccountId, task.country_iso, task.city_slug, task.capability) !== undefined;
}

/** The worker's own tasks: open ones first, then the most recent finished ones. */
export function workerTasks(db: Db, workerAccountId: number, limit = 50): TaskRow[] {
  return statements(db).workerTasks.all(workerAccountId, limit) as TaskRow[];
}

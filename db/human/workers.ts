/**
 * Verified people and where they work. An operator verifies a person (`worker verify`) for whole
 * countries or for cities; verified people see the live tasks pending in their areas, never tasks
 * ordered by their own account (nobody checks their own order).
 */
import type { Db } from '../connection.ts';
import type { TaskRow } from './tasks.ts';
import { statementsFor } from '../statements.ts';

export interface Area {
  country_iso: string;
  city_slug: string;
} // city_slug '*' = the whole country
export interface Worker {
  account_id: number;
  verified_at: number;
  revoked_at: number | null;
  note: string | null;
  areas: Area[];
}

const statements = statementsFor((db) => ({
  upsertWorker: db.prepare(
    `INSERT INTO human_workers (account_id, verified_at, revoked_at, note) VALUES (?, ?, NULL, ?)
      ON CONFLICT (account_id) DO UPDATE SET verified_at = excluded.verified_at, revoked_at = NULL, note = excluded.note`,
  ),
  clearAreas: db.prepare('DELETE FROM human_worker_areas WHERE account_id = ?'),
  addArea: db.prepare('INSERT OR IGNORE INTO human_worker_areas (account_id, country_iso, city_slug) VALUES (?, ?, ?)'),
  revoke: db.prepare('UPDATE human_workers SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL'),
  worker: db.prepare('SELECT account_id, verified_at, revoked_at, note FROM human_workers WHERE account_id = ?'),
  areas: db.prepare(
    'SELECT country_iso, city_slug FROM human_worker_areas WHERE account_id = ? ORDER BY country_iso, city_slug',
  ),
  offered: db.prepare(
    `SELECT t.* FROM human_tasks t
    WHERE t.status = 'pending' AND t.environment = 'live' AND t.due_at > @now AND t.account_id <> @worker
      AND EXISTS (SELECT 1 FROM human_workers w WHERE w.account_id = @worker AND w.revoked_at IS NULL)
      AND EXISTS (SELECT 1 FROM human_worker_areas a WHERE a.account_id = @worker AND a.country_iso = t.country_iso
                  AND (a.city_slug = '*' OR a.city_slug = t.city_slug))
    ORDER BY t.due_at, t.id LIMIT @limit`,
  ),
  inAreas: db.prepare(
    `SELECT 1 FROM human_worker_areas WHERE account_id = ? AND country_iso = ? AND (city_slug = '*' OR city_slug = ?)`,
  ),
  workerTasks: db.prepare(
    `SELECT * FROM human_tasks WHERE worker_account_id = ?
    ORDER BY CASE WHEN status IN ('dispatched', 'in_progress') THEN 0 ELSE 1 END, updated_at DESC LIMIT ?`,
  ),
}));

/** Verifies (or re-verifies) a person; their areas are replaced by the given ones. */
export function verifyWorker(
  db: Db,
  accountId: number,
  areas: Area[],
  now: number,
  note: string | null = null,
): Worker {
  if (areas.length === 0) throw new RangeError('a verified person works somewhere: give at least one country or city');
  db.transaction(() => {
    statements(db).upsertWorker.run(accountId, now, note);
    statements(db).clearAreas.run(accountId);
    const add = statements(db).addArea;
    for (const a of areas) add.run(accountId, a.country_iso, a.city_slug);
  }).immediate();
  return workerOf(db, accountId)!;
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

/** Whether a task is in the worker's areas (checked again when they accept it). */
export function inAreas(db: Db, workerAccountId: number, task: Pick<TaskRow, 'country_iso' | 'city_slug'>): boolean {
  return statements(db).inAreas.get(workerAccountId, task.country_iso, task.city_slug) !== undefined;
}

/** The worker's own tasks: open ones first, then the most recent finished ones. */
export function workerTasks(db: Db, workerAccountId: number, limit = 50): TaskRow[] {
  return statements(db).workerTasks.all(workerAccountId, limit) as TaskRow[];
}

/**
 * What the funding sync keeps in the database between runs (migration 009): a watermark per source,
 * a log of runs, the validators of fetched documents, the fingerprints of list entries whose detail
 * was fetched, and the lock that lets one sync run at a time across processes.
 *
 * Every write here is meant to happen inside the batch transaction of the import it belongs to
 * (db/funding/sync/context.ts), so that a kill between two batches leaves a watermark that matches
 * exactly what was stored.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../connection.ts';
import type { SourceCode } from '../../../lib/funding/records.ts';
import { statementsFor } from '../../statements.ts';

export interface RunCounts {
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  withheld: number;
  notices: number; // notices (not calls) new or changed
  skipped: number;
  failed: number;
}

export interface Validators {
  etag: string | null;
  last_modified: string | null;
  body_sha256: string | null;
}

const statements = statementsFor((db) => ({
  ensure: db.prepare('INSERT OR IGNORE INTO funding_sync_state (source) VALUES (?)'),
  watermark: db.prepare('SELECT watermark FROM funding_sync_state WHERE source = ?').pluck(),
  setWatermark: db.prepare('UPDATE funding_sync_state SET watermark = ? WHERE source = ?'),
  startRun: db.prepare('INSERT INTO funding_sync_runs (source, started_at) VALUES (?, ?)'),
  addCounts: db.prepare(`UPDATE funding_sync_runs SET fetched = fetched + @fetched, inserted = inserted + @inserted,
    updated = updated + @updated, unchanged = unchanged + @unchanged, withheld = withheld + @withheld,
    notices = notices + @notices, skipped = skipped + @skipped, failed = failed + @failed WHERE id = @id`),
  finishRun: db.prepare('UPDATE funding_sync_runs SET finished_at = ?, outcome = ?, error = ? WHERE id = ?'),
  success: db.prepare(`UPDATE funding_sync_state SET last_success_at = ?, last_attempt_at = ?, consecutive_failures = 0,
    last_error = NULL WHERE source = ?`),
  failure:
    db.prepare(`UPDATE funding_sync_state SET last_attempt_at = ?, consecutive_failures = consecutive_failures + 1,
    last_error = ? WHERE source = ?`),
  stateRow: db.prepare('SELECT * FROM funding_sync_state WHERE source = ?'),
  validators: db.prepare('SELECT etag, last_modified, body_sha256 FROM funding_sync_http_cache WHERE url = ?'),
  setValidators:
    db.prepare(`INSERT INTO funding_sync_http_cache (url, etag, last_modified, body_sha256, fetched_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT(url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
      body_sha256 = excluded.body_sha256, fetched_at = excluded.fetched_at`),
  fingerprint: db.prepare('SELECT fingerprint FROM funding_sync_items WHERE source = ? AND item_id = ?').pluck(),
  // A detail read: when, and (for a read the list entry led to) the entry's fingerprint.
  touchItem: db.prepare(`INSERT INTO funding_sync_items (source, item_id, fingerprint, seen_at)
    VALUES (@source, @id, coalesce(@fingerprint, ''), @now)
    ON CONFLICT(source, item_id) DO UPDATE SET fingerprint = coalesce(@fingerprint, fingerprint), seen_at = @now`),
  lock: {
    row: db.prepare('SELECT holder, expires_at FROM funding_sync_lock WHERE name = ?'),
    take: db.prepare(
      `INSERT INTO funding_sync_lock (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET holder = excluded.holder, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
    ),
    renew: db.prepare('UPDATE funding_sync_lock SET expires_at = ? WHERE name = ? AND holder = ?'),
    release: db.prepare('DELETE FROM funding_sync_lock WHERE name = ? AND holder = ?'),
    releaseOf: db.prepare('DELETE FROM funding_sync_lock WHERE holder LIKE ?'),
  },
}));

export function syncState(db: Db) {
  const sql = statements(db);
  return {
    watermark<T extends object>(source: SourceCode): Partial<T> {
      sql.ensure.run(source);
      return JSON.parse(sql.watermark.get(source) as string) as Partial<T>;
    },
    setWatermark(source: SourceCode, w: object): void {
      sql.ensure.run(source);
      sql.setWatermark.run(JSON.stringify(w), source);
    },
    startRun: (source: SourceCode, now: number) => Number(sql.startRun.run(source, now).lastInsertRowid),
    addCounts: (id: number, c: RunCounts) => void sql.addCounts.run({ ...c, id }),
    finishRun(id: number, source: SourceCode, now: number, error: string | null): void {
      db.transaction(() => {
        sql.ensure.run(source);
        sql.finishRun.run(now, error === null ? 'ok' : 'failed', error, id);
        if (error === null) sql.success.run(now, now, source);
        else sql.failure.run(now, error, source);
      }).immediate();
    },
    state: (source: SourceCode) =>
      sql.stateRow.get(source) as { consecutive_failures: number; last_success_at: number | null } | undefined,
    validators: (url: string) => (sql.validators.get(url) as Validators | undefined) ?? null,
    setValidators: (url: string, v: Validators, now: number) =>
      void sql.setValidators.run(url, v.etag, v.last_modified, v.body_sha256, now),
    fingerprint: (source: SourceCode, id: string) => (sql.fingerprint.get(source, id) as string | undefined) ?? null,
    /** A detail was read at `now`; `fingerprint` null keeps the list entry's fingerprint as it was. */
    touchItem: (source: SourceCode, id: string, fingerprint: string | null, now: number) =>
      void sql.touchItem.run({ source, id, fingerprint, now }),
  };
}

export type SyncState = ReturnType<typeof syncState>;

// ---- the lock ----

export class SyncLockedError extends Error {}

export interface SyncLock {
  holder: string;
  renew(now: number): void;
  release(): void;
}

const LOCK = 'funding-sync';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the sync lock or throws SyncLockedError naming the holder. The lock is a row with an expiry
 * renewed after every batch: a holder that hangs or dies loses it at expiry; a holder on this same
 * host whose process is gone (killed) loses it at once, so a sync killed mid-way can be resumed
 * straight away.
 */
export function acquireSyncLock(db: Db, now: number, ttlMs: number): SyncLock {
  const me = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const get = statements(db).lock.row;
  db.transaction(() => {
    const row = get.get(LOCK) as { holder: string; expires_at: number } | undefined;
    if (row && row.expires_at > now) {
      const [host, pid] = row.holder.split(':');
      const dead = host === hostname() && Number(pid) !== process.pid && !processAlive(Number(pid));
      if (!dead) {
        throw new SyncLockedError(
          `another funding sync is running (${row.holder}, lock until ${new Date(row.expires_at).toISOString()})`,
        );
      }
    }
    statements(db).lock.take.run(LOCK, me, now, now + ttlMs);
  }).immediate();
  const renew = statements(db).lock.renew;
  const release = statements(db).lock.release;
  return {
    holder: me,
    renew: (at: number) => {
      if (renew.run(at + ttlMs, LOCK, me).changes === 0)
        throw new SyncLockedError('the funding sync lock was lost (expired and taken by another process)');
    },
    release: () => void release.run(LOCK, me),
  };
}

/** Drops the lock rows this process holds (a sync stopped by SIGTERM or SIGINT frees it at once). */
export function releaseSyncLocksOf(db: Db, pid = process.pid): void {
  statements(db).lock.releaseOf.run(`${hostname()}:${pid}:%`);
}

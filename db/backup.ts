/**
 * Backing up and restoring the one SQLite file, safely beside a running server.
 *
 * Backup uses SQLite's online backup API (better-sqlite3's db.backup) on its own read-only
 * connection: in WAL mode the server keeps writing while we read. A backup step that sees a write by
 * another process starts over, so the step grows (×4) after each restart until one step copies the
 * whole file inside one read transaction; either way the copy is one consistent snapshot. The copy
 * is written under a temporary name, switched to rollback-journal mode (one self-contained file),
 * checked (PRAGMA integrity_check, and it must be a trio database), synced, and only then renamed to
 * its name: a backup file that exists is complete.
 *
 * Restore checks the file the same way, refuses a backup from a newer trio, takes the server lock
 * (db/server-lock.ts: it refuses while a server runs on the target, and no server can start while it
 * works), copies into a temporary file beside the target, removes the target's -wal and -shm (they
 * belong to the old file and would be replayed onto the new one), and renames into place.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openDatabase, type Db } from './connection.ts';
import { loadMigrations } from './migrate.ts';
import { acquireServerLock } from './server-lock.ts';

export type Progress = (done: number, total: number) => void;

export interface DatabaseFacts {
  migration: number;
  migrationName: string;
  pages: number;
  bytes: number;
  integrity: 'ok';
}

export interface BackupSummary extends DatabaseFacts {
  file: string;
  database: string;
  restarts: number;
  ms: number;
}

export interface RestoreSummary extends DatabaseFacts {
  file: string;
  database: string;
  replaced: boolean;
  pending: number[];
  ms: number;
}

/** Refused input: the command prints the message and exits 1. */
export class BackupError extends Error {}

/** What a trio database file is, or BackupError saying why it is not one (or not a sound one). */
export function inspectDatabase(db: Db, label: string): Omit<DatabaseFacts, 'bytes'> {
  const problems = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
  if (problems.length !== 1 || problems[0] !== 'ok') {
    throw new BackupError(
      `${label} fails PRAGMA integrity_check: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; …' : ''}`,
    );
  }
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  const newest = hasTable
    ? (db.prepare('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1').get() as
        { version: number; name: string } | undefined)
    : undefined;
  if (!newest) throw new BackupError(`${label} is not a trio database (no migrations recorded in schema_migrations)`);
  return {
    migration: newest.version,
    migrationName: newest.name,
    pages: db.pragma('page_count', { simple: true }) as number,
    integrity: 'ok',
  };
}

/** Copies with SQLite's online backup, growing the step after each restart (see the header). */
async function onlineCopy(source: Db, destination: string, onProgress?: Progress): Promise<number> {
  let step = 0;
  let last = Infinity;
  let restarts = 0;
  await source.backup(destination, {
    progress: ({ totalPages, remainingPages }) => {
      if (step === 0) step = Math.max(64, Math.ceil(totalPages / 20));
      else if (remainingPages >= last) {
        restarts++;
        step = Math.min(0x7fffffff, step * 4);
      }
      last = remainingPages;
      onProgress?.(totalPages - remainingPages, totalPages);
      return step;
    },
  });
  return restarts;
}

/** Makes a copied file one self-contained file and checks it; returns what it is. */
function sealCopy(path: string, label: string): DatabaseFacts {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = DELETE');
    return { ...inspectDatabase(db, label), bytes: statSync(path).size };
  } finally {
    db.close();
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** So that a rename survives a power cut (the directory entry is data too). */
function syncDirectory(path: string): void {
  const fd = openSync(dirname(path), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function removeWithSidecars(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

export async function backupDatabase(
  databasePath: string,
  file: string,
  options: { force?: boolean; onProgress?: Progress } = {},
): Promise<BackupSummary> {
  const started = Date.now();
  const database = resolve(databasePath);
  file = resolve(file);
  if (file === database) throw new BackupError('the backup file is the database itself: choose another FILE');
  if (!existsSync(database)) throw new BackupError(`there is no database at ${database} (DATABASE_PATH)`);
  if (existsSync(file) && !options.force)
    throw new BackupError(`${file} exists already: choose a new name, or pass --force to replace it`);
  if (!existsSync(dirname(file))) throw new BackupError(`the directory ${dirname(file)} does not exist`);
  const partial = `${file}.partial-${process.pid}`;
  removeWithSidecars(partial);
  try {
    const source = openDatabase(database, { readonly: true });
    let restarts: number;
    try {
      restarts = await onlineCopy(source, partial, options.onProgress);
    } finally {
      source.close();
    }
    const facts = sealCopy(partial, 'the copy');
    syncFile(partial);
    renameSync(partial, file);
    syncDirectory(file);
    return { file, database, ...facts, restarts, ms: Date.now() - started };
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  }
}

export async function restoreDatabase(
  file: string,
  databasePath: string,
  options: { onProgress?: Progress } = {},
): Promise<RestoreSummary> {
  const started = Date.now();
  const database = resolve(databasePath);
  file = resolve(file);
  if (file === database) throw new BackupError('FILE is the database itself: nothing to restore');
  if (!existsSync(file)) throw new BackupError(`there is no file at ${file}`);
  let source: Db;
  try {
    source = openDatabase(file, { readonly: true });
  } catch (err) {
    throw new BackupError(`${file} cannot be opened as an SQLite database: ${(err as Error).message}`);
  }
  let target: string | undefined;
  try {
    const facts = inspectDatabase(source, file);
    const known = loadMigrations().map((m) => m.version);
    if (facts.migration > Math.max(...known)) {
      throw new BackupError(
        `${file} is at migration ${facts.migration} (${facts.migrationName}), newer than this trio knows (up to ${Math.max(...known)}): restore it with the trio version that wrote it`,
      );
    }
    const applied = new Set(source.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    const lock = acquireServerLock(database, 'restore');
    try {
      const replaced = existsSync(database);
      target = `${database}.restoring-${process.pid}`;
      removeWithSidecars(target);
      await onlineCopy(source, target, options.onProgress);
      const copied = sealCopy(target, 'the restored copy');
      syncFile(target);
      // The old file's WAL must not be replayed onto the new file; the lock says nobody has it open.
      rmSync(`${database}-wal`, { force: true });
      rmSync(`${database}-shm`, { force: true });
      renameSync(target, database);
      target = undefined;
      syncDirectory(database);
      return {
        file,
        database,
        ...copied,
        replaced,
        pending: known.filter((v) => !applied.has(v)),
        ms: Date.now() - started,
      };
    } finally {
      lock.release();
    }
  } finally {
    source.close();
    if (target) removeWithSidecars(target);
  }
}

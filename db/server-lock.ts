/**
 * Who is using a database file as its server: `serve` holds `<DATABASE_PATH>.lock` for as long as it
 * runs, and `restore` takes the same lock, so a restore never replaces the file under a running
 * server and a server cannot start in the middle of a restore.
 *
 * The lock is an operating-system file lock, not a pid written in a file: the lock file is a tiny
 * SQLite database held in exclusive locking mode (a write makes SQLite take its EXCLUSIVE lock and,
 * in that mode, keep it until the connection closes). The kernel drops the lock when the process
 * ends, however it ends (SIGKILL and power cuts included), so there is no stale lock to clean up and
 * no pid that could have been reused; it also works between containers sharing a volume. Other
 * commands (backup, key create, …) do not take it: they are safe beside a running server.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export class DatabaseInUseError extends Error {}

export interface ServerLock {
  path: string;
  release(): void;
}

export const lockPath = (databasePath: string) => `${databasePath}.lock`;

/**
 * Takes the lock for `databasePath` or throws DatabaseInUseError at once (no waiting). `purpose`
 * names the holder in the message the next one sees. A ':memory:' database needs no lock.
 */
export function acquireServerLock(databasePath: string, purpose: 'serve' | 'restore'): ServerLock {
  if (databasePath === ':memory:') return { path: '', release: () => {} };
  const path = lockPath(databasePath);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = MEMORY'); // no -journal file beside the lock file
    db.pragma(`user_version = ${process.pid}`); // the write that takes (and keeps) the EXCLUSIVE lock
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseInUseError(
        `${databasePath} is in use: another process holds ${path} (a trio server is serving this database, or a restore is in progress). ` +
          (purpose === 'restore'
            ? 'Stop the server first (systemctl stop trio, docker stop …), then restore.'
            : 'Stop it first, or give this server another DATABASE_PATH.'),
      );
    }
    throw err;
  }
  return { path, release: () => db.close() };
}

/**
 * Opens the one SQLite file trio keeps everything in.
 *
 * Pragmas are set in this order on purpose: busy_timeout first, so that switching to WAL waits for a
 * lock instead of failing; then WAL with synchronous=NORMAL (a commit is durable once the WAL is
 * synced at checkpoint; a power cut can lose the last transactions, a process crash cannot);
 * foreign keys on; temp tables in memory.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { registerFundingFunctions } from './funding/sql-functions.ts';

export type Db = Database.Database;

export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  if (path !== ':memory:' && !options.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536'); // 64 MiB: the FTS index and the call table's hot pages
  registerFundingFunctions(db); // called by the funding triggers (db/funding/sql-functions.ts)
  return db;
}

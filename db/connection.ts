/**
 * Opens the one SQLite file trio keeps everything in.
 *
 * Pragmas are set in this order on purpose: busy_timeout first, so that switching to WAL waits for a
 * lock instead of failing; then WAL with synchronous=NORMAL (a commit is durable once the WAL is
 * synced at checkpoint; a power cut can lose the last transactions, a process crash cannot);
 * foreign keys on; temp tables in memory.
 *
 * A file that cannot be opened, or that trio could open but not write, stops it with a message that
 * names the path, the cause and what to do (db/open-error.ts), not SQLite's "unable to open database
 * file".
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { registerFundingFunctions } from './funding/sql-functions.ts';
import { checkWritable, explainOpenFailure } from './open-error.ts';

export type Db = Database.Database;

export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  const readonly = options.readonly ?? false;
  let db: Db | undefined;
  try {
    if (path !== ':memory:' && !readonly) mkdirSync(dirname(path), { recursive: true });
    db = new Database(path, { readonly, fileMustExist: readonly });
    db.pragma('busy_timeout = 5000');
    if (!readonly) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -65536'); // 64 MiB: the FTS index and the call table's hot pages
  } catch (err) {
    db?.close();
    throw explainOpenFailure(path, readonly, err);
  }
  if (!readonly) {
    try {
      checkWritable(path);
    } catch (err) {
      db.close();
      throw err;
    }
  }
  registerFundingFunctions(db); // called by the funding triggers (db/funding/sql-functions.ts)
  return db;
}

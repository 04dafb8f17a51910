/**
 * Numbered SQL migrations (`db/migrations/NNN_name.sql`), applied pending-only at start inside one
 * transaction and recorded in `schema_migrations`. A database that has a migration this code does
 * not know was written by a newer trio: we refuse to touch it rather than guess.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './connection.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(join(dir, f), 'utf8') }));
}

export class NewerDatabaseError extends Error {}

/** Applies pending migrations; returns the versions applied. */
export function migrate(db: Db, migrations = loadMigrations(), now = Date.now()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    const newest = Math.max(...unknown);
    const name = db.prepare('SELECT name FROM schema_migrations WHERE version = ?').pluck().get(newest) as string;
    throw new NewerDatabaseError(
      `This database is at migration ${newest} (${name}), but this version of trio knows migrations up to ` +
        `${Math.max(0, ...known)}: the database was written by a newer trio. Nothing was changed. ` +
        'Run the newer trio again (upgrade this installation), or, to go back to this version, restore a backup ' +
        'taken before the upgrade (`restore FILE`, docs/operations.md).',
    );
  }
  const pending = migrations.filter((m) => !applied.has(m.version));
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, now);
    }
  }).immediate();
  return pending.map((m) => m.version);
}

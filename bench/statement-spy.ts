/**
 * Sees every statement code prepares on a connection and runs with `all` or `get`: its SQL, its first
 * parameter and how long it ran. For the funding search profiles (funding-explain.ts,
 * funding-mix-profile.ts), which read the plans and times of the statements db/funding/search.ts builds.
 * Wraps db.prepare in place, so it must be called before the code under study prepares anything.
 * Returns the unwrapped prepare, for statements the profile itself runs (EXPLAIN) unseen.
 */
import type Database from 'better-sqlite3';

export function spyOnStatements(
  db: Database.Database,
  onRun: (sql: string, params: unknown, ms: number) => void,
): (sql: string) => Database.Statement {
  const prepare = db.prepare.bind(db);
  (db as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const stmt = prepare(sql);
    for (const method of ['all', 'get'] as const) {
      const run = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
      (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const t = process.hrtime.bigint();
        try {
          return run(...args);
        } finally {
          onRun(sql, args[0], Number(process.hrtime.bigint() - t) / 1e6);
        }
      };
    }
    return stmt;
  };
  return prepare;
}

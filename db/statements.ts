/**
 * The one way trio prepares SQL (docs/decisions.md "One statement-preparation convention").
 *
 * - Fixed SQL: a module declares its statements once, `const statements = statementsFor((db) => ({…}))`,
 *   and its functions call `statements(db).name.run(…)`. They are prepared on first use, once per
 *   connection (the server's, a test's, a read-only node's each get their own), and die with it.
 * - SQL built at run time (the search plans, an UPDATE of the columns that changed): `preparedSql(db, sql)`,
 *   a bounded cache per connection keyed by the text, least recently used out first.
 * - One-off paths (migrations, backup and restore, fixture and catalogue loads, CLI commands, checks)
 *   call `db.prepare` where they run: they run once, so keeping their statements would only hold memory.
 *
 * tests/db/statements.test.ts fails on a `.prepare(` anywhere else.
 */
import type Database from 'better-sqlite3';
import type { Db } from './connection.ts';

export type Statement = Database.Statement<unknown[]>;

/** The statements `build` prepares, prepared on first use and kept for as long as the connection lives. */
export function statementsFor<T>(build: (db: Db) => T): (db: Db) => T {
  const perConnection = new WeakMap<Db, T>();
  return (db) => {
    let statements = perConnection.get(db);
    if (statements === undefined) perConnection.set(db, (statements = build(db)));
    return statements;
  };
}

/** How many run-time statements a connection keeps (the search has a few dozen shapes, tasks a dozen UPDATEs). */
export const PREPARED_SQL_LIMIT = 256;

const bySql = new WeakMap<Db, Map<string, Statement>>();

/** `sql` prepared on this connection, reused while it is among the PREPARED_SQL_LIMIT most recently used. */
export function preparedSql(db: Db, sql: string): Statement {
  let cache = bySql.get(db);
  if (cache === undefined) bySql.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (statement !== undefined) {
    cache.delete(sql); // most recently used last
  } else {
    statement = db.prepare(sql);
    if (cache.size >= PREPARED_SQL_LIMIT) cache.delete(cache.keys().next().value as string);
  }
  cache.set(sql, statement);
  return statement;
}

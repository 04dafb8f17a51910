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

/** A statement whose rows come back as objects built by `rowsAsObjects`. */
export interface ObjectRows<T> {
  get(...params: unknown[]): T | undefined;
  all(...params: unknown[]): T[];
}

/**
 * The statement's rows as the same plain objects better-sqlite3 would give (one property per column,
 * in order), read as arrays (`.raw()`) and built by one constructor compiled for its columns. For the
 * wide rows read on every request: better-sqlite3 creates each row's properties by name, one by one
 * (10.5 µs for a task's 36 columns; 6.5 µs this way: BENCHMARKS.md, "The cost of one request"). The
 * statement is the reader's from then on (`.raw()` changes it).
 */
export function rowsAsObjects<T>(statement: Statement): ObjectRows<T> {
  const columns = statement.columns().map((c) => c.name);
  // Column names come from the schema, each written as a JSON string: the compiled text is only a literal.
  const build = new Function(
    'r',
    `return {${columns.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')}};`,
  ) as (row: unknown[]) => T;
  const raw = statement.raw(true);
  return {
    get: (...params) => {
      const row = raw.get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : build(row);
    },
    all: (...params) => (raw.all(...params) as unknown[][]).map(build),
  };
}

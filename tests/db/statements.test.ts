/**
 * The statement-preparation convention (db/statements.ts): fixed SQL through statementsFor, SQL built
 * at run time through preparedSql, and `npm run lint` refusing a `.prepare(` anywhere else but the
 * one-off paths eslint.config.js lists.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Db } from '../../db/connection.ts';
import { PREPARED_SQL_LIMIT, preparedSql, rowsAsObjects, statementsFor } from '../../db/statements.ts';

test('statementsFor prepares on first use, once per connection, and each connection gets its own', () => {
  const built: Db[] = [];
  const statements = statementsFor((db) => {
    built.push(db);
    return { one: db.prepare('SELECT 1').pluck() };
  });
  const a = openDatabase(':memory:');
  const b = openDatabase(':memory:');
  try {
    assert.equal(built.length, 0, 'nothing is prepared before it is used');
    const first = statements(a);
    assert.equal(statements(a), first, 'the same statements the second time');
    assert.equal(first.one.get(), 1);
    const other = statements(b);
    assert.notEqual(other.one, first.one, 'another connection prepares its own');
    assert.deepEqual(built, [a, b]);
  } finally {
    a.close();
    b.close();
  }
});

test('preparedSql reuses a statement per text and connection, keeping the most recently used', () => {
  const db = openDatabase(':memory:');
  const other = openDatabase(':memory:');
  try {
    const sql = (n: number) => `SELECT ${n}`;
    const first = preparedSql(db, sql(0));
    assert.equal(preparedSql(db, sql(0)), first, 'same text, same statement');
    assert.notEqual(preparedSql(other, sql(0)), first, 'per connection');
    assert.equal(first.pluck().get(), 0);
    const one = preparedSql(db, sql(1));
    // Fill the cache: 0 is used again on the way, so 1 is the least recently used when it overflows.
    for (let n = 2; n < PREPARED_SQL_LIMIT; n++) preparedSql(db, sql(n));
    assert.equal(preparedSql(db, sql(0)), first);
    preparedSql(db, sql(PREPARED_SQL_LIMIT)); // one more than the limit: 1 goes
    assert.equal(preparedSql(db, sql(0)), first, 'recently used: kept');
    assert.notEqual(preparedSql(db, sql(1)), one, 'least recently used: prepared again');
  } finally {
    db.close();
    other.close();
  }
});

test('rowsAsObjects gives the objects better-sqlite3 gives: the same keys in the same order, the same values', () => {
  const db = openDatabase(':memory:');
  try {
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, "odd ""name""" TEXT, n REAL, b BLOB, gone TEXT);
      INSERT INTO t VALUES (1, 'a', 'x"y', 1.5, x'00ff', NULL), (2, 'é', '', -0.25, NULL, 'z')`);
    const statements = statementsFor((d) => ({
      plain: d.prepare('SELECT * FROM t WHERE id >= ? ORDER BY id'),
      built: rowsAsObjects<Record<string, unknown>>(d.prepare('SELECT * FROM t WHERE id >= ? ORDER BY id')),
      // Two columns of one name: the later wins, as better-sqlite3 does it.
      plainTwice: d.prepare('SELECT name AS v, id AS v FROM t ORDER BY id'),
      builtTwice: rowsAsObjects<Record<string, unknown>>(d.prepare('SELECT name AS v, id AS v FROM t ORDER BY id')),
    }));
    const s = statements(db);
    const expected = s.plain.all(1) as Array<Record<string, unknown>>;
    const got = s.built.all(1);
    assert.deepEqual(got, expected);
    assert.deepEqual(got.map(Object.keys), expected.map(Object.keys));
    assert.deepEqual(s.built.get(2), s.plain.get(2));
    assert.equal(s.built.get(3), undefined);
    assert.deepEqual(s.builtTwice.all(), s.plainTwice.all());
  } finally {
    db.close();
  }
});

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The lines the project's lint config refuses in `code`, linted as if it were the file at `path`. */
function refusedLines(path: string, code: string): number[] {
  const run = spawnSync(
    join(root, 'node_modules', '.bin', 'eslint'),
    ['--format', 'json', '--stdin', '--stdin-filename', path],
    { cwd: root, input: code, encoding: 'utf8', timeout: 120_000 },
  );
  const [result] = JSON.parse(run.stdout) as Array<{ messages: Array<{ ruleId: string | null; line: number }> }>;
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
}

test('lint refuses db.prepare outside statementsFor and preparedSql, except on the one-off paths', () => {
  const code = [
    "import type { Db } from './connection.ts';",
    "import { preparedSql, statementsFor } from './statements.ts';",
    "const statements = statementsFor((db) => ({ one: db.prepare('SELECT 1'), nested: { two: db.prepare('SELECT 2') } }));",
    'export const fixed = (db: Db) => statements(db).one.get();',
    'export const built = (db: Db, n: number) => preparedSql(db, `SELECT ${n}`).get();',
    "export const stray = (db: Db) => db.prepare('SELECT 3').get();",
    'export const hook = (o: { prepare?: () => void }) => o.prepare?.();',
  ].join('\n');
  assert.deepEqual(refusedLines('db/example.ts', code), [6], 'only the stray prepare');
  assert.deepEqual(refusedLines('routes/example.ts', code), [6], 'routes too');
  assert.deepEqual(refusedLines('db/migrate.ts', code), [], 'a one-off path prepares where it runs');
});

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
import { PREPARED_SQL_LIMIT, preparedSql, statementsFor } from '../../db/statements.ts';

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

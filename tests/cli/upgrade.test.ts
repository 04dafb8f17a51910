/**
 * Upgrades as operators meet them: `serve` on a database from an older trio applies the pending
 * migrations at start and serves; `serve` on a database from a newer trio refuses to start, changes
 * nothing, and says what the database is at, what this code knows and what to do, in one line on
 * stderr (no stack trace) and exit status 1.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';
import { startServeProcess } from '../helpers/serve-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'trio-upgrade-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const MIGRATIONS = loadMigrations();
const LATEST = MIGRATIONS.at(-1)!.version;

/** A database as an older trio left it: migrations up to `version` only. */
function databaseAt(name: string, version: number): string {
  const path = join(dir, name);
  const db = openDatabase(path);
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= version),
  );
  db.close();
  return path;
}

const versions = (path: string) => {
  const db = openDatabase(path, { readonly: true });
  try {
    return db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];
  } finally {
    db.close();
  }
};

function serve(path: string, ...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'main.ts', 'serve', ...flags],
      { cwd: ROOT, env: { ...process.env, PORT: '0', DATABASE_PATH: path, DEMO: 'off' }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('serve applies the pending migrations of an older database at start, then serves', async () => {
  const path = databaseAt('older.sqlite', LATEST - 2);
  assert.deepEqual(
    versions(path),
    MIGRATIONS.filter((m) => m.version <= LATEST - 2).map((m) => m.version),
  );
  const server = await startServeProcess(
    ['--import', 'tsx', 'main.ts', 'serve'],
    { DATABASE_PATH: path, DEMO: 'off' },
    ROOT,
  );
  try {
    assert.deepEqual(
      versions(path),
      MIGRATIONS.map((m) => m.version),
      `migrations ${LATEST - 1} and ${LATEST} were applied`,
    );
    const capabilities = await fetch(`${server.url}/human/v1/capabilities`);
    assert.equal(capabilities.status, 200, 'the tables of the newest migration are there');
  } finally {
    assert.equal((await server.stop()).code, 0, server.output());
  }
});

test('serve refuses a database written by a newer trio, with a clear message and no change', async () => {
  const path = databaseAt('newer.sqlite', 3);
  const db = openDatabase(path);
  db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
    LATEST + 1,
    'from_the_future',
    Date.now(),
  );
  db.close();

  const refused = await serve(path);
  assert.equal(refused.code, 1);
  const message = refused.stderr.trim();
  assert.match(
    message,
    new RegExp(
      `^error: This database is at migration ${LATEST + 1} \\(from_the_future\\), but this version of trio knows migrations up to ${LATEST}`,
    ),
  );
  assert.match(message, /written by a newer trio\. Nothing was changed\./);
  assert.match(message, /Run the newer trio again .* restore a backup taken before the upgrade/);
  assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
  assert.doesNotMatch(refused.stdout, /trio is serving/);
  assert.deepEqual(versions(path), [1, 2, 3, LATEST + 1], 'the pending migrations 4… were not applied to it');

  const json = await serve(path, '--json');
  assert.equal(json.code, 1);
  assert.match(JSON.parse(json.stdout).error, /is at migration \d+ .* knows migrations up to/);
});

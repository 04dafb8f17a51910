/**
 * `backup` while the server serves a stream of live orders, and `restore`: the copy passes
 * integrity_check, holds every order acknowledged before the backup started, and its ledger is
 * sound; restore (and a second serve) is refused while the server runs, and once it is stopped puts the copy in place,
 * and the server serves the restored orders. Server, backup and restore are separate processes, as
 * in production (a backup step that sees another process's write starts over: that is exercised).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createAccount, createKey } from '../../db/accounts.ts';
import { openDatabase } from '../../db/connection.ts';
import { loadMigrations } from '../../db/migrate.ts';
import { ledgerViolations } from '../../db/human/invariants.ts';
import { credit } from '../../db/human/ledger.ts';
import { verifyOrder } from '../e2e/human/harness.ts';
import { runInProcess } from '../helpers/cli.ts';
import { copyDemoDatabase } from '../helpers/demo-template.ts';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'trio-backup-'));
const databasePath = join(dir, 'trio.sqlite');
const env = { DATABASE_PATH: databasePath, DEMO: 'off', LOG_LEVEL: 'warn' };
let server: ServeProcess | undefined;
after(async () => {
  await server?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * The same command line through main.ts's dispatch in this process (tests/helpers/cli.ts): for the
 * --help texts and the refusals that stop before the database is touched. The backups, the restores,
 * the refused restore and the second serve stay separate processes, as in production.
 */
const cliInProcess = (...args: string[]) => runInProcess({ ...process.env, ...env }, args);

/**
 * The demo database (a few thousand pages, so the backup takes many steps) plus a funded account
 * with many live keys: each key may place 120 orders a minute, and the load must not stall on that.
 */
function prepareDatabase(): string[] {
  const now = Date.parse('2026-11-22T10:00:00Z');
  copyDemoDatabase(databasePath, now);
  const db = openDatabase(databasePath);
  try {
    const account = createAccount(db, 'backup@example.org', now);
    const keys = Array.from(
      { length: 40 },
      (_, i) => createKey(db, { accountId: account.id, service: 'human', name: `k${i}`, environment: 'live' }, now).key,
    );
    db.transaction(() => credit(db, account.id, 100_000_000, 'top-up', now)).immediate();
    return keys;
  } finally {
    db.close();
  }
}

const readRefs = (path: string) => {
  const db = openDatabase(path, { readonly: true });
  try {
    return {
      refs: new Set(db.prepare('SELECT ref FROM human_tasks').pluck().all() as string[]),
      integrity: db.prepare('PRAGMA integrity_check').pluck().all(),
      violations: ledgerViolations(db),
    };
  } finally {
    db.close();
  }
};

test('backup and restore have --help', async () => {
  for (const command of ['backup', 'restore']) {
    const help = await cliInProcess(command, '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, new RegExp(`usage: main.ts ${command} FILE`));
  }
  const missing = await cli('backup');
  assert.equal(missing.code, 2, 'FILE is required');
});

test('a backup under load holds every acknowledged order; restore is refused while serving, then serves them', async () => {
  const keys = prepareDatabase();
  server = await startServeProcess(['--import', 'tsx', 'main.ts', 'serve'], env, ROOT);
  const url = server.url;

  const acknowledged: string[] = [];
  let stop = false;
  let failure: Error | undefined;
  let placed = 0;
  const order = async () => {
    while (!stop && !failure) {
      const key = keys[placed++ % keys.length]!;
      const res = await fetch(`${url}/human/v1/tasks`, {
        method: 'POST',
        body: JSON.stringify(verifyOrder()),
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
      });
      const body = (await res.json()) as { data?: { ref: string } };
      if (res.status === 201) acknowledged.push(body.data!.ref);
      else if (res.status === 429)
        await new Promise((r) => setTimeout(r, 50)); // not acknowledged; another key next
      else failure = new Error(`an order was answered ${res.status}: ${JSON.stringify(body)}`);
    }
  };
  const load = Promise.all(Array.from({ length: 6 }, order));
  const acknowledgedAtLeast = async (n: number) => {
    const deadline = Date.now() + 120_000;
    while (acknowledged.length < n && !failure && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (failure) throw failure;
    assert.ok(acknowledged.length >= n, `only ${acknowledged.length} orders acknowledged in 120 s`);
  };
  await acknowledgedAtLeast(50);

  const backupFile = join(dir, 'backup.sqlite');
  const beforeBackup = [...acknowledged];
  const backup = await cli('backup', backupFile, '--json');
  const duringBackup = acknowledged.length - beforeBackup.length;
  try {
    await acknowledgedAtLeast(beforeBackup.length + duringBackup + 20);
  } finally {
    stop = true;
    await load;
  }

  assert.equal(backup.code, 0, backup.stdout + backup.stderr);
  const summary = JSON.parse(backup.stdout);
  assert.equal(summary.integrity, 'ok');
  assert.equal(summary.migration, loadMigrations().at(-1)!.version, 'the newest migration');
  assert.ok(duringBackup > 0, 'orders were acknowledged while the backup ran');
  assert.ok(
    !existsSync(`${backupFile}-wal`) && !existsSync(`${backupFile}-journal`),
    'the backup is one self-contained file',
  );

  const copy = readRefs(backupFile);
  assert.deepEqual(copy.integrity, ['ok']);
  const missing = beforeBackup.filter((ref) => !copy.refs.has(ref));
  assert.deepEqual(
    missing,
    [],
    `${missing.length} of ${beforeBackup.length} orders acknowledged before the backup are missing from it`,
  );
  assert.deepEqual(copy.violations, [], 'the copy is one consistent snapshot: every order has its hold');
  assert.ok(copy.refs.size < acknowledged.length, 'orders placed after the backup are not in it (it is a snapshot)');

  // A second backup to the same name is refused unless --force.
  const again = await cliInProcess('backup', backupFile);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /exists already.*--force/);

  // Restore is refused while the server runs on the database, and the database is left alone.
  const refused = await cli('restore', backupFile);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /is in use: another process holds .*trio\.sqlite\.lock.*Stop the server first/);

  // So is a second server on the same file (it would split rate limits and race the first one).
  const second = await cli('serve');
  assert.equal(second.code, 1);
  assert.match(second.stderr, /is in use: another process holds .*trio\.sqlite\.lock/);

  const stopped = await server.stop();
  assert.equal(stopped.code, 0, server.output());
  assert.equal(readRefs(databasePath).refs.size, acknowledged.length, 'the refused restore changed nothing');

  // A file that is not a trio database is refused before anything is touched.
  const junk = join(dir, 'junk.sqlite');
  writeFileSync(junk, 'not a database at all, only text that is long enough to have a header'.repeat(20));
  const notTrio = await cliInProcess('restore', junk);
  assert.equal(notTrio.code, 1);
  assert.match(notTrio.stderr, /cannot be opened as an SQLite database|not a trio database|integrity_check/);

  const restored = await cli('restore', backupFile, '--json');
  assert.equal(restored.code, 0, restored.stdout + restored.stderr);
  assert.equal(JSON.parse(restored.stdout).replaced, true);
  assert.ok(!existsSync(`${databasePath}-wal`), 'the old WAL is gone with the old file');
  assert.deepEqual(readRefs(databasePath).refs, copy.refs, 'the database is now exactly the backup');

  server = await startServeProcess(['--import', 'tsx', 'main.ts', 'serve'], env, ROOT);
  for (const ref of [beforeBackup[0]!, beforeBackup.at(-1)!]) {
    const res = await fetch(`${server.url}/human/v1/tasks/${ref}`, { headers: { authorization: `Bearer ${keys[0]}` } });
    assert.equal(res.status, 200, `${ref} is served after the restore`);
    assert.equal(((await res.json()) as { data: { ref: string } }).data.ref, ref);
  }
  assert.equal((await server.stop()).code, 0);
});

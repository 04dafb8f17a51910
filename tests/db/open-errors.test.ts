/**
 * A database file that cannot be opened, or could be opened but not written, stops trio with the path,
 * the cause and what to do (db/open-error.ts; issue 28: `READ_ONLY` on a missing file printed only
 * "unable to open database file"). In process for what root can see; as an unprivileged user (uid
 * 65534, when the tests run as root, as CI does) for permissions, which root bypasses; and through
 * `main.ts serve` as an operator meets it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { DatabaseOpenError } from '../../db/open-error.ts';

const REPO = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'trio-open-'));
chmodSync(dir, 0o755); // the unprivileged user below must reach the files in it
after(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (path: string, readonly = false): string => {
  try {
    openDatabase(path, { readonly });
  } catch (err) {
    assert.ok(err instanceof DatabaseOpenError, String(err));
    return err.message;
  }
  assert.fail(`${path} opened`);
};

test('in process: a missing copy, a directory, a file that is not a database, a path under a file', () => {
  const cases: Array<{ name: string; path: () => string; readonly?: boolean; says: RegExp }> = [
    {
      name: 'READ_ONLY on a missing file',
      path: () => join(dir, 'missing.sqlite'),
      readonly: true,
      says: /^DATABASE_PATH \/.*missing\.sqlite does not exist\. A READ_ONLY node serves a copy of the primary's database: put the copy there first/,
    },
    {
      name: 'a directory',
      path: () => (mkdirSync(join(dir, 'adir')), join(dir, 'adir')),
      says: /adir is a directory, not a database file: point DATABASE_PATH at the file in it \(for example .*adir\/trio\.sqlite\)/,
    },
    {
      name: 'not a database',
      path: () => (writeFileSync(join(dir, 'notes.sqlite'), 'shopping list\n'.repeat(200)), join(dir, 'notes.sqlite')),
      says: /notes\.sqlite is not an SQLite database \(file is not a database\): DATABASE_PATH points at another file, or the file is damaged; restore a backup/,
    },
    {
      name: 'under a file',
      path: () => (writeFileSync(join(dir, 'plain'), 'x'), join(dir, 'plain', 'trio.sqlite')),
      says: /^cannot create the directory of DATABASE_PATH .*plain\/trio\.sqlite: \/.*\/plain is a file, not a directory\. Create it/,
    },
  ];
  for (const c of cases) assert.match(refusal(c.path(), c.readonly), c.says, c.name);
  const relative = join(dir, 'x').slice(1) + '/../missing.sqlite';
  assert.match(
    refusal(relative, true),
    / \(\/.*\/missing\.sqlite\) does not exist/,
    'a relative path is shown resolved too',
  );
});

const isRoot = process.getuid?.() === 0;

/** `main.ts migrate` as uid 65534 on DATABASE_PATH: its exit status and stderr. */
function migrateAsNobody(path: string) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'main.ts', 'migrate'], {
    cwd: REPO,
    uid: 65534,
    gid: 65534,
    env: { PATH: process.env.PATH, DATABASE_PATH: path, HOME: dir },
    encoding: 'utf8',
  });
  return { status: run.status, stderr: run.stderr };
}

test(
  'as an unprivileged user: unreadable, read-only, and in a directory it may not write',
  { skip: isRoot ? false : 'needs root to run as another user (CI runs as root)' },
  () => {
    const owned = (name: string, mode: number) => {
      const path = join(dir, name);
      openDatabase(path).close(); // a real database, made by root
      chmodSync(path, mode);
      return path;
    };
    const cases: Array<[string, string, RegExp]> = [
      [
        'unreadable',
        owned('secret.sqlite', 0o600),
        /^error: DATABASE_PATH .*secret\.sqlite cannot be read by this process: permission denied \(it belongs to uid 0, mode 0600; trio runs as uid 65534\)\. Run trio as the file's owner/,
      ],
      [
        'read-only',
        owned('shared.sqlite', 0o644),
        /^error: DATABASE_PATH .*shared\.sqlite is read-only to this process \(it belongs to uid 0, mode 0644; trio runs as uid 65534; or its file system is mounted read-only, or the file is immutable\): trio writes to it\. Make it writable, or set READ_ONLY=on/,
      ],
      [
        'a directory it may not write',
        owned('open.sqlite', 0o666),
        /^error: the directory of DATABASE_PATH .*open\.sqlite is not writable by this process \(it belongs to uid 0, mode 0755; trio runs as uid 65534\)/,
      ],
    ];
    for (const [name, path, says] of cases) {
      const run = migrateAsNobody(path);
      assert.equal(run.status, 1, `${name}: ${run.stderr}`);
      assert.match(run.stderr, says, name);
    }
  },
);

test('serve with READ_ONLY on a missing copy: exit 1 and one line that says what to do', () => {
  const path = join(dir, 'replica', 'trio.sqlite');
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'main.ts', 'serve'], {
    cwd: REPO,
    env: { ...process.env, DATABASE_PATH: path, READ_ONLY: 'on', PORT: '0', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 1, run.stderr);
  assert.equal(
    run.stderr,
    `error: DATABASE_PATH ${path} does not exist. A READ_ONLY node serves a copy of the primary's database: put the copy there first (a LiteFS mount, litestream restore), or point DATABASE_PATH at it.\n`,
  );
});

/**
 * `main.ts funding sync` as operators run it: a real child process against a real local server in
 * the sources' formats. A sync killed with SIGKILL mid-way resumes without duplicates or losses and
 * ends where an uninterrupted sync ends; a further run changes nothing.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { openDatabase, type Db } from '../../db/connection.ts';
import { migrate } from '../../db/migrate.ts';
import { acquireSyncLock } from '../../db/funding/sync/state.ts';
import { addDays, toLocal } from '../../lib/funding/zoned-time.ts';
import { startFakeSources, type FakeSources } from '../helpers/funding-sources.ts';
import { mirroredBoeNotices } from '../helpers/boe-mirror.ts';
import { runInProcess } from '../helpers/cli.ts';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let fake: FakeSources;
// The real records' December 2025 (tests/helpers/funding-sources.ts): a first run backfills from there.
const SINCE = '2025-12-09';
const BACKFILL_DAYS = Math.round(
  (Date.parse(toLocal(Date.now(), 'Europe/Madrid').date) - Date.parse(SINCE)) / 86_400_000,
);
const NOTICES = mirroredBoeNotices();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trio-sync-cli-'));
  fake = await startFakeSources();
});
after(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function env(db: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_PATH: db,
    ...fake.env,
    FUNDING_SYNC_RATE: '1000',
    FUNDING_SYNC_RETRY_BASE_MS: '5',
    FUNDING_SYNC_TIMEOUT_MS: '5000',
    FUNDING_SYNC_PAGE_SIZE: '2',
    FUNDING_SYNC_BACKFILL_DAYS: String(BACKFILL_DAYS),
    FUNDING_SYNC_CONTACT: 'ops@example.org',
  };
}

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], db: string, onStart?: (kill: () => void) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts', ...args], { cwd: ROOT, env: env(db) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
    onStart?.(() => child.kill('SIGKILL'));
  });
}

function snapshot(db: Db) {
  return {
    calls: db.prepare('SELECT id, content_hash, deadline, personal_data FROM funding_calls ORDER BY id').all(),
    notices: db
      .prepare('SELECT source_id, bdns_id, published_on, content_hash FROM funding_notices ORDER BY source_id')
      .all(),
  };
}

test('--help names the options; bad options are refused with exit 2 and nothing is fetched', async () => {
  const db = join(dir, 'help.sqlite');
  // --help and the first refusal through main.ts's dispatch in this process (tests/helpers/cli.ts):
  // they stop before any sync starts. The second refusal, and every sync, run as a real process.
  const help = await runInProcess(env(db), ['funding', 'sync', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /funding sync \[--source eu\|cordis\|bdns\|boe\] \[--since YYYY-MM-DD\]/);
  const mark = fake.requests.length;
  const badSource = await runInProcess(env(db), ['funding', 'sync', '--source', 'boa']);
  assert.equal(badSource.code, 2);
  assert.match(badSource.stderr, /--source is one of eu, cordis, bdns, boe.*not boa/);
  const badSince = await cli(['funding', 'sync', '--since', '25/11/2026', '--json'], db);
  assert.equal(badSince.code, 2);
  assert.match(JSON.parse(badSince.stdout).error, /--since is a day, YYYY-MM-DD/);
  assert.equal(fake.requests.length, mark);
});

test('a sync killed mid-way resumes without duplicates or losses; re-running changes nothing', async () => {
  const killed = join(dir, 'killed.sqlite');
  fake.setDelay(120);
  let watcher: Db | undefined;
  const run1 = await cli(['funding', 'sync', '--json', '--source', 'boe,bdns'], killed, (kill) => {
    const timer = setInterval(() => {
      try {
        watcher ??= openDatabase(killed, { readonly: true });
        const imported = watcher
          .prepare("SELECT count(*) FROM funding_imports WHERE source = 'boe'")
          .pluck()
          .get() as number;
        if (imported >= 5) {
          clearInterval(timer);
          kill();
        }
      } catch {
        /* not created or migrated yet */
      }
    }, 20);
  });
  watcher?.close();
  assert.equal(run1.signal, 'SIGKILL');

  // What the killed run left is consistent: exactly the days up to its watermark, each whole.
  const db = openDatabase(killed);
  const mark = JSON.parse(
    db.prepare("SELECT watermark FROM funding_sync_state WHERE source = 'boe'").pluck().get() as string,
  ).day as string;
  // Killed in BOE, before BDNS: the notices are exactly the BOE days up to the watermark, each whole.
  const stored = db.prepare('SELECT source_id FROM funding_notices ORDER BY 1').pluck().all() as string[];
  assert.ok(stored.length >= 5, `stored ${stored.length} notices, watermark ${mark}`);
  assert.deepEqual(stored, issuedBy(mark));
  db.close();

  // The next run takes over the dead holder's lock at once, and resumes after the watermark.
  fake.setDelay(0);
  const resumeFrom = fake.requests.length;
  const run2 = await cli(['funding', 'sync', '--json', '--source', 'boe,bdns'], killed);
  assert.equal(run2.code, 0, run2.stderr);
  const boeAsked = fake.requests
    .slice(resumeFrom)
    .filter((r) => r.key.startsWith('boe:'))
    .map((r) => r.key);
  assert.equal(boeAsked[0], `boe:${addDays(mark, 1).replaceAll('-', '')}`);

  const clean = join(dir, 'clean.sqlite');
  const run3 = await cli(['funding', 'sync', '--json', '--source', 'boe,bdns'], clean);
  assert.equal(run3.code, 0, run3.stderr);
  const a = openDatabase(killed);
  const b = openDatabase(clean);
  const resumed = snapshot(a);
  assert.deepEqual(resumed, snapshot(b));
  assert.equal(
    new Set(resumed.notices.map((n) => (n as { source_id: string }).source_id)).size,
    resumed.notices.length,
  );
  a.close();
  b.close();

  const run4 = await cli(['funding', 'sync', '--json', '--source', 'boe,bdns'], killed);
  const summary = JSON.parse(run4.stdout) as { sources: Array<{ inserted: number; updated: number; status: string }> };
  assert.deepEqual(
    summary.sources.map((s) => [s.status, s.inserted, s.updated]),
    [
      ['ok', 0, 0],
      ['ok', 0, 0],
    ],
  );
  const again = openDatabase(killed);
  assert.deepEqual(snapshot(again), resumed);
  again.close();
});

test('without a terminal: a progress line per running source at a steady pace, a line as each ends, and no routine index line', async () => {
  const file = join(dir, 'progress.sqlite');
  fake.setDelay(40);
  const run = await new Promise<Run>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts', 'funding', 'sync', '--source', 'cordis,boe'], {
      cwd: ROOT,
      // 100 BOE days at 40 ms (the backfill to the real records grows by a day each day): a few seconds.
      env: { ...env(file), FUNDING_SYNC_BACKFILL_DAYS: '100', FUNDING_SYNC_PROGRESS_EVERY: '1s' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  fake.setDelay(0);
  assert.equal(run.code, 0, run.stderr);
  // A hundred BOE days at 40 ms: several seconds, so several lines, each saying where BOE is.
  const ticks = run.stderr
    .split('\n')
    .filter((l) => /^funding sync: boe \d+\/\d+ \d{4}-\d{2}-\d{2} \(\d+ s\)$/.test(l));
  assert.ok(ticks.length >= 2, run.stderr);
  const done = run.stderr.split('\n').filter((l) => /^funding sync: (cordis|boe) +ok/.test(l));
  assert.equal(done.length, 2, run.stderr);
  assert.match(run.stdout, /^cordis +ok +projects: 100 new, 0 updated, 0 unchanged, 0 withheld; documents: 1 fetched/m);
  assert.match(
    run.stdout,
    /^boe +ok +calls: \d+ new, \d+ updated, \d+ unchanged, 0 withheld; notices: \d+ new or changed;/m,
  );
  assert.doesNotMatch(run.stdout, /full-text index/, 'a quick routine merge is not reported');
});

test('another process holding the sync lock: the run does nothing, says so, and exits 0', async () => {
  const file = join(dir, 'locked.sqlite');
  const db = openDatabase(file);
  migrate(db);
  const lock = acquireSyncLock(db, Date.now(), 60_000); // held by this (live) test process
  const mark = fake.requests.length;
  const run = await cli(['funding', 'sync', '--json'], file);
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { locked: string; sources: unknown[] };
  assert.match(out.locked, new RegExp(`another funding sync is running \\(${hostname()}:${process.pid}:`));
  assert.deepEqual(out.sources, []);
  assert.equal(fake.requests.length, mark, 'nothing fetched');
  lock.release();
  db.close();
});

test('a failed source makes the run exit 1 with the summary still printed', async () => {
  fake.fail('bdns-list:0', { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
  const run = await cli(['funding', 'sync', '--json', '--source', 'bdns'], join(dir, 'fail.sqlite'));
  assert.equal(run.code, 1);
  const s = JSON.parse(run.stdout) as {
    sources: Array<{ source: string; status: string; failed: number; error: string }>;
  };
  assert.deepEqual(
    s.sources.map((x) => [x.source, x.status, x.failed]),
    [['bdns', 'failed', 1]],
  );
  assert.match(s.sources[0]!.error, /HTTP 503/);
});

test('SIGTERM stops a sync between batches and frees its lock; what it stored stays whole', async () => {
  const file = join(dir, 'term.sqlite');
  fake.setDelay(120);
  let watcher: Db | undefined;
  const run = await new Promise<Run>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'main.ts', 'funding', 'sync', '--json', '--source', 'boe'],
      { cwd: ROOT, env: env(file) },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
    const timer = setInterval(() => {
      try {
        watcher ??= openDatabase(file, { readonly: true });
        if (
          (watcher.prepare("SELECT count(*) FROM funding_imports WHERE source = 'boe'").pluck().get() as number) >= 3
        ) {
          clearInterval(timer);
          child.kill('SIGTERM');
        }
      } catch {
        /* not created or migrated yet */
      }
    }, 20);
  });
  watcher?.close();
  fake.setDelay(0);
  assert.equal(run.code, 143);
  assert.match(run.stderr, /SIGTERM: funding sync stopped/);
  const db = openDatabase(file);
  assert.equal(db.prepare('SELECT count(*) FROM funding_sync_lock').pluck().get(), 0, 'the lock is freed');
  const mark = JSON.parse(
    db.prepare("SELECT watermark FROM funding_sync_state WHERE source = 'boe'").pluck().get() as string,
  ).day as string;
  const stored = db.prepare('SELECT source_id FROM funding_notices ORDER BY 1').pluck().all();
  assert.deepEqual(stored, issuedBy(mark), 'every day up to the watermark, and only those');
  db.close();
});

/** The BOE items the test server published from SINCE to `last`, by id. */
function issuedBy(last: string): string[] {
  return NOTICES.filter((n) => n.day >= SINCE && n.day <= last)
    .map((n) => n.id)
    .sort();
}

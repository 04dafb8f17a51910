/**
 * The demo database, built once per version of the code and data and copied for each test server,
 * so that every end-to-end test starts from the real demo (funding corpus, impact register and its
 * published runs) without paying for the impact runs each time; likewise the impact register alone
 * (what `demo --no-publish` leaves), for the tests of figures withheld. A template is keyed by a hash
 * of everything that shapes it (migrations, db/, lib/, fixtures/, the methodology) and built under
 * the tests' default clock. One process builds it while the others that need it wait (a lock file
 * beside it, taken over if its holder died): a build costs about 14 s of CPU, and the test files
 * that start together in `npm test` would otherwise each build the same one.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadMissingDemo } from '../../db/demo.ts';
import { openDatabase, type Db } from '../../db/connection.ts';
import { loadImpactDemo } from '../../db/impact/demo.ts';
import { migrate } from '../../db/migrate.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const INPUTS = ['db', 'lib', 'fixtures', join('data', 'funding'), join('data', 'impact'), join('docs', 'methodology')];

/**
 * Which funding corpus the template holds: the real demo (data/funding), or the hand-made trap
 * fixtures (fixtures/funding/traps.json) for tests of traps the real records lack.
 */
export type FundingCorpus = 'demo' | 'traps';
export const TRAPS_MANIFEST = join(ROOT, 'fixtures', 'funding', 'traps.json');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

let hashed: string | undefined;

/** The inputs' hash, once per process (the files do not change while the tests run). */
function inputsHash(): string {
  if (hashed) return hashed;
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((d) => files(join(ROOT, d))).sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return (hashed = hash.digest('hex').slice(0, 16));
}

/** Copies the demo database for `now` to `target` (building the template first if needed). */
export function copyDemoDatabase(target: string, now: number, corpus: FundingCorpus = 'demo'): void {
  const template = ensureTemplate(`trio-${corpus}-${inputsHash()}-${now}.sqlite`, now, (db) => {
    if (corpus === 'traps') loadMissingDemo(db, () => now, TRAPS_MANIFEST);
    else loadMissingDemo(db, () => now);
  });
  copyFileSync(template, target);
}

/** Copies a database holding the impact register alone, as `demo --no-publish` leaves it, to `target`. */
export function copyImpactRegisterDatabase(target: string, now: number): void {
  const template = ensureTemplate(`trio-impact-register-${inputsHash()}-${now}.sqlite`, now, (db) =>
    loadImpactDemo(db, now, { publish: false }),
  );
  copyFileSync(template, target);
}

/** The template `name` in the temp directory: migrated under `now`, then `load`; built by one process at a time. */
function ensureTemplate(name: string, now: number, load: (db: Db) => void): string {
  const template = join(tmpdir(), name);
  const lock = `${template}.lock`;
  while (!existsSync(template)) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (holderGone(lock)) rmSync(lock, { force: true });
      else sleepSync(100); // another process is building it
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
      if (!existsSync(template)) {
        const building = `${template}.${process.pid}.building`;
        const db = openDatabase(building);
        migrate(db, undefined, now);
        load(db);
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
        rmSync(`${building}-wal`, { force: true });
        rmSync(`${building}-shm`, { force: true });
        renameSync(building, template);
      }
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
  }
  return template;
}

/** Whether the process named in a build's lock file has ended without removing it (killed mid-build). */
function holderGone(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (!pid) return Date.now() - statSync(lock).mtimeMs > 10_000; // just created, its pid not written yet
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ENOENT: removed meanwhile, and the loop looks again; ESRCH: no such process.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The demo database, built once per version of the code and data and copied for each test server,
 * so that every end-to-end test starts from the real demo (funding corpus, impact register and its
 * published runs) without paying for the impact runs each time. The template is keyed by a hash of
 * everything that shapes it (migrations, db/, lib/, fixtures/, the methodology) and built under the
 * tests' default clock; a concurrent build by another test process is harmless (atomic rename).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadMissingDemo } from '../../db/demo.ts';
import { openDatabase } from '../../db/connection.ts';
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

function inputsHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((d) => files(join(ROOT, d))).sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Copies the demo database for `now` to `target` (building the template first if needed). */
export function copyDemoDatabase(target: string, now: number, corpus: FundingCorpus = 'demo'): void {
  const template = join(tmpdir(), `trio-${corpus}-${inputsHash()}-${now}.sqlite`);
  if (!existsSync(template)) {
    const building = `${template}.${process.pid}.building`;
    const db = openDatabase(building);
    migrate(db, undefined, now);
    if (corpus === 'traps') loadMissingDemo(db, () => now, TRAPS_MANIFEST);
    else loadMissingDemo(db, () => now);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    rmSync(`${building}-wal`, { force: true });
    rmSync(`${building}-shm`, { force: true });
    renameSync(building, template);
  }
  copyFileSync(template, target);
}

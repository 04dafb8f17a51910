/**
 * Test files that run together in one process. Starting node with tsx costs about 0.3 s of CPU per
 * file, and under c8 about 1.5 s with the coverage each process writes (and c8 merges at the end):
 * most of what a small test file costs.
 * - The pure-module tests (tests/lib outside tests/lib/http, which opens sockets): `npm test` and
 *   `npm run test:unit` both run them in tests/unit-pure.ts.
 * - The database and route-table tests (tests/db, tests/routes): `npm test` runs them in
 *   tests/unit-db.ts, where the other test files keep both cores busy anyway; `npm run test:unit`
 *   keeps a process per file, four at a time, which is faster on its own.
 * tests/tiers.test.ts checks that every run covers every file once.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every *.test.ts under `dir`, relative to the repository root, sorted. */
export function testFilesUnder(dir: string): string[] {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(at, e.name)) : e.name.endsWith('.test.ts') ? [relative(ROOT, join(at, e.name))] : [],
    );
  return walk(join(ROOT, dir)).sort();
}

export function pureModuleTests(): string[] {
  return testFilesUnder('tests/lib').filter((file) => !file.startsWith('tests/lib/http/'));
}

export function databaseAndRouteTests(): string[] {
  return [...testFilesUnder('tests/db'), ...testFilesUnder('tests/routes')];
}

/** What each grouped runner stands for in a script's list of files. */
export const GROUPS: Record<string, () => string[]> = {
  'tests/unit-pure.ts': pureModuleTests,
  'tests/unit-db.ts': databaseAndRouteTests,
};

/**
 * Imports each test file inside a suite named by its path: its tests (and its own before and after
 * hooks) register there and run one after another, as in a process of its own, and a failure names
 * the file it is in.
 */
export function runInThisProcess(files: string[]): void {
  for (const file of files)
    describe(file, async () => {
      await import(pathToFileURL(join(ROOT, file)).href);
    });
}

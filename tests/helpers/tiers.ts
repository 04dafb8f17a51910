/**
 * Test files that run together in one process. Starting node with tsx costs about 0.3 s of CPU per
 * file, and under c8 about 1.5 s with the coverage each process writes (and c8 merges at the end):
 * most of what a small test file costs.
 * - The pure-module tests (tests/lib outside tests/lib/http, which opens sockets): `npm test` and
 *   `npm run test:unit` both run them in tests/unit-pure.ts.
 * - The database and route-table tests (tests/db, tests/routes): `npm test` runs them in
 *   tests/unit-db.ts, where the other test files keep both cores busy anyway; `npm run test:unit`
 *   keeps a process per file, four at a time, which is faster on its own.
 * - The CLI tests and the end-to-end tests of each folder of tests/e2e: `npm test` runs each folder
 *   in one process (tests/groups/cli.ts, tests/groups/e2e-*.ts). Each file still starts its own
 *   servers, browsers and child processes; what is shared is node, tsx and the modules loaded
 *   (about 5 s of CPU per file under c8, with a 10 MB coverage file). `npm run test:e2e` keeps a
 *   process per file.
 * tests/tiers.test.ts checks that every run covers every file once.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/**
 * The test files a grouped runner imports, by the runner's path (relative to the repository), or
 * undefined for a file that is not one: tests/unit-pure.ts, tests/unit-db.ts, and
 * tests/groups/*.ts for the folder its name spells with - for / (e2e-human.ts: tests/e2e/human).
 */
export function groupFiles(runner: string): string[] | undefined {
  if (runner === 'tests/unit-pure.ts') return pureModuleTests();
  if (runner === 'tests/unit-db.ts') return databaseAndRouteTests();
  const folder = groupFolder(runner);
  return folder ? testFilesUnder(folder) : undefined;
}

/** The folder a runner of tests/groups stands for (tests/groups/e2e-human.ts: tests/e2e/human). */
export const groupFolder = (runner: string): string | undefined =>
  /^tests\/groups\/([\w-]+)\.ts$/.exec(runner)?.[1]?.replaceAll('-', '/').replace(/^/, 'tests/');

/** The runners of tests/groups/, relative to the repository, sorted. */
export const groupRunners = (): string[] =>
  readdirSync(join(ROOT, 'tests', 'groups'))
    .map((name) => `tests/groups/${name}`)
    .sort();

/** Runs the group whose runner is the file at `runnerUrl` (its import.meta.url) in this process. */
export function runGroup(runnerUrl: string): void {
  const files = groupFiles(relative(ROOT, fileURLToPath(runnerUrl)));
  if (!files?.length) throw new Error(`${runnerUrl} is not a test group with files`);
  runInThisProcess(files);
}

/**
 * Imports each test file inside a suite named by its path: its tests (and its own before and after
 * hooks) register there and run one after another, as in a process of its own, one file after the
 * other, and a failure names the file it is in. A file's top-level code runs as the suites are built,
 * before the first test: no grouped file starts a server or a process there (they do in hooks).
 */
export function runInThisProcess(files: string[]): void {
  for (const file of files)
    describe(file, async () => {
      await import(pathToFileURL(join(ROOT, file)).href);
    });
}

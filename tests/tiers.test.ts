/**
 * The test tiers of package.json (README, "Tests"): `npm test` runs every test file exactly once, and
 * the tiers split that list without gaps or overlap: `test:unit` (pure modules, route tables, db,
 * the repository checks), `test:e2e` (the real server, processes, browsers) and the reliability suite
 * (`test:reliability`, one file at a time). The file lists are the ones the scripts' own shell
 * expressions give; a grouped runner (tests/unit-pure.ts, tests/unit-db.ts) stands for the test files
 * it imports into one process (tests/helpers/tiers.ts). A unit file never starts the server, so the
 * tier stays fast.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  databaseAndRouteTests,
  groupFiles,
  groupFolder,
  groupRunners,
  pureModuleTests,
  testFilesUnder,
} from './helpers/tiers.ts';

const ROOT = join(import.meta.dirname, '..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** The test files a script hands to `node --test`: its arguments after the flags, expanded by sh as npm would. */
function filesOf(script: string): string[] {
  const args = /--test(?: --test-[\w-]+=\S+)* (.+)$/.exec(scripts[script]!)?.[1];
  assert.ok(args, `${script} runs node --test on a list of files`);
  const out = execFileSync('sh', ['-c', `printf '%s\\n' ${args}`], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** A script's file list with each grouped runner replaced by the files it imports. */
const expanded = (files: string[]) => files.flatMap((file) => groupFiles(file) ?? [file]);
const fullArgs = filesOf('test');
const full = expanded(fullArgs);
const unitArgs = filesOf('test:unit');
const unit = expanded(unitArgs);
const e2e = filesOf('test:e2e');
const reliability = testFilesUnder('tests/reliability');

test('npm test runs every test file of the repository exactly once', () => {
  assert.deepEqual([...full].sort(), testFilesUnder('tests'));
  assert.equal(new Set(full).size, full.length, 'no file twice');
});

test('npm test runs each group of test files in one process, the rest a process per file', () => {
  const groups: Array<[string, string[]]> = [
    ['tests/unit-pure.ts', pureModuleTests()],
    ['tests/unit-db.ts', databaseAndRouteTests()],
    ...groupRunners().map((runner): [string, string[]] => [runner, groupFiles(runner) ?? []]),
  ];
  for (const [runner, files] of groups) {
    assert.ok(fullArgs.includes(runner), `npm test runs ${runner}`);
    assert.ok(files.length > 0, `${runner} finds its test files`);
    assert.deepEqual(
      fullArgs.filter((file) => files.includes(file)),
      [],
      `no test file of ${runner} also in a process of its own`,
    );
  }
  const e2eFolders = new Set(
    testFilesUnder('tests/e2e')
      .filter((file) => file.split('/').length > 3)
      .map((file) => file.split('/').slice(0, 3).join('/')),
  );
  const grouped = groupRunners().map(groupFolder);
  for (const folder of e2eFolders) assert.ok(grouped.includes(folder), `${folder} has its runner in tests/groups`);
  assert.ok(grouped.includes('tests/cli'), 'the CLI tests are a group');
  assert.ok(
    fullArgs.some((file) => file.startsWith('tests/lib/http/')),
    'tests/lib/http (sockets) keeps a process per file',
  );
});

test('the unit, e2e and reliability tiers split the full run: every file in exactly one', () => {
  const tiers = { unit, e2e, reliability };
  const seen = new Map<string, string[]>();
  for (const [tier, files] of Object.entries(tiers))
    for (const file of files) seen.set(file, [...(seen.get(file) ?? []), tier]);
  assert.deepEqual([...seen.keys()].sort(), [...full].sort(), 'the union of the tiers is the full run');
  const twice = [...seen].filter(([, inTiers]) => inTiers.length > 1).map(([file, inTiers]) => `${file}: ${inTiers}`);
  assert.deepEqual(twice, [], 'no file in two tiers');
  // The reliability runner (tests/reliability/run.ts) takes the folder's files: the same list.
  assert.ok(reliability.length > 0);
});

// What starts the real server, another process of it, or a browser: e2e, never unit.
const STARTS_SERVER =
  /from '[./]*(app\.ts|main\.ts|helpers\/(server|serve-process|browser)\.ts|e2e\/\w+\/harness\.ts)'|\bstartApp\(/;

test('the unit tier holds every pure-module, route-table and db test, and none starts the server', () => {
  assert.ok(unitArgs.includes('tests/unit-pure.ts'), 'test:unit runs the pure-module tests');
  assert.ok(pureModuleTests().length > 40, 'tests/unit-pure.ts finds the pure-module tests');
  for (const dir of ['tests/lib', 'tests/db', 'tests/routes'])
    for (const file of testFilesUnder(dir)) assert.ok(unit.includes(file), `${file} is in test:unit`);
  const starting = unit.filter((file) => STARTS_SERVER.test(readFileSync(join(ROOT, file), 'utf8')));
  assert.deepEqual(starting, []);
});

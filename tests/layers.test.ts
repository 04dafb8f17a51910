/**
 * The layer rules of docs/architecture.md. `npm test` runs dependency-cruiser on the project itself
 * (npm run layers); here it runs on a small tree that breaks each rule, to prove each is caught and
 * named, and on the project to prove it passes. The clock is not an import, so a scan checks lib/ reads
 * none.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = join(root, '.dependency-cruiser.cjs');

// Every cruise of the file runs in one plain node process through dependency-cruiser's own API, with
// the project's config and the same error report as `npm run layers`: one start of the cruiser
// instead of one per tree (the starts were most of this file's time). Its exit code is the CLI's: the
// number of errors.
const CRUISE_ALL = `
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { config, jobs } = JSON.parse(input);
const options = await extractDepcruiseOptions(config);
const results = [];
for (const { cwd, dirs } of jobs) {
  const { exitCode, output } = await cruise(dirs, { ...options, baseDir: cwd, outputType: 'err' });
  results.push({ status: exitCode, out: String(output) });
}
process.stdout.write(JSON.stringify(results));
`;

interface Cruise {
  status: number;
  out: string;
}
const jobs: { cwd: string; dirs: string[] }[] = [];
let results: Cruise[] | undefined;
const trees: string[] = [];

/** Registers a cruise of `dirs` under `cwd`; the first result asked for runs them all. */
function cruise(cwd: string, ...dirs: string[]): () => Cruise {
  const at = jobs.push({ cwd, dirs }) - 1;
  return () => (results ??= cruiseAll())[at]!;
}

function cruiseAll(): Cruise[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', CRUISE_ALL], {
    cwd: root,
    input: JSON.stringify({ config, jobs }),
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, run.stderr);
  const all = JSON.parse(run.stdout) as Cruise[];
  assert.equal(all.length, jobs.length);
  return all;
}
after(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'trio-layers-'));
  trees.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const project = cruise(root, 'app.ts', 'main.ts', 'cli', 'db', 'lib', 'routes', 'bench', 'deploy');
test('the project keeps its layers: no violation, no cycle', () => {
  const { status, out } = project();
  assert.equal(status, 0, out);
  assert.match(out, /no dependency violations found/);
});

// Each case: one file set that breaks exactly one rule, and the rule the failure must name.
const cases: { rule: string; files: Record<string, string> }[] = [
  {
    rule: 'lib-imports-no-db-or-routes',
    files: {
      'lib/rule.ts': "import { row } from '../db/rows.ts';\nexport const rule = row;\n",
      'db/rows.ts': 'export const row = 1;\n',
    },
  },
  {
    rule: 'lib-imports-no-db-or-routes',
    files: {
      'lib/human/rule.ts': "import type { Route } from '../../routes/r.ts';\nexport type R = Route;\n",
      'routes/r.ts': 'export type Route = string;\n',
    },
  },
  {
    rule: 'lib-does-no-io',
    files: { 'lib/read.ts': "import { readFileSync } from 'node:fs';\nexport const read = () => readFileSync('x');\n" },
  },
  {
    rule: 'lib-does-no-io',
    files: { 'lib/net.ts': "import { createServer } from 'http';\nexport const s = createServer;\n" },
  },
  {
    rule: 'lib-uses-only-pure-http-parts',
    files: {
      'lib/quote.ts': "import { log } from './http/log.ts';\nexport const q = log;\n",
      'lib/http/log.ts': 'export const log = 1;\n',
    },
  },
  {
    rule: 'db-imports-no-routes',
    files: {
      'db/q.ts': "import { r } from '../routes/r.ts';\nexport const q = r;\n",
      'routes/r.ts': 'export const r = 1;\n',
    },
  },
  {
    rule: 'lib-http-imports-no-db-or-routes',
    files: {
      'lib/http/a.ts': "import { q } from '../../db/q.ts';\nexport const a = q;\n",
      'db/q.ts': 'export const q = 1;\n',
    },
  },
  {
    // A cycle through a type-only import counts: scheduler.ts and service.ts were one.
    rule: 'no-cycles',
    files: {
      'db/service.ts': "import { Scheduler } from './scheduler.ts';\nexport interface Service { s: Scheduler }\n",
      'db/scheduler.ts':
        "import type { Service } from './service.ts';\nexport class Scheduler { constructor(readonly svc?: Service) {} }\n",
    },
  },
];

for (const { rule, files } of cases) {
  const result = cruise(tree(files), ...new Set(Object.keys(files).map((f) => f.split('/')[0]!)));
  test(`a tree that breaks ${rule} fails, naming the rule (${Object.keys(files)[0]})`, () => {
    const { status, out } = result();
    assert.notEqual(status, 0, out);
    assert.match(out, new RegExp(`error ${rule}:`), out);
    // Only the broken rule: the others stay quiet on this tree.
    const named = [...out.matchAll(/error ([a-z-]+):/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(named)], [rule], out);
  });
}

const allowed = cruise(
  tree({
    'lib/http/server.ts': "import { createServer } from 'node:http';\nexport const s = createServer;\n",
    'lib/pure.ts': 'export const add = (a: number, b: number) => a + b;\n',
    'db/q.ts': "import { add } from '../lib/pure.ts';\nexport const q = add(1, 2);\n",
    'routes/r.ts':
      "import { q } from '../db/q.ts';\nimport { s } from '../lib/http/server.ts';\nexport const r = [q, s];\n",
  }),
  'lib',
  'db',
  'routes',
);
test('the same imports outside the rules pass: lib/http may do I/O, routes may import db, db may import lib', () => {
  const { status, out } = allowed();
  assert.equal(status, 0, out);
});

// lib/ reads no clock, environment or process: `now` and settings come in as arguments. Comments are
// skipped so a module may still say why it takes `now`.
const FORBIDDEN_IN_LIB = [
  /\bDate\.now\(/,
  /\bnew Date\(\)/,
  /\bperformance\.now\(/,
  /\bset(Timeout|Interval|Immediate)\(/,
  /\bprocess\.(env|argv|exit|hrtime|cwd|stdout|stderr|on)\b/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('lib/ outside lib/http reads no clock, timer, environment or process state', () => {
  const found: string[] = [];
  for (const file of sources(join(root, 'lib'))) {
    const rel = relative(root, file);
    if (rel.startsWith('lib/http/')) continue;
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    for (const pattern of FORBIDDEN_IN_LIB) if (pattern.test(code)) found.push(`${rel}: ${pattern}`);
  }
  assert.deepEqual(found, []);
});

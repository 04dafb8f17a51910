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
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

function cruise(cwd: string, ...dirs: string[]) {
  const run = spawnSync(depcruise, ['--config', config, ...dirs], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'trio-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('the project keeps its layers: no violation, no cycle', () => {
  const { status, out } = cruise(root, 'app.ts', 'main.ts', 'cli', 'db', 'lib', 'routes', 'bench', 'deploy');
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
  test(`a tree that breaks ${rule} fails, naming the rule (${Object.keys(files)[0]})`, () => {
    const dir = tree(files);
    try {
      const { status, out } = cruise(dir, ...new Set(Object.keys(files).map((f) => f.split('/')[0]!)));
      assert.notEqual(status, 0, out);
      assert.match(out, new RegExp(`error ${rule}:`), out);
      // Only the broken rule: the others stay quiet on this tree.
      const named = [...out.matchAll(/error ([a-z-]+):/g)].map((m) => m[1]);
      assert.deepEqual([...new Set(named)], [rule], out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('the same imports outside the rules pass: lib/http may do I/O, routes may import db, db may import lib', () => {
  const dir = tree({
    'lib/http/server.ts': "import { createServer } from 'node:http';\nexport const s = createServer;\n",
    'lib/pure.ts': 'export const add = (a: number, b: number) => a + b;\n',
    'db/q.ts': "import { add } from '../lib/pure.ts';\nexport const q = add(1, 2);\n",
    'routes/r.ts':
      "import { q } from '../db/q.ts';\nimport { s } from '../lib/http/server.ts';\nexport const r = [q, s];\n",
  });
  try {
    const { status, out } = cruise(dir, 'lib', 'db', 'routes');
    assert.equal(status, 0, out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

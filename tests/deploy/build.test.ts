/**
 * `npm run build` makes a bundle that runs on its own: built into a temp directory whose
 * node_modules holds only the native package left outside the bundle (better-sqlite3), it answers
 * --help, migrates an empty database, and serves all three APIs, the console's assets and /readyz
 * from a fresh database it fills with the demo (migrations, fixtures, the methodology document and
 * the assets are all read from dist/), then stops cleanly on SIGTERM. Nothing in it imports tsx or
 * TypeScript.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadMigrations } from '../../db/migrate.ts';
import { buildBundle, EXTERNAL, ROOT, runtimeImports, type BuildResult } from '../../deploy/build.ts';
import { startServeProcess } from '../helpers/serve-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-build-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let built: BuildResult;

before(async () => {
  built = await buildBundle(join(dir, 'app', 'dist'));
  // A production layout: dist/ beside a node_modules that has the native package and nothing else.
  mkdirSync(join(dir, 'app', 'node_modules'));
  for (const name of EXTERNAL)
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'app', 'node_modules', name), 'dir');
});

function runBundle(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [built.main, ...args],
      { cwd: join(dir, 'app'), env: { ...process.env, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('the bundle imports nothing but node built-ins and better-sqlite3; no tsx, no TypeScript', () => {
  assert.deepEqual(runtimeImports(built.metafile), ['better-sqlite3']);
  const code = readFileSync(built.main, 'utf8');
  const loaders = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](?:tsx|typescript)(?:\/[^"']*)?["']/g;
  assert.deepEqual(code.match(loaders), null);
  assert.equal(JSON.parse(readFileSync(join(built.outDir, 'package.json'), 'utf8')).type, 'module');
});

test('--help and migrate from the bundle', async () => {
  const help = await runBundle(['--help'], {});
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /serve/);
  assert.match(help.stdout, /backup FILE/);
  const migrated = await runBundle(['migrate', '--json'], { DATABASE_PATH: join(dir, 'migrate', 'trio.sqlite') });
  assert.equal(migrated.code, 0, migrated.stderr);
  const applied = JSON.parse(migrated.stdout).applied as number[];
  const shipped = readdirSync(join(built.outDir, 'db', 'migrations'))
    .filter((f) => f.endsWith('.sql'))
    .map((f) => Number(f.slice(0, 3)));
  assert.deepEqual(
    applied,
    loadMigrations().map((m) => m.version),
    'every migration of the sources, read from dist/db/migrations',
  );
  assert.deepEqual(shipped, applied);
});

test('the bundle serves every API from a fresh database with the demo, and stops cleanly on SIGTERM', async () => {
  const server = await startServeProcess(
    [built.main, 'serve'],
    { DATABASE_PATH: join(dir, 'serve', 'trio.sqlite'), DEMO: 'on' },
    join(dir, 'app'),
  );
  try {
    const get = async (path: string) => {
      const res = await fetch(server.url + path);
      return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text() };
    };
    assert.equal((await get('/readyz')).status, 200);
    const products = await get('/impact/v1/products');
    assert.equal(products.status, 200, products.body);
    const impact = JSON.parse(products.body);
    assert.equal(
      impact.status,
      'published',
      'the impact demo register was loaded from dist/fixtures and its runs published',
    );
    assert.ok(impact.data.products.length > 0);
    const methodology = await get('/impact/v1/methodology');
    assert.equal(methodology.status, 200, methodology.body);
    const search = await get('/funding/v1/search?q=energy');
    assert.equal(search.status, 200, search.body);
    assert.ok(JSON.parse(search.body).data.length > 0, 'the funding demo corpus was loaded from dist/fixtures');
    const capabilities = await get('/human/v1/capabilities');
    assert.equal(capabilities.status, 200, capabilities.body);
    assert.ok(JSON.parse(capabilities.body).data.length > 0, 'the human catalogue was loaded from dist/fixtures');
    const css = await get('/console/assets/console.css');
    assert.equal(css.status, 200);
    assert.match(css.type, /text\/css/);
    assert.equal(css.body, readFileSync(join(ROOT, 'routes', 'console', 'assets', 'console.css'), 'utf8'));
  } finally {
    const ended = await server.stop('SIGTERM');
    assert.deepEqual(ended, { code: 0, signal: null }, server.output());
  }
});

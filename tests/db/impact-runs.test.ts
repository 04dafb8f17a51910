/**
 * Runs against a real SQLite file, on the demo register (the machinery; the published register's runs
 * are tests/db/impact-published.test.ts): the demo publishes every scenario; publishing switches the current
 * run atomically and keeps earlier runs; a run that fails a gate is stored, marked failed and never
 * published; the same inputs and seed give a byte-identical run; stored draws are the figures' draws.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { loadImpactDemo } from '../../db/impact/demo.ts';
import { readDraws } from '../../db/impact/read.ts';
import { runImpact } from '../../db/impact/run.ts';
import { publishRun, PublishError } from '../../db/impact/store.ts';
import { migrate } from '../../db/migrate.ts';
import { summarize } from '../../lib/impact/figure.ts';

interface FigureRow {
  low: number;
  median: number;
  high: number;
  mean: number;
}

const DRAWS = 200;
let clock = Date.parse('2026-11-22T10:00:00Z');
const now = () => (clock += 1000);
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function freshDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'trio-impact-runs-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'trio.sqlite'));
  migrate(db, undefined, clock);
  return db;
}

const db = freshDb();
const demo = loadImpactDemo(db, now, { draws: DRAWS, register: 'demo' });
const current = (scenario: string) =>
  db.prepare('SELECT run_id FROM impact_current_runs WHERE scenario = ?').pluck().get(scenario) as number | undefined;
const figure = (run: number, slug: string, basis = 'per_unit', metric = 'deaths'): FigureRow =>
  db
    .prepare('SELECT * FROM impact_figures WHERE run_id = ? AND subject_key = ? AND basis = ? AND metric = ?')
    .get(run, slug, basis, metric) as FigureRow;

test('the demo publishes a validated run of every scenario, each gate recorded', () => {
  assert.deepEqual(
    demo.runs.map((r) => [r.scenario, r.status, r.published]),
    ['S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'].map((s) => [s, 'validated', true]),
  );
  for (const r of demo.runs) {
    assert.equal(current(r.scenario), r.id);
    const gates = db
      .prepare('SELECT gate, passed, engine, checked_at FROM impact_run_gates WHERE run_id = ? ORDER BY ordinal')
      .all(r.id) as Array<Record<string, unknown>>;
    assert.deepEqual(
      gates.map((g) => g.gate),
      [
        'bom_resolves',
        'production_consistent',
        'figures_ordered',
        'sums_to_headline',
        'attributed_within_counted',
        'sources_licensed',
        'reproducible',
      ],
    );
    assert.ok(
      gates.every(
        (g) =>
          g.passed === 1 &&
          /trio impact engine/.test(g.engine as string) &&
          /^2026-11-22T/.test(g.checked_at as string),
      ),
    );
  }
  const run = db.prepare('SELECT * FROM impact_runs WHERE id = ?').get(demo.runs[0]!.id) as Record<string, unknown>;
  assert.deepEqual(
    [run.illustrative, run.draws, run.quantiles, run.methodology_version, run.data_version],
    [1, DRAWS, 'p05,p50,p95', 'v2', 'demo-2026.1'],
  );
  assert.match(run.published_at as string, /^2026-11-22T10:/, 'times come from the injected clock');
});

test('every INDICATIVE figure has a null central value; the others carry it', () => {
  const bad = db
    .prepare(`SELECT count(*) FROM impact_figures WHERE (grade = 'INDICATIVE') <> (central IS NULL)`)
    .pluck()
    .get();
  assert.equal(bad, 0);
  assert.ok((db.prepare("SELECT count(*) FROM impact_figures WHERE grade = 'INDICATIVE'").pluck().get() as number) > 0);
  assert.ok((db.prepare('SELECT count(*) FROM impact_figures WHERE central IS NOT NULL').pluck().get() as number) > 0);
});

test('stored draws are the draws of the figures, paired by index across products and scenarios', () => {
  const run = current('S-MAX')!;
  for (const slug of ['smartphone', 'gold-ring', 'chocolate-bar']) {
    const d = readDraws(db, run, slug, 'deaths')!;
    assert.equal(d.perUnit.length, DRAWS);
    const s = summarize(d.perUnit);
    const f = figure(run, slug);
    assert.deepEqual([s.low, s.median, s.high, s.mean], [f.low, f.median, f.high, f.mean], slug);
    const m = summarize(d.per1000Eur);
    assert.equal(m.mean, figure(run, slug, 'per_1000_eur').mean);
  }
  // Paired across scenarios: a product S-ARMS does not touch has the very same draws in both runs.
  const max = readDraws(db, current('S-MAX')!, 't-shirt', 'deaths')!.perUnit;
  const arms = readDraws(db, current('S-ARMS')!, 't-shirt', 'deaths')!.perUnit;
  assert.deepEqual(arms, max);
});

test('scenarios on the demo: each changes what it names', () => {
  const contributions = (scenario: string, where: string) =>
    db
      .prepare(`SELECT count(*) FROM impact_contributions WHERE run_id = ? AND ${where}`)
      .pluck()
      .get(current(scenario)) as number;
  assert.equal(contributions('S-RES', "dimension = 'channel' AND key <> 'C1'"), 0, 'S-RES: conflict only');
  assert.equal(contributions('S-EVID', "dimension = 'channel' AND key = 'C3'"), 0, 'S-EVID: no deprivation');
  assert.equal(contributions('S-CONS', "dimension = 'channel' AND key IN ('C3', 'C4')"), 0, 'S-CONS: C1 and C2 only');
  assert.ok(contributions('S-MAX', "dimension = 'channel' AND key = 'C3'") > 0);
  for (const slug of ['assault-rifle', 'ammunition-box', 'artillery-shell', 'military-drone']) {
    assert.ok(
      figure(current('S-ARMS')!, slug).mean > 10 * figure(current('S-MAX')!, slug).mean,
      `${slug}: arms manufacture counts in S-ARMS`,
    );
  }
  const cons = readDraws(db, current('S-CONS')!, 'gold-ring', 'deaths')!.perUnit;
  const max = readDraws(db, current('S-MAX')!, 'gold-ring', 'deaths')!.perUnit;
  assert.ok(
    cons.every((x, i) => x <= max[i]! * (1 + 1e-12)),
    'S-CONS is below S-MAX in every paired draw',
  );
});

test('publishing switches the current run atomically and keeps the earlier one readable', () => {
  const before = current('S-RES')!;
  const [next] = runImpact(db, { scenarios: ['S-RES'], draws: DRAWS, seed: 99, publish: false, now });
  assert.equal(current('S-RES'), before, 'not published without --publish');
  publishRun(db, next!.id, now());
  assert.equal(current('S-RES'), next!.id);
  assert.ok(figure(before, 'gold-ring'), 'the earlier run stays readable by id');
  assert.ok(db.prepare('SELECT published_at FROM impact_runs WHERE id = ?').pluck().get(before));
  publishRun(db, before, now());
  assert.equal(current('S-RES'), before, 'an earlier run can be made current again');
});

test('a run that fails a gate is stored, marked failed, and never published', () => {
  const fresh = freshDb();
  loadImpactDemo(fresh, now, { publish: false, register: 'demo' });
  assert.equal(
    fresh.prepare('SELECT count(*) FROM impact_runs').pluck().get(),
    0,
    'demo --no-publish loads the register only',
  );
  fresh.prepare("UPDATE impact_sources SET credit = NULL WHERE code = 'ucdp-ged'").run();
  const [failed] = runImpact(fresh, { scenarios: ['S-RES'], draws: 50, publish: true, now });
  assert.deepEqual([failed!.status, failed!.published, failed!.failed_gates], ['failed', false, ['sources_licensed']]);
  const row = fresh.prepare('SELECT status, failed_gates, published_at FROM impact_runs WHERE id = ?').get(failed!.id);
  assert.deepEqual(row, { status: 'failed', failed_gates: 'sources_licensed', published_at: null });
  assert.equal(fresh.prepare('SELECT count(*) FROM impact_current_runs').pluck().get(), 0);
  assert.throws(() => publishRun(fresh, failed!.id, now()), PublishError);
  assert.match(
    fresh
      .prepare("SELECT detail FROM impact_run_gates WHERE run_id = ? AND gate = 'sources_licensed'")
      .pluck()
      .get(failed!.id) as string,
    /ucdp-ged: no credit/,
  );
});

test('the same inputs and seed give a byte-identical run', () => {
  const [a, b] = runImpact(db, { scenarios: ['S-CONS', 'S-CONS'], draws: 100, seed: 7, now });
  const [c] = runImpact(db, { scenarios: ['S-CONS'], draws: 100, seed: 8, now });
  assert.equal(a!.rows_sha256, b!.rows_sha256);
  assert.notEqual(a!.rows_sha256, c!.rows_sha256);
  const tables = [
    'impact_run_products',
    'impact_figures',
    'impact_contributions',
    'impact_run_quantities',
    'impact_draws',
    'impact_spend',
    'impact_spend_left_out',
    'impact_reach',
    'impact_run_intensities',
    'impact_nearest',
    'impact_run_sources',
  ];
  const dump = (id: number) =>
    tables
      .map((t) =>
        JSON.stringify(
          db
            .prepare(`SELECT * FROM ${t} WHERE run_id = ? ORDER BY rowid`)
            .raw()
            .all(id)
            .map((r) => (r as unknown[]).slice(1).map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v))),
        ),
      )
      .join('\n');
  assert.equal(dump(a!.id), dump(b!.id));
  const runs = db
    .prepare('SELECT inputs_sha256, rows_sha256 FROM impact_runs WHERE id IN (?, ?)')
    .all(a!.id, b!.id) as Array<Record<string, string>>;
  assert.deepEqual(runs[0], runs[1]);
});

/**
 * Consistency over the whole demo run, every scenario, through the API: every explain stage and every
 * contribution breakdown is the whole of its dimension and adds up to its headline; spend at 2,000 EUR
 * is twice spend at 1,000; compare(a, b) and compare(b, a) agree; every INDICATIVE figure has a null
 * central value.
 *
 * Sums: where the headline and every part have a central value, the served centrals add up to the
 * headline's. An INDICATIVE part serves no central value (rule 6), so for those the served parts are
 * matched to the run's rows (same keys, same intervals) and the rows' means are summed, which is what
 * the API promises: the parts shown are the whole stage, and the stage sums to the headline.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { close, figuresIn, MATERIAL_BREAKDOWNS, SCENARIOS, startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
let products: string[];
let indicative = 0;
let indicativeChecked = 0;
before(async () => {
  server = await startImpactServer({ inProcess: true });
  products = server.app.db.prepare('SELECT slug FROM impact_products ORDER BY slug').pluck().all() as string[];
});
after(() => server.cleanup());

const runOf = (scenario: string) =>
  server.app.db.prepare('SELECT run_id FROM impact_current_runs WHERE scenario = ?').pluck().get(scenario) as number;

async function get(path: string): Promise<Json> {
  const res = await server.api(path);
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  for (const { path: at, figure } of figuresIn(res.json)) {
    if (figure.grade !== 'INDICATIVE') continue;
    indicative++;
    assert.equal(figure.central, null, `${path} ${at}: an INDICATIVE figure has no central value`);
    indicativeChecked++;
  }
  return res.json;
}

/** A stage (or breakdown) as served is the whole dimension of the run, and sums to the headline. */
function checkStage(
  where: string,
  runId: number,
  product: string,
  metric: string,
  route: string,
  dimension: string,
  headline: Json,
  parts: Json[],
) {
  const rows = server.app.db
    .prepare(
      `SELECT key, low, high, mean FROM impact_contributions WHERE run_id = ? AND product = ? AND metric = ? AND route = ? AND dimension = ?`,
    )
    .all(runId, product, metric, route, dimension) as Array<{ key: string; low: number; high: number; mean: number }>;
  assert.deepEqual(
    parts.map((p) => p.key).sort(),
    rows.map((r) => r.key).sort(),
    `${where}: every part of the stage is served`,
  );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  for (const p of parts)
    assert.deepEqual(
      [p.figure.low, p.figure.high],
      [byKey.get(p.key)!.low, byKey.get(p.key)!.high],
      `${where} ${p.key}: the run's row`,
    );
  const basis = route === 'material' ? 'per_unit' : 'per_1000_eur';
  const head = server.app.db
    .prepare(
      'SELECT low, high, mean FROM impact_figures WHERE run_id = ? AND subject_type = ? AND subject_key = ? AND metric = ? AND basis = ?',
    )
    .get(runId, 'product', product, metric, basis) as { low: number; high: number; mean: number };
  assert.deepEqual([headline.low, headline.high], [head.low, head.high], `${where}: the headline is the run's`);
  assert.ok(
    close(
      rows.reduce((a, r) => a + r.mean, 0),
      head.mean,
    ),
    `${where}: the parts' means add up to the headline's`,
  );
  if (headline.central !== null && parts.every((p) => p.figure.central !== null)) {
    assert.ok(
      close(
        parts.reduce((a, p) => a + p.figure.central, 0),
        headline.central,
      ),
      `${where}: the served centrals add up to the headline's`,
    );
    if (headline.central > 0)
      assert.ok(
        close(
          parts.reduce((a, p) => a + p.share, 0),
          1,
        ),
        `${where}: shares add up to 1`,
      );
  }
}

for (const scenario of SCENARIOS) {
  test(`explain and contributions of every product sum to their headlines (${scenario})`, async () => {
    const runId = runOf(scenario);
    for (const product of products) {
      for (const metric of ['deaths', 'injuries']) {
        const explain = await get(`/product/${product}/explain?metric=${metric}&scenario=${scenario}`);
        for (const [route, r] of Object.entries<Json>(explain.data.results.routes)) {
          assert.ok(r, `${product} ${route}: a route`);
          for (const [stage, parts] of Object.entries<Json[]>(r.steps))
            checkStage(
              `${scenario} ${product} ${metric} explain ${route}/${stage}`,
              runId,
              product,
              metric,
              route,
              stage,
              r.headline,
              parts,
            );
        }
        for (const method of ['material', 'mrio']) {
          const c = await get(
            `/product/${product}/contributions?metric=${metric}&method=${method}&scenario=${scenario}`,
          );
          const dims = Object.keys(c.data.results.breakdowns);
          assert.deepEqual(
            dims,
            method === 'material' ? MATERIAL_BREAKDOWNS : ['country', 'channel', 'sector', 'basis'],
          );
          for (const dim of dims)
            checkStage(
              `${scenario} ${product} ${metric} ${method}/${dim}`,
              runId,
              product,
              metric,
              method,
              dim,
              c.data.results.headline,
              c.data.results.breakdowns[dim],
            );
        }
      }
    }
  });

  test(`spend at 2,000 EUR is twice spend at 1,000 (${scenario})`, async () => {
    const one = await get(`/spend?amount=1000&scenario=${scenario}`);
    const two = await get(`/spend?amount=2000&scenario=${scenario}`);
    assert.equal(one.data.results.rows.length, 28);
    one.data.results.rows.forEach((row: Json, i: number) => {
      const other = two.data.results.rows[i];
      assert.equal(other.code, row.code);
      for (const metric of ['deaths', 'injuries']) {
        for (const k of ['low', 'median', 'high', 'central']) {
          const a = row[metric][k];
          assert.equal(other[metric][k], a === null ? null : 2 * a, `${scenario} ${row.code} ${metric} ${k}`);
        }
        assert.equal(other[metric].grade, row[metric].grade);
      }
      assert.equal(other.share_of_spend, row.share_of_spend, 'shares do not scale');
    });
  });

  test(`compare(a, b) and compare(b, a) agree (${scenario})`, async () => {
    const pairs = products.map((a, i) => [a, products[(i + 1) % products.length]!] as const);
    pairs.push(['steel', 'sugar'], ['smartphone', 'smartphone']);
    for (const [a, b] of pairs) {
      const ab = (await get(`/compare?a=${a}&b=${b}&scenario=${scenario}`)).data.results;
      const ba = (await get(`/compare?a=${b}&b=${a}&scenario=${scenario}`)).data.results;
      assert.deepEqual(ab.a, ba.b, `${a}/${b}: the same figures`);
      assert.equal(ab.pair.samples, ba.pair.samples);
      for (const basis of Object.keys(ab.pair.by)) {
        const x = ab.pair.by[basis];
        const y = ba.pair.by[basis];
        const where = `${scenario} ${a}/${b} ${basis}`;
        const mirror = {
          a_larger: 'b_larger',
          b_larger: 'a_larger',
          not_distinguishable: 'not_distinguishable',
        } as Record<string, string>;
        assert.equal(y.verdict, mirror[x.verdict], `${where}: verdicts mirror`);
        assert.ok(x.p_a_greater + y.p_a_greater <= 1 + 1e-12, `${where}: p(a>b) + p(b>a) ≤ 1 (ties)`);
        const reciprocal = (p: number | null, q: number | null) => {
          if (p === null || q === null) return p === null ? q === 0 : p === 0; // unbounded one way is 0 the other
          return close(p * q, 1, 1e-9);
        };
        assert.ok(reciprocal(x.low, y.high), `${where}: low(a/b) = 1/high(b/a)`);
        assert.ok(reciprocal(x.median, y.median), `${where}: medians reciprocal`);
        assert.ok(reciprocal(x.high, y.low), `${where}: high(a/b) = 1/low(b/a)`);
        // central is null when a figure is INDICATIVE (both ways) or b's central is 0 (unbounded; 0 the other way)
        if (x.central !== null || y.central !== null)
          assert.ok(reciprocal(x.central, y.central), `${where}: centrals reciprocal`);
        if (x.verdict === 'a_larger')
          assert.ok(x.low === null || x.low > 1, `${where}: a verdict only where the interval excludes 1`);
        if (x.verdict === 'b_larger') assert.ok(x.high !== null && x.high < 1, where);
        if (x.verdict === 'not_distinguishable')
          assert.ok(
            !(x.low !== null && x.low > 1) && !(x.high !== null && x.high < 1),
            `${where}: the interval does not exclude 1`,
          );
      }
    }
  });
}

test('every INDICATIVE figure served above had a null central value', () => {
  assert.ok(indicative > 1000, `INDICATIVE figures seen: ${indicative}`);
  assert.equal(indicativeChecked, indicative);
});

/**
 * Issue 14: /compare over EVERY pair of products of the demo's S-MAX run, each ratio cross-checked
 * against what it divides, computed independently of the route:
 *  - the central ratio on each basis is the quotient of the two products' own central figures on that
 *    basis, as /product/{slug} serves them (per kg: each product's per-kg figure);
 *  - it is also the ratio of the means of the two products' stored draws (read from the database here,
 *    per kg divided by each product's own unit mass), so a mass scale applied twice cannot pass;
 *  - the per-kg quantiles are the per-unit ones times b's mass over a's;
 *  - p(a>b) + p(b>a) + p(a=b) = 1, and a product against itself is a tie.
 * The bug it would have caught: gold-necklace / gold-ring per kg central 0.199 with interval 0.889–1.105.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readDraws } from '../../../db/impact/read.ts';
import { close, startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
let products: string[];
const own = new Map<string, Json>();
before(async () => {
  server = await startImpactServer({ inProcess: true });
  products = server.app.db.prepare('SELECT slug FROM impact_products ORDER BY slug').pluck().all() as string[];
  for (const slug of products) {
    const res = await server.api(`/product/${slug}`);
    assert.equal(res.status, 200, slug);
    own.set(slug, res.json);
  }
});
after(() => server.cleanup());

const mean = (x: Float64Array) => x.reduce((s, y) => s + y, 0) / x.length;

test('every pair of products: each central ratio is the quotient of the two figures it divides, and of their draws', async () => {
  const runId = server.app.db
    .prepare("SELECT run_id FROM impact_current_runs WHERE scenario = 'S-MAX'")
    .pluck()
    .get() as number;
  let pairs = 0;
  let perKgChecked = 0;
  let differentMasses = 0;
  for (let i = 0; i < products.length; i++) {
    for (let j = i; j < products.length; j++) {
      const a = products[i]!;
      const b = products[j]!;
      const res = await server.api(`/compare?a=${a}&b=${b}`);
      assert.equal(res.status, 200, `${a}/${b}: ${res.text}`);
      const r = res.json.data.results;
      const A = own.get(a)!.metrics;
      const B = own.get(b)!.metrics;
      const where = `${a}/${b}`;
      // the two sides are the products' own figures
      assert.deepEqual(r.a.per_kg, A.deaths_per_kg, `${where}: a per kg as /product serves it`);
      assert.deepEqual(r.b.per_kg, B.deaths_per_kg, `${where}: b per kg as /product serves it`);
      const da = readDraws(server.app.db, runId, a, 'deaths')!;
      const db = readDraws(server.app.db, runId, b, 'deaths')!;
      for (const [basis, fa, fb, ma, mb, xa, xb] of [
        ['per_unit', A.deaths_per_unit, B.deaths_per_unit, 1, 1, da.perUnit, db.perUnit],
        ['per_kg', A.deaths_per_kg, B.deaths_per_kg, da.unitMassG, db.unitMassG, da.perUnit, db.perUnit],
        ['per_1000_eur', A.deaths_per_1000_eur, B.deaths_per_1000_eur, 1, 1, da.per1000Eur, db.per1000Eur],
      ] as const) {
        const x = r.pair.by[basis];
        if (basis === 'per_kg' && (ma === null || mb === null)) {
          assert.equal(x, undefined, `${where}: no per-kg ratio without both masses`);
          continue;
        }
        assert.ok(x, `${where} ${basis}`);
        const expected = fa.central !== null && fb.central !== null && fb.central > 0 ? fa.central / fb.central : null;
        if (expected === null) assert.equal(x.central, null, `${where} ${basis}: no central ratio`);
        else {
          assert.ok(
            close(x.central, expected, 1e-9),
            `${where} ${basis}: central ${x.central} is ${fa.central} / ${fb.central} = ${expected}`,
          );
          const fromDraws = mean(xa) / ma! / (mean(xb) / mb!);
          assert.ok(
            close(x.central, fromDraws, 1e-9),
            `${where} ${basis}: central ${x.central} is the ratio of the draws' means ${fromDraws}`,
          );
        }
        assert.ok(
          Math.abs(x.p_a_greater + x.p_a_equal + (1 - x.p_a_greater - x.p_a_equal) - 1) < 1e-12 &&
            x.p_a_greater + x.p_a_equal <= 1 + 1e-12,
          where,
        );
        if (basis === 'per_kg') {
          perKgChecked++;
          if (ma !== mb) differentMasses++;
          const u = r.pair.by.per_unit;
          const k = mb! / ma!;
          for (const q of ['low', 'median', 'high'] as const) {
            if (u[q] === null) assert.equal(x[q], null, `${where} per_kg ${q}`);
            else assert.ok(close(x[q], u[q] * k, 1e-9), `${where} per_kg ${q}: ${x[q]} is per unit ${u[q]} × ${k}`);
          }
        }
      }
      if (a === b) {
        assert.deepEqual([r.pair.p_a_greater, r.pair.p_a_equal], [0, 1], `${a} against itself is a tie`);
        for (const x of Object.values(r.pair.by) as Json[])
          assert.deepEqual(
            [x.low, x.median, x.high, x.verdict],
            [1, 1, 1, 'not_distinguishable'],
            `${a} against itself`,
          );
      }
      pairs++;
    }
  }
  assert.equal(pairs, (products.length * (products.length + 1)) / 2);
  assert.ok(
    perKgChecked > 500 && differentMasses > 500,
    `per-kg ratios checked: ${perKgChecked}, of products of different masses: ${differentMasses}`,
  );
});

test('the two pairs of the report: gold-necklace / gold-ring and t-shirt / cotton-yarn per kg', async () => {
  for (const [a, b] of [
    ['gold-necklace', 'gold-ring'],
    ['t-shirt', 'cotton-yarn'],
  ]) {
    const r = (await server.api(`/compare?a=${a}&b=${b}`)).json.data.results;
    const x = r.pair.by.per_kg;
    assert.ok(x.low <= x.median && x.median <= x.high, `${a}/${b}: an ordered interval`);
    // On the published register the gold ring's alloy is the cited 3–10 g (low confidence): INDICATIVE,
    // so no central value, and no ratio of centrals either.
    if (r.a.per_kg.central === null || r.b.per_kg.central === null) {
      assert.equal(x.central, null, `${a}/${b}: no central ratio of an INDICATIVE figure`);
      continue;
    }
    assert.ok(close(x.central, r.a.per_kg.central / r.b.per_kg.central, 1e-12), `${a}/${b}`);
    // Here the ratio of means lies inside the ratio's own p05–p95 interval (the report had it far outside).
    assert.ok(x.low <= x.central && x.central <= x.high, `${a}/${b}: ${x.central} in ${x.low}–${x.high}`);
  }
});

/**
 * The engine on the tiny register (tests/lib/impact/tiny.ts), with the input uncertainties switched
 * off so every draw equals the figure worked out on paper below.
 *
 * Window 2020–2021. Harm attributed to metal-ore mining (MIN-ORE), per year:
 *   AAA: work (C2) 10 × 0.5 = 5; conflict (C1) 20 deaths in 2020, none in 2021 → 10/yr × 0.1 = 1  → 6
 *   BBB: work (C2) 4 × 0.25 = 1                                                                     → 1
 * Value of mining in AAA: ore-x 100 t × 10 €/kg = 1.0 M€, ore-y 50 t × 30 €/kg = 1.5 M€ → shares 0.4, 0.6.
 *   ore-x: AAA 6 × 0.4 = 2.4 (C2 2, C1 0.4) + BBB 1 = 3.4 deaths/yr over 400 t → 8.5e-6 per kg
 *   ore-y: AAA 6 × 0.6 = 3.6 (C2 3, C1 0.6) over 100 t (50 t in AAA, 50 t rest of world) → 3.6e-5 per kg
 * gadget = 2 kg ore-x + 0.5 kg ore-y × 1.2 (loss) = 2 × 8.5e-6 + 0.6 × 3.6e-5 = 1.7e-5 + 2.16e-5 = 3.86e-5
 *   by country: AAA 2 × 2.4/400000 + 0.6 × 3.6e-5 = 3.36e-5; BBB 2 × 1/400000 = 5e-6
 *   by channel: C1 2 × 0.4/400000 + 0.6 × 0.6/100000 = 5.6e-6; C2 3.3e-5
 *   per kg: 3.86e-5 / 2.5 kg = 1.544e-5
 * gadget2 = 3 plates × 1 kg ore-x = 2.55e-5
 * Injuries (C2 only: 100/yr in AAA, 40 in BBB): ore-x (100·0.5·0.4 + 40·0.25)/400000 = 7.5e-5,
 *   ore-y 100·0.5·0.6/100000 = 3e-4, gadget 2 × 7.5e-5 + 0.6 × 3e-4 = 3.3e-4
 * Input-output route: A has one entry, AAA mining → AAA metals 0.5, so L = I + A. Mining harm
 * intensity in AAA = 6 deaths / 1 M€ output; gadget's column (AAA metals) per 1,000 EUR:
 *   6 × 0.5 × 1000 / 1e6 = 3e-3, all in the first tier of suppliers.
 * Spend (division 05: 0.5 EUR of AAA metals per EUR): 6 × 0.5 × 0.5 / 1e6 = 1.5e-6 per EUR, all made in AAA.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeRun } from '../../../lib/impact/engine.ts';
import { NO_UNCERTAINTY } from '../../../lib/impact/scenario.ts';
import { tinyRegister } from './tiny.ts';

const run = (scenario = 'S-MAX', reg = tinyRegister()) =>
  computeRun(reg, scenario, { seed: 7, draws: 4, uncertainty: NO_UNCERTAINTY });
const near = (actual: number | undefined, expected: number, what: string) =>
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) <= 1e-12 * Math.abs(expected) + 1e-300,
    `${what}: ${actual} ≠ ${expected}`,
  );

test('figures of a product of two materials in two countries, as computed on paper', () => {
  const { rows } = run();
  const figure = (key: string, basis: string, metric = 'deaths') =>
    rows.figures.find((f) => f.subject_key === key && f.basis === basis && f.metric === metric);
  const cases: Array<[string, string, string, number]> = [
    ['ore-x', 'per_kg', 'deaths', 8.5e-6],
    ['ore-y', 'per_kg', 'deaths', 3.6e-5],
    ['gadget', 'per_unit', 'deaths', 3.86e-5],
    ['gadget', 'per_kg', 'deaths', 1.544e-5],
    ['gadget2', 'per_unit', 'deaths', 2.55e-5],
    ['gadget', 'per_1000_eur', 'deaths', 3e-3],
    ['ore-x', 'per_kg', 'injuries', 7.5e-5],
    ['gadget', 'per_unit', 'injuries', 3.3e-4],
  ];
  for (const [key, basis, metric, expected] of cases) {
    const f = figure(key, basis, metric);
    for (const q of ['low', 'median', 'high', 'mean'] as const)
      near(f?.[q], expected, `${key} ${basis} ${metric} ${q}`);
  }
  assert.equal(figure('gadget2', 'per_kg'), undefined, 'no unit mass, no per-kg figure');
});

test('every breakdown of the paper example', () => {
  const { rows } = run();
  const part = (dimension: string, key: string, route = 'material') =>
    rows.contributions.find(
      (c) =>
        c.product === 'gadget' &&
        c.metric === 'deaths' &&
        c.route === route &&
        c.dimension === dimension &&
        c.key === key,
    )?.mean;
  const cases: Array<[string, string, number, string?]> = [
    ['line', '1', 1.7e-5],
    ['line', '2', 2.16e-5],
    ['material', 'ore-x', 1.7e-5],
    ['material', 'ore-y', 2.16e-5],
    ['country', 'AAA', 3.36e-5],
    ['country', 'BBB', 5e-6],
    ['channel', 'C1', 5.6e-6],
    ['channel', 'C2', 3.3e-5],
    ['conflict', 'k1', 5.6e-6],
    ['conflict', 'none', 3.3e-5],
    ['sector', 'MIN-ORE', 3.86e-5],
    ['layer', 'tier-1', 3e-3, 'mrio'],
    ['sector', 'MIN-ORE', 3e-3, 'mrio'],
    ['country', 'AAA', 3e-3, 'mrio'],
  ];
  for (const [dimension, key, expected, route] of cases)
    near(part(dimension, key, route), expected, `${route ?? 'material'} ${dimension} ${key}`);
  const share = rows.contributions.find(
    (c) => c.product === 'gadget' && c.metric === 'deaths' && c.dimension === 'country' && c.key === 'AAA',
  )!.share!;
  near(share, 3.36e-5 / 3.86e-5, 'share of AAA');
});

test('spend, reach and the counted-harm ratios of the paper example', () => {
  const { rows, checks } = run();
  const spend = rows.spend.find((s) => s.code === '05' && s.metric === 'deaths')!;
  near(spend.mean, 1.5e-6, 'spend 05 per EUR');
  assert.equal(spend.made_in_consumer, 1);
  const reference = rows.spend.find((s) => s.code === 'all' && s.metric === 'deaths')!;
  near(reference.mean, 1.5e-6, 'the average EUR is division 05 (its only division)');
  assert.equal(rows.spendLeftOut[0]!.share_of_spend, 0.5);
  const reach = (type: string, key: string) =>
    rows.reach.find((r) => r.metric === 'deaths' && r.subject_type === type && r.subject_key === key && r.rank === 0)!;
  const cases: Array<[string, string, number, number | null]> = [
    // type, key, attributed per year, counted per year
    ['material', 'ore-x', 3.4, null],
    ['material', 'ore-y', 3.6, null],
    ['country', 'AAA', 6, 20],
    ['country', 'BBB', 1, 4],
    ['channel', 'C1', 1, 10],
    ['channel', 'C2', 6, 14],
    ['conflict', 'k1', 1, 10],
  ];
  for (const [type, key, attributed, counted] of cases) {
    near(reach(type, key).mean, attributed, `reach ${type} ${key}`);
    assert.equal(reach(type, key).counted, counted, `counted ${type} ${key}`);
  }
  assert.deepEqual(
    rows.reach
      .filter((r) => r.subject_type === 'material' && r.subject_key === 'ore-y' && r.metric === 'deaths')
      .map((r) => r.product),
    [null, 'gadget'],
  );
  const ratio = (channel: string, iso3: string, year: number) =>
    checks.ratios.find((r) => r.metric === 'deaths' && r.channel === channel && r.iso3 === iso3 && r.year === year)!
      .ratio;
  near(ratio('C1', 'AAA', 2020), 0.1, 'C1 AAA 2020');
  near(ratio('C2', 'AAA', 2021), 0.5, 'C2 AAA 2021');
  near(ratio('C2', 'BBB', 2020), 0.25, 'C2 BBB 2020');
});

test('explain quantities flatten the bill of materials with its losses', () => {
  const { rows } = run();
  assert.deepEqual(
    rows.quantities.filter((q) => q.product === 'gadget2').map((q) => [q.material, q.qty, q.unit]),
    [['ore-x', 3, 'kg']],
  );
  const g = rows.quantities.filter((q) => q.product === 'gadget').map((q) => [q.material, q.qty]);
  assert.equal(g.length, 2);
  near(g[1]![1] as number, 0.6, 'ore-y with 20% loss');
});

test('the same seed gives the same rows; another seed other draws; draws are paired across products', () => {
  const reg = tinyRegister();
  const a = computeRun(reg, 'S-MAX', { seed: 11, draws: 200 });
  const b = computeRun(tinyRegister(), 'S-MAX', { seed: 11, draws: 200 });
  const c = computeRun(reg, 'S-MAX', { seed: 12, draws: 200 });
  assert.deepEqual(a.rows, b.rows);
  assert.notDeepEqual(a.rows.figures, c.rows.figures);
  // gadget2 is 3 kg of ore-x; plate is 1 kg: with the same draws of ore-x their ratio is 3 in every
  // draw except for the bill-of-materials multipliers, which are per line.
  const draws = (slug: string) =>
    a.rows.draws.find((d) => d.subject_type === 'product' && d.subject_key === slug && d.metric === 'deaths')!.draws;
  const lineOnly = computeRun(reg, 'S-MAX', {
    seed: 11,
    draws: 200,
    uncertainty: { ...NO_UNCERTAINTY, shareBand: { high: 0.2, medium: 0.5, low: 0.8 }, priceGsd: 1.3 },
  });
  const d2 = lineOnly.rows.draws.find((d) => d.subject_key === 'gadget2' && d.metric === 'deaths')!.draws;
  const d1 = lineOnly.rows.draws.find((d) => d.subject_key === 'plate' && d.metric === 'deaths')!.draws;
  for (let i = 0; i < 200; i++) near(d2[i]! / d1[i]!, 3, `draw ${i}`);
  assert.equal(draws('gadget').length, 200);
});

test('issue 14: reach lists products by harm per kg of product, those with no mass last', () => {
  // Through ore-x, per unit: gadget2 2.55e-5 (no mass), gadget 1.7e-5 (2.5 kg), plate 8.5e-6 (1 kg).
  // Per kg: plate 8.5e-6, gadget 6.8e-6, then gadget2 (no mass): the order per unit would be the reverse.
  const { rows } = run();
  const listed = rows.reach.filter(
    (r) => r.subject_type === 'material' && r.subject_key === 'ore-x' && r.metric === 'deaths' && r.rank > 0,
  );
  assert.deepEqual(
    listed.map((r) => [r.rank, r.product]),
    [
      [1, 'plate'],
      [2, 'gadget'],
      [3, 'gadget2'],
    ],
  );
  near(listed[0]!.mean, 8.5e-6, 'plate per unit');
  near(listed[1]!.mean, 1.7e-5, 'gadget per unit (the row stays per unit; the API divides by the mass)');
});

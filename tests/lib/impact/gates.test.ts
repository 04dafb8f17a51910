/**
 * Each of the seven gates passes on the tiny register and fails on a fixture built to fail it.
 * The fixture is the tiny register (or its run) with one thing broken.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeRun, type RunResult } from '../../../lib/impact/engine.ts';
import {
  gateBom,
  gateCounted,
  gateFigures,
  gateProduction,
  gateReproducible,
  gateSources,
  gateSums,
  sampleProducts,
  type GateResult,
} from '../../../lib/impact/gates.ts';
import type { Register } from '../../../lib/impact/types.ts';
import { tinyRegister } from './tiny.ts';

function allGates(reg: Register, tamper?: (r: RunResult) => void): GateResult[] {
  const result = computeRun(reg, 'S-MAX', { seed: 3, draws: 50 });
  const sample = sampleProducts(result.checks.bom.order, 3);
  const again = computeRun(reg, 'S-MAX', { seed: 3, draws: 50, only: sample });
  tamper?.(result);
  return [
    gateBom(result.checks, reg),
    gateProduction(reg),
    gateFigures(result.rows),
    gateSums(result.rows),
    gateCounted(result.checks),
    gateSources(result.checks, reg),
    gateReproducible(result.rows, again.rows, sample, 3),
  ];
}

test('every gate passes on the tiny register', () => {
  for (const g of allGates(tinyRegister())) assert.ok(g.passed, `${g.gate}: ${g.detail}`);
});

const cases: Array<{
  name: string;
  gate: string;
  detail: RegExp;
  broken: (reg: Register) => void;
  tamper?: (r: RunResult) => void;
  explained?: number;
}> = [
  {
    name: 'a product containing itself through another',
    gate: 'bom_resolves',
    detail: /cycle (plate → gadget2 → plate|gadget2 → plate → gadget2)/,
    broken: (reg) =>
      reg.bom.push({
        product: 'plate',
        line: 2,
        role: 'loop',
        component_type: 'product',
        component_key: 'gadget2',
        component_name: null,
        qty: 1,
        unit: 'piece',
        loss_factor: 0,
        confidence: 'high',
      }),
  },
  {
    name: 'a line naming a material that does not exist',
    gate: 'bom_resolves',
    detail: /gadget line 3: material 'unobtainium' does not exist/,
    broken: (reg) =>
      reg.bom.push({
        product: 'gadget',
        line: 3,
        role: 'x',
        component_type: 'material',
        component_key: 'unobtainium',
        component_name: null,
        qty: 1,
        unit: 'kg',
        loss_factor: 0,
        confidence: 'high',
      }),
  },
  {
    name: 'a line in a unit that does not fit its component',
    gate: 'bom_resolves',
    detail: /gadget2 line 1: unit 'kg' does not fit/,
    broken: (reg) => (reg.bom.find((l) => l.product === 'gadget2')!.unit = 'kg'),
  },
  {
    name: 'listed production above the world total, unexplained',
    gate: 'production_consistent',
    detail: /ore-x 2021: listed countries 500\.000 > world 400\.000/,
    broken: (reg) => (reg.production[0]!.countries[1]!.qty = 400),
  },
  {
    name: 'a negative production figure',
    gate: 'production_consistent',
    detail: /ore-y 2021 AAA: quantity -50/,
    broken: (reg) => (reg.production[1]!.countries[0]!.qty = -50),
  },
  {
    name: 'a negative loss factor making a figure negative',
    gate: 'figures_ordered',
    detail: /gadget deaths per_unit: negative/,
    broken: (reg) => (reg.bom[1]!.loss_factor = -5),
  },
  {
    name: 'an INDICATIVE figure that kept its central value',
    gate: 'figures_ordered',
    detail: /central must be null exactly when INDICATIVE/,
    broken: () => {},
    tamper: (r) => Object.assign(r.rows.figures[0]!, { grade: 'INDICATIVE' }),
  },
  {
    name: 'a breakdown that does not add up to its headline',
    gate: 'sums_to_headline',
    detail: /gadget deaths material by country/,
    broken: () => {},
    tamper: (r) => {
      r.rows.contributions.find((c) => c.product === 'gadget' && c.dimension === 'country')!.mean *= 1.01;
    },
  },
  {
    name: 'conflict shares adding up to more than the deaths',
    gate: 'attributed_within_counted',
    detail: /C1 AAA 2020 deaths: attributed 1\d\d\.\d% of counted/,
    broken: (reg) =>
      reg.periods
        .filter((p) => p.scenario === 'S-MAX')
        .forEach((p) => p.shares.push({ sector: 'METAL', share: 1.4, confidence: 'high', source: 'tiny' })), // each share is capped at 1: 0.1 + 1 > 1
  },
  {
    name: 'a source used without a licence',
    gate: 'sources_licensed',
    detail: /tiny: no licence/,
    broken: (reg) => (reg.sources[0]!.licence_name = null),
  },
  {
    name: 'a source used without its credit',
    gate: 'sources_licensed',
    detail: /tiny: no credit/,
    broken: (reg) => (reg.sources[0]!.credit = ' '),
  },
  {
    name: 'a run whose rows the recomputation does not reproduce',
    gate: 'reproducible',
    detail: /figures row \d+ differs/,
    broken: () => {},
    tamper: (r) => r.rows.figures.forEach((f) => f.subject_type === 'product' && (f.high += 1)),
  },
];

for (const c of cases) {
  test(`gate ${c.gate} fails on ${c.name}`, () => {
    const reg = tinyRegister();
    c.broken(reg);
    const gates = allGates(reg, c.tamper);
    const g = gates.find((x) => x.gate === c.gate)!;
    assert.equal(g.passed, false, `${c.gate} should fail: ${g.detail}`);
    assert.ok(g.offenders > g.explained);
    assert.match(g.detail, c.detail);
  });
}

test('documented offenders are explained and do not fail a gate', () => {
  const reg = tinyRegister();
  reg.bom.push({
    product: 'gadget',
    line: 3,
    role: 'paint',
    component_type: 'unmodelled',
    component_key: null,
    component_name: 'Paint',
    qty: 10,
    unit: 'g',
    loss_factor: 0,
    confidence: 'high',
  });
  reg.production[0]!.countries[1]!.qty = 310; // 410 t listed, world 400 t: +2.5%
  reg.production[0]!.note = 'the source rounds each figure on its own';
  const gates = allGates(reg);
  const bom = gates.find((g) => g.gate === 'bom_resolves')!;
  const production = gates.find((g) => g.gate === 'production_consistent')!;
  assert.deepEqual([bom.passed, bom.offenders, bom.explained], [true, 1, 1]);
  assert.deepEqual([production.passed, production.offenders, production.explained], [true, 1, 1]);
  assert.match(production.detail, /1 explained: ore-x 2021/);
});

test('the reproducibility sample is ~5%, at least 3, chosen by the seed', () => {
  const slugs = Array.from({ length: 200 }, (_, i) => `p${i}`);
  assert.equal(sampleProducts(slugs, 1).length, 10);
  assert.equal(sampleProducts(slugs.slice(0, 10), 1).length, 3);
  assert.equal(sampleProducts(['a', 'b'], 1).length, 2);
  assert.deepEqual(sampleProducts(slugs, 1), sampleProducts(slugs, 1));
  assert.notDeepEqual(sampleProducts(slugs, 1), sampleProducts(slugs, 2));
});

/**
 * Scenario parameters change what they name and nothing else. Each case runs the tiny register
 * with one parameter changed and compares draws with the baseline (same seed: paired draws).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeRun, type RunResult } from '../../../lib/impact/engine.ts';
import { parseParams } from '../../../lib/impact/scenario.ts';
import type { Register } from '../../../lib/impact/types.ts';
import { TINY_PARAMS, tinyRegister } from './tiny.ts';

const DRAWS = 300;
function runWith(params: object, edit?: (reg: Register) => void, scenario = 'S-MAX'): RunResult {
  const reg = tinyRegister();
  edit?.(reg);
  reg.scenarios.find((s) => s.code === scenario)!.params = params;
  return computeRun(reg, scenario, { seed: 5, draws: DRAWS });
}
const draws = (r: RunResult, slug: string, metric = 'deaths') =>
  r.rows.draws.find((d) => d.subject_type === 'product' && d.subject_key === slug && d.metric === metric)!.draws;
const part = (r: RunResult, dimension: string, key: string) =>
  r.rows.contributions.find(
    (c) =>
      c.product === 'gadget' &&
      c.metric === 'deaths' &&
      c.route === 'material' &&
      c.dimension === dimension &&
      c.key === key,
  );
const ratios = (a: Float64Array, b: Float64Array) => Array.from(a, (x, i) => x / b[i]!);
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));

const base = runWith(TINY_PARAMS);

test('channels: leaving out C2 leaves exactly the C1 part, draw by draw', () => {
  const onlyC1 = runWith({ ...TINY_PARAMS, channels: ['C1'] });
  assert.equal(part(onlyC1, 'channel', 'C2'), undefined);
  const c1 = computeRun(tinyRegister(), 'S-MAX', { seed: 5, draws: DRAWS }).rows.contributions.find(
    (c) => c.product === 'gadget' && c.metric === 'deaths' && c.dimension === 'channel' && c.key === 'C1',
  )!;
  assert.ok(close(part(onlyC1, 'channel', 'C1')!.mean, c1.mean));
  assert.ok(
    close(
      onlyC1.rows.figures.find((f) => f.subject_key === 'gadget' && f.basis === 'per_unit' && f.metric === 'deaths')!
        .mean,
      c1.mean,
    ),
  );
  assert.equal(
    onlyC1.rows.figures.find((f) => f.subject_key === 'gadget' && f.basis === 'per_unit' && f.metric === 'injuries')!
      .mean,
    0,
    'UCDP counts no injuries',
  );
});

test('conflicts: resource_linked drops a conflict without documented resource financing, and nothing else', () => {
  const linked = runWith({ ...TINY_PARAMS, conflicts: 'resource_linked' });
  assert.deepEqual(linked.rows.figures, base.rows.figures, 'k1 is resource-linked: same figures');
  const unlinked = runWith(
    { ...TINY_PARAMS, conflicts: 'resource_linked' },
    (reg) => (reg.conflicts[0]!.resource_linked = false),
  );
  assert.equal(part(unlinked, 'conflict', 'k1'), undefined);
  assert.ok(close(part(unlinked, 'channel', 'C2')!.mean, part(base, 'channel', 'C2')!.mean), 'C2 unchanged');
});

test('min_confidence: a share below it is not counted; the others are untouched', () => {
  const edit = (reg: Register) => (reg.harm_shares[1]!.confidence = 'low'); // BBB's share
  const all = runWith(TINY_PARAMS, edit);
  const medium = runWith({ ...TINY_PARAMS, min_confidence: 'medium' }, edit);
  assert.ok(part(all, 'country', 'BBB')!.mean > 0);
  assert.equal(part(medium, 'country', 'BBB'), undefined);
  assert.ok(close(part(medium, 'country', 'AAA')!.mean, part(all, 'country', 'AAA')!.mean));
});

test('share_basis low reads every share at the bottom of its band (high confidence: × 0.8)', () => {
  const low = runWith({ ...TINY_PARAMS, share_basis: 'low' });
  ratios(draws(low, 'gadget'), draws(base, 'gadget')).forEach((r, i) =>
    assert.ok(Math.abs(r - 0.8) < 1e-9, `draw ${i}: ${r}`),
  );
});

test('years: the window harm is averaged over', () => {
  const y2021 = runWith({ ...TINY_PARAMS, years: [2021, 2021] });
  assert.equal(part(y2021, 'conflict', 'k1'), undefined, 'no conflict deaths in 2021');
  // C2 counts the same every year: only the draws of the counts differ (one year instead of two)
  assert.ok(
    Math.abs(part(y2021, 'channel', 'C2')!.mean / part(base, 'channel', 'C2')!.mean - 1) < 0.05,
    'C2 about the same',
  );
});

test('arms: only arms products gain a manufacture part; everything else is identical', () => {
  const addRifle = (reg: Register) => {
    reg.products.push({
      slug: 'rifle',
      name: 'Rifle',
      tier: 'finished',
      unit: 'piece',
      unit_mass_g: 3000,
      is_arms: true,
      complete: true,
      bom_confidence: 'high',
      price_eur: 1000,
      price_source: 'tiny',
      mrio_region: 'AAA',
      mrio_sector: 'ARMS',
    });
    reg.bom.push({
      product: 'rifle',
      line: 1,
      role: 'body',
      component_type: 'product',
      component_key: 'plate',
      component_name: 'Plate',
      qty: 2,
      unit: 'piece',
      loss_factor: 0,
      confidence: 'high',
    });
  };
  const off = runWith(TINY_PARAMS, addRifle, 'S-ARMS');
  const on = runWith({ ...TINY_PARAMS, arms: true }, addRifle, 'S-ARMS');
  const nonArms = (r: RunResult) =>
    r.rows.figures.filter((f) => f.subject_key !== 'rifle' && f.basis !== 'per_1000_eur');
  assert.deepEqual(nonArms(on), nonArms(off));
  // 20 deaths × 0.2 over 2 years = 2 a year, over 2 M€ of world arms output: 1e-6 per EUR; the rifle adds 1,000 EUR of it.
  const manufacture = on.rows.contributions.find(
    (c) => c.product === 'rifle' && c.dimension === 'line' && c.key === 'manufacture' && c.metric === 'deaths',
  )!;
  assert.ok(Math.abs(manufacture.mean / 1e-3 - 1) < 0.05, `manufacture ${manufacture.mean}`);
  const d = ratios(draws(on, 'rifle'), draws(off, 'rifle'));
  assert.ok(d.every((r) => r > 1));
  assert.equal(
    off.rows.contributions.find((c) => c.product === 'rifle' && c.key === 'manufacture'),
    undefined,
  );
});

test('invalid scenario parameters are refused, naming what is wrong', () => {
  const cases: Array<[object, RegExp]> = [
    [{ ...TINY_PARAMS, channels: [] }, /channels/],
    [{ ...TINY_PARAMS, years: [2023, 2019] }, /from ≤ to/],
    [{ ...TINY_PARAMS, share_basis: 'high' }, /share_basis/],
    [{ ...TINY_PARAMS, surprise: true }, /surprise/],
  ];
  for (const [params, message] of cases) assert.throws(() => parseParams(params, 'S-X'), message);
});

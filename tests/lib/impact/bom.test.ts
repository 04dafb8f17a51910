/** Bills of materials as a graph, and the Leontief inverse. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBom, flattenCentral, linesByProduct, unitFactor } from '../../../lib/impact/bom.ts';
import { leontiefInverse } from '../../../lib/impact/matrix.ts';
import { tinyRegister } from './tiny.ts';

test('units of a line: g and kg for materials and per-kg components, the component unit otherwise', () => {
  const cases: Array<['material' | 'product', string, string | null, number | null]> = [
    ['material', 'kg', null, 1],
    ['material', 'g', null, 0.001],
    ['material', 'piece', null, null],
    ['product', 'kg', 'kg', 1],
    ['product', 'g', 'kg', 0.001],
    ['product', 'kWh', 'kWh', 1],
    ['product', 'kg', 'piece', null],
  ];
  for (const [component_type, unit, componentUnit, expected] of cases)
    assert.equal(
      unitFactor({ component_type, unit }, componentUnit),
      expected,
      `${component_type} ${unit} of ${componentUnit}`,
    );
});

test('components come before the products that use them; cycles block everything above them', () => {
  const reg = tinyRegister();
  const ok = checkBom(reg.products, reg.bom, reg.materials);
  assert.deepEqual(ok.order, ['gadget', 'plate', 'gadget2']);
  assert.deepEqual([ok.cycles, ok.blocked, ok.unresolved], [[], [], []]);

  reg.products.push({ ...reg.products[0]!, slug: 'kit' });
  reg.bom.push({
    product: 'kit',
    line: 1,
    role: 'g2',
    component_type: 'product',
    component_key: 'gadget2',
    component_name: null,
    qty: 1,
    unit: 'piece',
    loss_factor: 0,
    confidence: 'high',
  });
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
  });
  const bad = checkBom(reg.products, reg.bom, reg.materials);
  assert.equal(bad.cycles.length, 1);
  assert.deepEqual([...bad.cycles[0]!].sort(), ['gadget2', 'plate']);
  assert.deepEqual(bad.blocked, ['gadget2', 'kit', 'plate']);
  assert.deepEqual(bad.order, ['gadget']);
});

test('flattening sums raw materials through semi-finished products, with losses', () => {
  const reg = tinyRegister();
  reg.bom.push({
    product: 'gadget2',
    line: 2,
    role: 'trim',
    component_type: 'material',
    component_key: 'ore-x',
    component_name: null,
    qty: 500,
    unit: 'g',
    loss_factor: 0.1,
    confidence: 'high',
  });
  reg.bom.push({
    product: 'gadget2',
    line: 3,
    role: 'paint',
    component_type: 'unmodelled',
    component_key: null,
    component_name: 'Paint',
    qty: 20,
    unit: 'g',
    loss_factor: 0,
    confidence: 'high',
  });
  const q = flattenCentral(
    'gadget2',
    linesByProduct(reg.bom),
    new Map(reg.products.map((p) => [p.slug, p])),
    new Map(reg.materials.map((m) => [m.slug, m])),
  );
  assert.deepEqual(
    q.map((x) => [x.material, x.name, Number(x.qty.toFixed(9)), x.unit]),
    [
      ['ore-x', 'Ore X', 3.55, 'kg'],
      [null, 'Paint', 0.02, 'kg'],
    ],
  );
});

test('the Leontief inverse of a two-sector table, checked by hand', () => {
  // I − A = [[0.8, −0.3], [−0.1, 0.6]], determinant 0.45: inverse [[0.6, 0.3], [0.1, 0.8]] / 0.45
  const L = leontiefInverse({ n: 2, data: Float64Array.from([0.2, 0.3, 0.1, 0.4]) });
  const expected = [0.6 / 0.45, 0.3 / 0.45, 0.1 / 0.45, 0.8 / 0.45];
  L.data.forEach((v, i) => assert.ok(Math.abs(v - expected[i]!) < 1e-12, `L[${i}] = ${v}`));
  assert.throws(() => leontiefInverse({ n: 1, data: Float64Array.from([1]) }), /singular/);
});

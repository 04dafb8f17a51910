/**
 * Issue 33g's spot checks, read from the shipped bom-additions file with csv-parse directly, not through the
 * importers. The biscuits: McVitie's Milk Chocolate Digestives' declared percentages (EU QUID) times the 200 g
 * pack give the coating and the flour; the label states no share for its palm oil or its sugar, so the two
 * derived rows are bounds recomputed here from the label's fat, sugars and ingredient order and from family
 * milk chocolate's legal minima (Directive 2000/36/EC), and each line is the geometric mean of its bounds.
 * The margarine's oils have no label read: they stay illustrative.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { additionRow, additionValue, bomLine } from '../helpers/impact-bom.ts';

const row = additionRow;
const value = additionValue;
const line = bomLine;
const num = (n: number, col: 'min' | 'max') => Number(row(n)[col]);
const close = (a: number, b: number, what: string, tolerance = 1e-9) =>
  assert.ok(Math.abs(a - b) < tolerance, `${what}: ${a} ≠ ${b}`);
const PACK = 200; // g: the catalogue's 200 g pack (fixtures/impact/products.json)

test("the label's declared shares are quoted in the rows, and flour plus chocolate leave room for the rest", () => {
  for (const [n, what, pct] of [
    [93, 'milk chocolate (coating)', 30],
    [94, 'wheat flour', 39],
    [95, 'wholemeal wheat flour', 9],
  ] as const) {
    assert.equal(row(n).material, what);
    assert.equal(value(n), pct);
    assert.match(row(n).product!, /^McVitie's Milk Chocolate Digestives/);
  }
  assert.match(row(93).basis_note!, /milk chocolate at 30 per cent/);
  assert.match(row(94).basis_note!, /regular white flour makes up 39 per cent/);
  // what the label declares leaves 22 % for the palm oil, the sugar, the syrup, the raising agents and the salt
  assert.equal(100 - value(93) - value(94) - value(95), 22);
  assert.equal(value(96), 23.6);
  assert.match(row(96).basis_note!, /Fat per 100g: 23\.6g/);
  assert.equal(value(97), 4.8);
  assert.match(row(97).unit!, /per biscuit of 16\.7 g/);
  // the ingredient order: the oil between the chocolate and the wholemeal, the sugar after the wholemeal
  assert.deepEqual([num(98, 'min'), num(98, 'max')], [value(95), value(93)]);
  assert.equal(num(99, 'max'), value(95));
  assert.match(row(98).basis_note!, /Vegetable Oil,Wholemeal \(9%\)\. Sugar,Glucose-Fructose Syrup/);
  // family milk chocolate's minima (Directive 2000/36/EC, Annex I A.5), per kg
  assert.deepEqual(
    [100, 101, 102].map((n) => num(n, 'min')),
    [250, 200, 50],
  );
  assert.match(row(100).basis_note!, /not less than 25 % total fat/);
});

test('rows 103 and 104 are the bounds the label and the directive fix, in g per 200 g pack', () => {
  const share = (pct: number) => (pct / 100) * PACK;
  // palm oil: above the wholemeal's 9 %; at most the declared fat less the chocolate's least fat
  close(num(103, 'min'), share(num(98, 'min')), 'oil, low');
  const chocolateFat = (value(93) * num(100, 'min')) / 1000; // % of the biscuits
  close(num(103, 'max'), share(value(96) - chocolateFat), 'oil, high');
  assert.match(row(103).unit!, /^g per 200 g pack DERIVED: /);
  // sugar: at most the wholemeal's 9 %; at least half of the declared sugars beside the most the chocolate can hold
  const sugars = (value(97) / 16.7) * 100; // % of the biscuits
  const chocolateSugarsAtMost = (value(93) * (1000 - num(101, 'min') - num(102, 'min'))) / 1000;
  // the row is rounded to 0.1 mg
  close(num(104, 'min'), share((sugars - chocolateSugarsAtMost) / 2), 'sugar, low', 5e-5);
  close(num(104, 'max'), share(num(99, 'max')), 'sugar, high');
  assert.match(row(104).unit!, /^g per 200 g pack DERIVED: /);
});

test("the biscuits' lines take the rows: the declared shares × 200 g, the bounds' geometric means", () => {
  const coating = line('biscuits', 'coating');
  assert.equal(`${coating.component_type}:${coating.component_key}`, 'product:chocolate-mass');
  close(coating.qty, (value(93) / 100) * PACK, 'coating');
  assert.equal(coating.qty, 60);
  assert.deepEqual(coating.cited, ['sets bom_additions.csv:93']);
  const flour = line('biscuits', 'flour');
  close(flour.qty, ((value(94) + value(95)) / 100) * PACK, 'flour');
  for (const [role, n] of [
    ['fat', 103],
    ['sugar', 104],
  ] as const) {
    const l = line('biscuits', role);
    close(l.qty, Math.sqrt(num(n, 'min') * num(n, 'max')), role);
    assert.equal(Number(l.qty_low), num(n, 'min'));
    assert.equal(Number(l.qty_high), num(n, 'max'));
    assert.ok(l.cited.includes(`sets bom_additions.csv:${n}`), `${role}: ${l.cited.join(', ')}`);
  }
  assert.equal(line('biscuits', 'fat').component_key, 'palm-oil');
  assert.equal(line('biscuits', 'sugar').component_key, 'sugar');
  for (const role of ['sugar', 'fat', 'coating', 'flour']) assert.equal(line('biscuits', role).basis, 'derived', role);
  // plausibility: the four lines are most of the 200 g pack, never more (the syrup, raising agents and salt
  // make up the rest), and the demo's 50 g of sugar was above the label's 9 % ceiling
  const sum = ['sugar', 'fat', 'coating', 'flour'].reduce((s, r) => s + line('biscuits', r).qty, 0);
  assert.ok(sum > 0.9 * PACK && sum <= PACK, `${sum} g of ${PACK} g`);
  assert.ok(50 > num(104, 'max'));
});

test("the margarine's oils stay illustrative: the standards fix its fat, no label read splits it", () => {
  for (const role of ['palm fat', 'soy oil', 'water and other oils'])
    assert.equal(line('margarine', role).basis, 'illustrative', role);
});

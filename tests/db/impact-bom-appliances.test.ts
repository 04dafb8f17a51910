/**
 * Issue 33f's spot checks on the two appliances, read from the shipped bom-additions file with csv-parse
 * (tests/helpers/impact-bom.ts), not through the importers. Each line is a share of the product's mass from
 * a published composition × the register's unit mass (fixtures/impact/products.json), so each is recomputed
 * here from the row's quoted words and the catalogue's mass: the refrigerator's boards from CECED/UNU's 1.5 %
 * (up to 2 %) of electronic components, its copper, aluminium and steel from Haier's BCD-181 (whose quoted
 * shares must fit inside one 62 kg appliance); the washing machine's boards and steel from CECED/UNU's
 * 2.4–2.7 % and 41 %, its copper OpenLearn's 2.7 kg. ComEd's copper and aluminium together is a check, not
 * split; the refrigerator's plastics and foam and the washing machine's drum and castings stay illustrative.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  additionRow as row,
  additionValue as value,
  bomLine as line,
  catalogueProduct,
  type BomLine,
} from '../helpers/impact-bom.ts';

const massKg = (slug: string) => catalogueProduct(slug).unit_mass_g / 1000;

/** the row numbers these checks read, found by their quoted words rather than hard-coded */
const find = (re: RegExp, material: string): number => {
  const hits: number[] = [];
  for (let n = 1; ; n++) {
    const r = row(n);
    if (!r) break;
    if (r.material === material && re.test(r.basis_note!)) hits.push(n);
  }
  assert.equal(hits.length, 1, `${material} ${re}: rows ${hits.join(', ')}`);
  return hits[0]!;
};
/** a quoted percentage ("1,5%" or "57.2%") as a fraction */
const pct = (s: string) => Number((Number(s.replace(',', '.')) / 100).toPrecision(12));
const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) < 1e-9 * Math.max(1, b), `${what}: ${a} ≠ ${b}`);
const range = (l: BomLine) => [Number(l.qty_low), Number(l.qty_high)];

const fridgeElectronics = find(
  /electronic components have increased from 0,5% to 1,5%, and up to 2%/,
  'electronic components',
);
const washerElectronics = find(/electronic components increased from 0,2% up to 2,4-2,7%/, 'electronic components');
const washerSteel = find(/Today the amount of steel has decreased to 41%/, 'steel');
const haierCopper = find(/BCD-181, which is 62 kg/, 'copper');
const haierAluminium = find(/"aluminum \(2\.83%\)"/, 'aluminium');
const haierSteel = find(/"iron and steel \(57\.2%\)"/, 'iron and steel');
const openLearnCopper = find(/copper consumes 2\.7 kilograms per machine/, 'copper');
const segAluminium = find(/Über 1 kg Aluminium, entsprechen 2,4 %/, 'aluminium');
const segFerrous = find(/entsprechend 60-67 %/, 'ferrous metal');
const comed = find(/8 pounds of copper and aluminum/, 'copper and aluminium together');

test('each row holds the percentage its quoted words give, as a fraction of the product', () => {
  assert.deepEqual(
    [value(fridgeElectronics), Number(row(fridgeElectronics).min), Number(row(fridgeElectronics).max)],
    [pct('1,5'), pct('1,5'), pct('2')],
  );
  assert.deepEqual(
    [row(washerElectronics).quantity, Number(row(washerElectronics).min), Number(row(washerElectronics).max)],
    ['', pct('2,4'), pct('2,7')],
  );
  assert.equal(value(washerSteel), pct('41'));
  const quoted = row(haierCopper).basis_note!;
  for (const [n, material] of [
    [haierSteel, 'iron and steel'],
    [haierCopper, 'copper'],
    [haierAluminium, 'aluminum'],
  ] as const) {
    const m = new RegExp(`${material} \\((\\d+\\.\\d+)%\\)`).exec(quoted);
    assert.ok(m, material);
    close(value(n), pct(m[1]!), material);
  }
  // the quoted shares fit one appliance: iron and steel, copper, aluminium, PS and PVC leave room for "Others"
  const listed = [...quoted.matchAll(/\((\d+\.\d+)%\)/g)].map((m) => Number(m[1]));
  assert.equal(listed.length, 5);
  const sum = listed.reduce((a, b) => a + b, 0);
  assert.ok(sum > 80 && sum < 100, `${sum} %`);
  // and Haier's own "35 kg steel" is its 57.2 % of 62 kg
  assert.match(quoted, /35 kg steel/);
  assert.equal(Math.round(value(haierSteel) * 62), 35);
  assert.equal(value(openLearnCopper), 2.7);
  assert.equal(row(openLearnCopper).unit, 'kg per unit');
  close(value(comed), Math.round(8 * 0.45359 * 100) / 100, 'ComEd 8 lb');
});

test("the refrigerator's lines are the shares × the register's 60 kg, ranges from the recyclers' shares", () => {
  const kg = massKg('refrigerator');
  assert.equal(kg, 60);
  const boards = line('refrigerator', 'controls');
  close(boards.qty, value(fridgeElectronics) * kg, 'boards');
  assert.deepEqual(
    range(boards).map((x) => x.toFixed(6)),
    [0.015 * kg, 0.02 * kg].map((x) => x.toFixed(6)),
  );
  assert.deepEqual(
    [boards.unit, boards.basis, boards.cited],
    ['kg', 'derived', [`sets bom_additions.csv:${fridgeElectronics}`]],
  );

  const copper = line('refrigerator', 'compressor and tubing');
  close(copper.qty, 0.0142 * kg, 'copper');
  assert.equal(copper.basis, 'derived');
  assert.deepEqual(copper.cited, [`sets bom_additions.csv:${haierCopper}`, `checks bom_additions.csv:${comed}`]);
  // ComEd's copper and aluminium together is not split; Haier's two shares of a 60 kg appliance stay under it
  const aluminium = line('refrigerator', 'evaporator');
  close(aluminium.qty, 0.0283 * kg, 'aluminium');
  assert.ok(copper.qty + aluminium.qty < value(comed), `${copper.qty + aluminium.qty} kg`);
  assert.deepEqual(
    range(aluminium).map((x) => x.toFixed(6)),
    [0.024 * kg, 0.0283 * kg].map((x) => x.toFixed(6)),
  );
  assert.deepEqual(aluminium.cited, [
    `sets bom_additions.csv:${haierAluminium}`,
    `range bom_additions.csv:${segAluminium}`,
  ]);

  const steel = line('refrigerator', 'cabinet');
  close(steel.qty, 0.572 * kg, 'steel');
  assert.deepEqual(
    range(steel).map((x) => x.toFixed(6)),
    [0.572 * kg, 0.67 * kg].map((x) => x.toFixed(6)),
  );
  assert.deepEqual(steel.cited, [`sets bom_additions.csv:${haierSteel}`, `range bom_additions.csv:${segFerrous}`]);
  // the cited lines and the demo's 25 kg of plastics and foam stay within the appliance's 60 kg
  const plastics = line('refrigerator', 'plastics and foam');
  assert.equal(plastics.basis, 'illustrative');
  const total = boards.qty + copper.qty + aluminium.qty + steel.qty + plastics.qty;
  assert.ok(total < kg * 1.05, `${total} kg of ${kg}`);
});

test("the washing machine's boards and steel are CECED/UNU's shares × 70 kg; its copper OpenLearn's 2.7 kg", () => {
  const kg = massKg('washing-machine');
  assert.equal(kg, 70);
  const boards = line('washing-machine', 'controls');
  // the source gives a range only: the central value is the geometric mean of its ends
  close(boards.qty, Math.sqrt(0.024 * kg * 0.027 * kg), 'boards');
  assert.deepEqual(
    range(boards).map((x) => x.toFixed(6)),
    [0.024 * kg, 0.027 * kg].map((x) => x.toFixed(6)),
  );
  assert.deepEqual([boards.basis, boards.cited], ['derived', [`sets bom_additions.csv:${washerElectronics}`]]);
  const steel = line('washing-machine', 'cabinet');
  close(steel.qty, 0.41 * kg, 'steel');
  assert.deepEqual([steel.basis, steel.cited], ['derived', [`sets bom_additions.csv:${washerSteel}`]]);
  const copper = line('washing-machine', 'motor and wiring');
  assert.deepEqual(
    [copper.qty, copper.unit, copper.basis, copper.cited],
    [2.7, 'kg', 'published', [`sets bom_additions.csv:${openLearnCopper}`]],
  );
  // no stainless-steel or aluminium share of a washing machine was read (methodology v3 §5.4)
  for (const role of ['drum', 'castings', 'counterweight and plastics'])
    assert.equal(line('washing-machine', role).basis, 'illustrative', role);
  // steel, copper, boards and the demo's drum, castings and 25 kg of concrete and plastics fit in 70 kg
  const total = ['cabinet', 'drum', 'motor and wiring', 'castings', 'controls', 'counterweight and plastics']
    .map((r) => line('washing-machine', r).qty)
    .reduce((a, b) => a + b, 0);
  assert.ok(total < kg, `${total} kg of ${kg}`);
});

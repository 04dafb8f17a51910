/**
 * Issue 33d's spot checks for the lines taken from Ecobalyse, the French environmental-cost method's
 * component catalogue (a steel city bicycle, an e-bike, a pair of jeans), and for the tablet's battery,
 * read from the shipped bom-additions file with csv-parse directly, not through the importers. Each line
 * is recomputed from the component rows it cites, two wheels and two tyres as the method's examples count
 * them, and checked against what the product is: the bicycle's lines add up to about the catalogue's 13 kg,
 * the jean is the method's 450 g cotton default with a brass button and zip.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { additionRow, additionValue, bomLine, bomLines } from '../helpers/impact-bom.ts';

const row = additionRow;
const kg = (...ns: number[]) => ns.reduce((s, n) => s + additionValue(n), 0);
const lines = bomLines;
const line = bomLine;
const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9 * b, `${what}: ${a} ≠ ${b}`);
const COMPONENTS = /^https:\/\/github\.com\/MTES-MCT\/ecobalyse\/blob\/02b3df5c97d55d0e259d01cad5f448683be59ef6\//;

test('the component rows are Ecobalyse’s, each naming its component, element and material', () => {
  for (let n = 35; n <= 68; n++) {
    if (n === 57) continue; // the city bicycle example
    assert.match(row(n).url!, COMPONENTS, `row ${n}`);
    assert.match(row(n).page_or_table!, /^component id [0-9a-f-]{36}, element \d: material [0-9a-f-]{36} \(/);
    assert.equal(row(n).unit, 'kg per component');
  }
  assert.deepEqual(
    [row(35).product, row(35).material, row(35).quantity],
    ["bicycle component (Ecobalyse 'Cadre vélo acier')", 'steel (unalloyed)', '2.5'],
  );
  // the examples count two wheels and two tyres with tubes
  assert.deepEqual([row(57).quantity, row(69).quantity], ['2', '2']);
});

test('the steel city bicycle: each line is the sum of its components, two wheels and two tyres', () => {
  close(line('bicycle', 'frame and drive').qty, kg(35, 36, 47, 51, 55), 'steel');
  close(line('bicycle', 'frame and drive').qty, 5.08, 'steel kg');
  close(line('bicycle', 'wheels and fittings').qty, 2 * kg(37, 38) + kg(44, 49, 50, 54), 'aluminium');
  close(line('bicycle', 'tyres').qty, 2 * kg(39, 40, 42), 'tyre compound');
  close(line('bicycle', 'tyre beads').qty, 2 * kg(41), 'stainless beads');
  close(line('bicycle', 'tyre valves').qty, 2000 * kg(43), 'brass valves, g');
  for (const l of lines('bicycle')) assert.equal(line('bicycle', l.role as string).basis, 'derived', l.role as string);
  // plausible: the lines weigh about the catalogue's 13 kg steel city bicycle
  const total = lines('bicycle').reduce((s, l) => s + Number(l.qty) / (l.unit === 'g' ? 1000 : 1), 0);
  close(total, 12.761, 'the bicycle’s lines, kg');
  assert.ok(Math.abs(total / 13 - 1) < 0.05);
});

test('the e-bike: frame, steel, wheels and tyres from the components; motor windings and controller stay illustrative', () => {
  close(line('e-bike', 'frame').qty, kg(58, 59), 'frame and fork');
  close(line('e-bike', 'drive and fittings').qty, kg(60, 65, 47), 'steel');
  close(line('e-bike', 'wheels and fittings').qty, 2 * kg(37, 38) + kg(44, 62, 64, 67, 49), 'aluminium');
  close(line('e-bike', 'tyres').qty, 2 * kg(39, 40, 42), 'tyre compound');
  assert.deepEqual([line('e-bike', 'battery').qty, line('e-bike', 'battery').basis], [0.5, 'derived']);
  // Ecobalyse's motor is whole: the windings and controller stay illustrative; the magnets are a magnet
  // maker's hub-motor set since issue 33e (tests/db/impact-bom-components.test.ts)
  for (const role of ['motor windings', 'controller']) assert.equal(line('e-bike', role).basis, 'illustrative', role);
  assert.equal(line('e-bike', 'motor magnets').basis, 'derived');
});

test('jeans: Ecobalyse’s 450 g cotton jean, a brass button and a short zip', () => {
  const denim = line('jeans', 'denim');
  assert.deepEqual([denim.qty, denim.unit, denim.component_key, denim.basis], [450, 'g', 'cotton-yarn', 'published']);
  assert.match(row(70).page_or_table!, /mass 0\.45, materials \[62a4d6fb-… share 1\]/);
  const trims = line('jeans', 'button and zip');
  close(trims.qty, 1000 * kg(71, 72), 'button and zip, g');
  assert.deepEqual([trims.component_key, trims.basis], ['brass', 'derived']);
  assert.equal(lines('jeans').length, 2, 'no rivets line: the method’s jean has none');
});

test('the tablet’s battery is the iPad (10th generation)’s 28.6 Wh; its magnets stay illustrative', () => {
  const b = line('tablet', 'battery');
  assert.deepEqual([b.qty, b.unit, b.basis], [0.0286, 'kWh', 'published']);
  assert.match(row(73).basis_note!, /Weight: Wi-Fi: 477 g/);
  // its boards and case are the first iPad's published material use since issue 33e (impact-bom-components)
  assert.equal(line('tablet', 'magnets').basis, 'illustrative');
});

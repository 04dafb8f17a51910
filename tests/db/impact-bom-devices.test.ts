/**
 * Issue 33i's spot checks, read from the shipped bom-additions file with csv-parse directly, not through the
 * importers. The solar panel's solder: Fraunhofer ISE's lead per module, and the tin beside it in the ribbons'
 * Sn63Pb37 coat, recomputed from the rows and checked against what a module's ribbons can physically carry. The
 * military drone's battery and boards: a 7-inch FPV pack's stated cells and energy, and a maker's weighed FC/ESC
 * stack. The earbuds' batteries: the first AirPods' buds and case, whose stated weights must make a 50 g set.
 * What stays illustrative is checked too (methodology v3 §5.4).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { additionRow, additionValue, bomLine } from '../helpers/impact-bom.ts';

const row = additionRow;
const value = additionValue;
const line = bomLine;
const close = (a: number, b: number, what: string, tol = 1e-9) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} ≠ ${b}`);

const LEAD = 'solder lead (ribbon coat and solder)';
const TIN = 'solder tin (ribbon coat and solder)';

test('the solder rows are the sources’ figures, quoted: 10 g of solder lead, up to 12 g in all, a Sn63Pb37 coat', () => {
  assert.equal(value(81), 10);
  assert.match(row(81).basis_note!, /for soldering the cells \(10 grams of lead\)/);
  assert.match(row(81).publisher_or_authors!, /Fraunhofer ISE/);
  assert.equal(row(82).quantity, '');
  assert.equal(Number(row(82).max), 12);
  assert.match(row(82).basis_note!, /up to 12 grams of lead/);
  assert.deepEqual([value(83), Number(row(83).min), Number(row(83).max)], [63, 60, 63]);
  assert.match(row(83).basis_note!, /Coating composition: 63%Sn37%Pb/);
  assert.match(row(83).basis_note!, /most PV manufacturers use a ribbon that contains lead/);
});

test('row 84 is row 81’s lead × 63 ÷ 37, and says it is derived', () => {
  close(value(84), (value(81) * value(83)) / (100 - value(83)), 'tin g');
  assert.match(row(84).unit!, /^g per module DERIVED: 10 g of solder lead/);
});

test('the panel’s SAC305 line became the coat’s lead (published) and tin (derived), with the sources’ range', () => {
  const lead = line('solar-panel', LEAD);
  assert.deepEqual(
    [lead.qty, lead.unit, lead.component_key, lead.basis, lead.line],
    [value(81), 'g', 'lead', 'published', 4],
  );
  assert.deepEqual([lead.qty_low, lead.qty_high], [10, Number(row(82).max)]);
  assert.deepEqual(lead.cited, [
    'sets bom_additions.csv:81',
    'range bom_additions.csv:82',
    'checks bom_additions.csv:83',
  ]);
  const tin = line('solar-panel', TIN);
  assert.deepEqual([tin.unit, tin.component_key, tin.basis], ['g', 'tin', 'derived']);
  close(tin.qty, value(84), 'tin');
  close(Number(tin.qty_low), (value(81) * 60) / 40, 'Sn60Pb40 coat');
  close(Number(tin.qty_high), (Number(row(82).max) * 63) / 37, 'pv magazine’s 12 g of lead in Sn63Pb37');
  assert.deepEqual(tin.cited, [
    'sets bom_additions.csv:84',
    'range bom_additions.csv:81',
    'range bom_additions.csv:82',
    'checks bom_additions.csv:83',
  ]);
  assert.equal(
    line('solar-panel', 'ribbons and junction box').basis,
    'illustrative',
    'no junction-box copper was read (§5.4)',
  );
  // plausibility: the cells of a 60-cell module (156 mm, three busbars) are joined by about 60 × 3 × 2 × 0.156 m
  // = 56 m of 1.0 × 0.2 mm ribbon (PV_ICE's tabbing ribbon), front and back; a 15–25 µm coat (Raytron's
  // standard ribbon) of tin-lead at about 8.4 g/cm³ on its 2.4 mm perimeter is 17–28 g of solder. The two lines
  // are 27 g, inside that span, and a little more than the 20 g of SAC305 they replace.
  const coat = (um: number) => 60 * 3 * 2 * 156 * 2.4 * (um / 1000) * 8.4e-3;
  const solder = lead.qty + tin.qty;
  assert.ok(solder >= coat(15) && solder <= coat(25) * 1.05, `${solder.toFixed(1)} g of solder`);
});

test('the military drone’s battery is the 7-inch FPV pack’s 181 Wh; its stated cells multiply out to it', () => {
  assert.equal(value(87), 181);
  assert.match(row(87).basis_note!, /6S2P Molicel pack, 8\.4 Ah × 21\.6 V ≈ 181 Wh/);
  close(8.4 * 21.6, value(87), '6S2P of 4.2 Ah cells at 3.6 V', 0.005);
  const battery = line('military-drone', 'battery');
  assert.deepEqual([battery.qty, battery.unit, battery.basis, battery.confidence], [0.181, 'kWh', 'published', 'low']);
  assert.deepEqual(battery.cited, ['sets bom_additions.csv:87']);
  // twelve 21700 cells of about 70 g: about a third of the 2.5 kg drone, leaving its warhead, motors and frame
  assert.ok(12 * 70 < 2500 / 2);
});

test('the military drone’s boards are the maker’s weighed FC/ESC stack, the previous version widening the range', () => {
  assert.deepEqual([value(85), value(86)], [34, 23.4]);
  assert.match(row(85).basis_note!, /"Weight \| 34 g"/);
  assert.match(row(85).basis_note!, /3-6S LiPo/);
  assert.match(row(86).basis_note!, /"Weight \| 23\.4g"/);
  const boards = line('military-drone', 'boards');
  assert.deepEqual(
    [boards.qty, boards.unit, boards.basis, boards.qty_low, boards.qty_high],
    [34, 'g', 'published', 23.4, 34],
  );
  assert.deepEqual(boards.cited, ['sets bom_additions.csv:85', 'range bom_additions.csv:86']);
  for (const role of ['motor magnets', 'frame']) assert.equal(line('military-drone', role).basis, 'illustrative', role);
});

test('the earbuds’ batteries are the first AirPods’: two buds and a case, a set of about 50 g', () => {
  assert.deepEqual([value(88), value(89)], [0.093, 1.52]);
  const quote = row(88).basis_note!;
  assert.equal(row(89).basis_note, quote);
  assert.match(quote, /each AirPod was found to contain a 93 milliwatt hour battery/);
  assert.match(quote, /1\.52-watt-hour or 398 mAh at 3\.81 V/);
  close(0.398 * 3.81, value(89), 'the case’s mAh × V', 0.005);
  // the weights quoted: 2 × 4 g buds and a 38 g case make the register's 50 g set to within a tenth
  const [bud, kase] = [...quote.matchAll(/\((\d+) g\)/g)].map((m) => Number(m[1]));
  assert.deepEqual([bud, kase], [4, 38]);
  assert.ok(Math.abs((2 * bud! + kase!) / 50 - 1) <= 0.1, `${2 * bud! + kase!} g`);
  const batteries = line('wireless-earbuds', 'batteries');
  close(batteries.qty, (2 * value(88) + value(89)) / 1000, 'kWh');
  assert.deepEqual([batteries.unit, batteries.basis], ['kWh', 'derived']);
  assert.deepEqual(batteries.cited, ['sets bom_additions.csv:88', 'sets bom_additions.csv:89']);
  for (const role of ['boards', 'driver magnets'])
    assert.equal(line('wireless-earbuds', role).basis, 'illustrative', role);
});

/**
 * Issue 33d's spot checks: the solar cell and the 400 W panel from NREL PV_ICE's world baseline of 2023,
 * read from the shipped bom-additions file with csv-parse directly, not through the importers. Each
 * line is recomputed from the rows it cites (material per m² × the M10 cell's area, or × the module's
 * area from its rating and PV_ICE's efficiency), and checked for plausibility against what a wafer and
 * a module physically are: an M10 wafer of 130–180 µm holds 10–14 g of silicon; a 108-half-cell module
 * is 54 whole cells; the lines add up to about the catalogue's 21 kg panel.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { additionRow, additionValue, bomLine, bomLines } from '../helpers/impact-bom.ts';

const row = additionRow;
const value = additionValue;
const line = bomLine;
const close = (a: unknown, b: number, what: string) =>
  assert.ok(Math.abs(Number(a) - b) < 1e-9 * b, `${what}: ${a} ≠ ${b}`);

const M10 = 0.182 ** 2; // m² of an M10 cell, row 34's 182 mm × 182 mm

test('the PV_ICE rows are those of world c-Si modules in 2023, each citing its file at the read commit', () => {
  const expected: Array<[number, string, number]> = [
    [25, 'module efficiency', 21.73311205],
    [26, 'silicon', 374.969],
    [27, 'silver', 2.898863882],
    [28, 'aluminium (frames)', 1229.294118],
    [29, 'copper (cell ribbons)', 8.38656],
    [30, 'glass', 9805.45],
    [31, 'encapsulant', 778.335],
    [32, 'backsheet', 387.8432],
  ];
  for (const [n, material, v] of expected) {
    assert.deepEqual([row(n).material, value(n)], [material, v], `row ${n}`);
    assert.match(row(n).url!, /^https:\/\/github\.com\/NREL\/PV_ICE\/blob\/378a012a0602062ad52f14120d672f362dcc018a\//);
    assert.equal(row(n).page_or_table, `row year 2023, column ${n === 25 ? 'mod_eff' : 'mat_massperm2'}`);
  }
  // PV_ICE's silicon per m² is wafer thickness × density with cells tiling the module: 161 µm × 2.329 g/cm³
  close(value(26), 0.0161 * 2.329 * 1e4, 'silicon g/m²');
  assert.deepEqual([row(34).material, value(34)], ['side length', 182]);
});

test('the module area is the rating over the efficiency at 1000 W/m² (a derived row)', () => {
  close(value(33), 400 / ((value(25) / 100) * 1000), 'area');
  assert.match(row(33).unit!, /^m² DERIVED: 400 W ÷ \(21\.733 % × 1000 W\/m²\)/);
  assert.ok(value(33) > 1.7 && value(33) < 2.0, 'a 400 W module of the 2020s is 1.7–2.0 m²');
});

test('the M10 cell: its silicon and silver are PV_ICE’s per m² × (0.182 m)², derived, with PV_ICE’s losses', () => {
  const wafer = line('solar-cell', 'wafer');
  close(wafer.qty, value(26) * M10, 'silicon g');
  assert.deepEqual(
    [wafer.unit, wafer.component_key, wafer.basis, wafer.source],
    ['g', 'silicon', 'derived', 'bom-additions'],
  );
  assert.ok(Number(wafer.qty) >= 10 && Number(wafer.qty) <= 14, 'an M10 wafer of 130–180 µm holds 10–14 g');
  assert.equal(wafer.loss_factor, 0.4929, '1 ÷ PV_ICE’s 66.98 % manufacturing efficiency − 1');
  assert.deepEqual(wafer.cited, ['sets bom_additions.csv:26', 'checks bom_additions.csv:34']);
  const contacts = line('solar-cell', 'contacts');
  close(contacts.qty, value(27) * M10, 'silver g');
  assert.deepEqual([contacts.component_key, contacts.basis, contacts.loss_factor], ['silver', 'derived', 0.25]);
  assert.match(contacts.method, /× the M10 cell's 0\.033124 m²/);
});

test('the 400 W panel: cells, frame and glass follow from its area; the junction box stays illustrative', () => {
  const area = value(33);
  const cells = line('solar-panel', 'cells');
  close(cells.qty, area / M10, 'M10 cells’ worth');
  assert.ok(Math.abs(Number(cells.qty) / 54 - 1) < 0.05, '108 half-cut M10 cells are 54 whole ones');
  assert.deepEqual(cells.cited, [
    'sets bom_additions.csv:33',
    'checks bom_additions.csv:25',
    'checks bom_additions.csv:34',
  ]);
  const frame = line('solar-panel', 'frame');
  close(frame.qty, (value(28) * area) / 1000, 'frame kg');
  assert.deepEqual([frame.unit, frame.component_key, frame.basis], ['kg', 'aluminium-ingot', 'derived']);
  const glass = line('solar-panel', 'glass, EVA and backsheet');
  close(glass.qty, ((value(30) + value(31) + value(32)) * area) / 1000, 'glass, encapsulant and backsheet kg');
  assert.equal(line('solar-panel', 'ribbons and junction box').basis, 'illustrative');
  // issue 33i: the solder is its lead and tin (tests/db/impact-bom-devices.test.ts)
  // plausible: silicon of the cells as PV_ICE's per-m² figure × the area, and the lines near the catalogue's 21 kg
  close((Number(cells.qty) * value(26) * M10) / area, value(26), 'module silicon per m²');
  const kg =
    (Number(cells.qty) * (value(26) + value(27)) * M10) / 1000 +
    Number(frame.qty) +
    Number(glass.qty) +
    Number(line('solar-panel', 'ribbons and junction box').qty) +
    (Number(line('solar-panel', 'solder lead (ribbon coat and solder)').qty) +
      Number(line('solar-panel', 'solder tin (ribbon coat and solder)').qty)) /
      1000;
  assert.ok(kg > 21 * 0.9 && kg < 21 * 1.15, `the lines weigh ${kg.toFixed(1)} kg`);
});

test('PV_ICE’s ribbon copper sets no line: its scope is not the register’s ribbons-and-junction-box line', () => {
  const cites29 = bomLines().filter((l) =>
    bomLine(l.product as string, l.role as string).cited.some((c) => c.endsWith(' bom_additions.csv:29')),
  );
  assert.deepEqual(cites29, []);
});

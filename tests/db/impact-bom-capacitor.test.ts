/**
 * Issue 33h's spot checks on the tantalum capacitor, read from the shipped bom-additions file with
 * csv-parse directly, not through the importers. Its anode is the chip's mass (0.25 g, the catalogue's
 * case-B chip) × the tantalum share a recycling laboratory measured in spent epoxy-coated solid-electrolyte
 * tantalum capacitors (Chen, Hsiao and Lee 2022: about 22 wt.%); the same laboratory's "over 40 wt.%" (Chen,
 * Ho and Lin 2019) widens the range. The line is recomputed here from the two rows and the catalogue.
 * Rows are named as the lines cite them (`bom_additions.csv:N`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bomLine, catalogueProduct, citedRow as row, citedValue as value } from '../helpers/impact-bom.ts';

const MEASURED = 'bom_additions.csv:90';
const FLOOR = 'bom_additions.csv:91';

const capacitor = catalogueProduct('tantalum-capacitor');

test('the two tantalum shares are the recycling papers’ words, quoted in their rows', () => {
  assert.equal(value(MEASURED), 22);
  assert.equal(row(MEASURED).material, 'tantalum');
  assert.match(row(MEASURED).publisher_or_authors!, /^Wei-Sheng Chen, Chih-Yuan Hsiao, Cheng-Han Lee/);
  assert.match(row(MEASURED).basis_note!, /containing about 22 wt\.% of tantalum and 8 wt\.% of manganese/);
  assert.equal(value(FLOOR), 40);
  assert.match(row(FLOOR).unit!, /lower bound/);
  assert.match(
    row(FLOOR).basis_note!,
    /tantalum content in epoxy-coated solid electrolyte tantalum capacitors \(EcSETCs\) is over 40 wt\.%/,
  );
  // both papers are about the kind the catalogue's chip is: epoxy-moulded, solid (MnO2) electrolyte
  for (const ref of [MEASURED, FLOOR])
    assert.match(row(ref).source_title!, /Epoxy-Coated Solid Electrolyte Tantalum Capacitors/);
});

test("the anode is the chip's 0.25 g × 22 %, its range reaching 0.25 g × 40 %, derived and cited with both rows", () => {
  assert.equal(capacitor.unit_mass_g, 0.25);
  assert.equal(capacitor.archetype, 'surface-mount case B');
  const anode = bomLine('tantalum-capacitor', 'anode');
  assert.equal(anode.unit, 'g');
  assert.equal(anode.component_key, 'tantalum');
  const expected = (capacitor.unit_mass_g * value(MEASURED)) / 100;
  assert.ok(Math.abs(anode.qty - expected) < 1e-12, `${anode.qty} ≠ ${expected}`);
  assert.ok(Math.abs(anode.qty - 0.055) < 1e-12);
  assert.ok(
    Math.abs(Number(anode.qty_high) - (capacitor.unit_mass_g * value(FLOOR)) / 100) < 1e-12,
    `${anode.qty_high}`,
  );
  assert.ok(Math.abs(Number(anode.qty_low) - expected) < 1e-12, `${anode.qty_low}`);
  assert.equal(anode.basis, 'derived');
  assert.deepEqual(anode.cited.sort(), [`range ${FLOOR}`, `sets ${MEASURED}`]);
  // plausibility: the anode and its range's top are each a part of the chip
  assert.ok(anode.qty < capacitor.unit_mass_g && Number(anode.qty_high) < capacitor.unit_mass_g);
  // the cathode and moulding are not a register material: their line stays the demo's (methodology v3 §5.4)
  assert.equal(bomLine('tantalum-capacitor', 'cathode, casing').basis, 'illustrative');
});

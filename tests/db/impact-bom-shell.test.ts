/**
 * Issue 33l's spot check on the 155 mm artillery shell, read from the shipped bom-additions file with csv-parse
 * directly, not through the importers. The driving band is the European Defence Agency's 0.5 kg of copper in a NATO
 * 155 mm shell, as a metals-trade publication restates it (a mining forum's restatement cited beside). The body is the
 * M104 155 mm projectile's weight less its filling (an encyclopaedia's restatement of the Army's data), in kilograms,
 * less that band; the HD and WP fillings must give the same empty shell. Rows are named as the lines cite them
 * (`bom_additions.csv:N`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bomLine, catalogueProduct, citedRow as row, citedValue as value } from '../helpers/impact-bom.ts';

const COPPER = 'bom_additions.csv:118';
const COPPER_RESTATED = 'bom_additions.csv:119';
const HD_WEIGHT = 'bom_additions.csv:120';
const HD_FILL = 'bom_additions.csv:121';
const WP_WEIGHT = 'bom_additions.csv:122';
const WP_FILL = 'bom_additions.csv:123';
/** the international avoirdupois pound, 0.45359237 kg exactly */
const LB_KG = 0.45359237;

const shell = catalogueProduct('artillery-shell');

test('the copper rows quote the EDA’s 0.5 kg per NATO 155 mm shell, restated twice at low confidence', () => {
  for (const ref of [COPPER, COPPER_RESTATED]) {
    assert.equal(value(ref), 0.5, ref);
    assert.equal(row(ref).material, 'copper');
    assert.equal(row(ref).unit, 'kg per shell');
    assert.match(row(ref).basis_note!, /0\.5 kg of copper/);
    assert.match(row(ref).basis_note!, /European Defence Agency \(EDA\)/);
    assert.match(row(ref).confidence!, /^low: /);
  }
  assert.match(row(COPPER).url!, /fastmarkets\.com/);
  assert.match(row(COPPER_RESTATED).publisher_or_authors!, /restating Fastmarkets/);
});

test('the M104 rows quote its weights and fillings, and both fillings leave the same 83.11 lb of metal parts', () => {
  assert.equal(value(HD_WEIGHT), 94.81);
  assert.equal(value(HD_FILL), 11.7);
  assert.equal(value(WP_WEIGHT), 98.71);
  assert.equal(value(WP_FILL), 15.6);
  for (const ref of [HD_WEIGHT, WP_WEIGHT])
    assert.match(row(ref).basis_note!, /Weight: 94\.81 lb \(HD\) , 98\.71 lb \(WP\)/);
  for (const ref of [HD_FILL, WP_FILL])
    assert.match(row(ref).basis_note!, /Filling Weight: 11\.7 lb \(HD\) , 15\.6 lb \(WP\)/);
  assert.match(row(HD_WEIGHT).basis_note!, /26\.8 in steel shell with a rotating band/);
  for (const ref of [HD_WEIGHT, HD_FILL, WP_WEIGHT, WP_FILL]) {
    assert.match(row(ref).url!, /wikipedia\.org\/wiki\/M104_155_mm_projectile$/);
    assert.match(row(ref).confidence!, /^low-medium: /);
  }
  const hd = value(HD_WEIGHT) - value(HD_FILL);
  const wp = value(WP_WEIGHT) - value(WP_FILL);
  assert.ok(Math.abs(hd - 83.11) < 1e-9 && Math.abs(wp - 83.11) < 1e-9, `${hd} / ${wp} lb`);
});

test("the shell's band is the 0.5 kg published; its body is the empty M104 in kg less the band, derived", () => {
  const band = bomLine('artillery-shell', 'driving band');
  assert.equal(band.unit, 'kg');
  assert.equal(band.component_key, 'copper');
  assert.equal(band.qty, 0.5);
  assert.equal(band.basis, 'published');
  assert.deepEqual(band.cited, [`sets ${COPPER}`, `checks ${COPPER_RESTATED}`]);

  const body = bomLine('artillery-shell', 'body');
  assert.equal(body.unit, 'kg');
  assert.equal(body.component_key, 'steel');
  const expected = (value(HD_WEIGHT) - value(HD_FILL)) * LB_KG - value(COPPER);
  assert.ok(Math.abs(body.qty - expected) < 1e-9, `${body.qty} kg`);
  assert.ok(Math.abs(body.qty - 37.198) < 0.001, `${body.qty} kg`);
  assert.equal(body.basis, 'derived');
  for (const ref of [HD_WEIGHT, HD_FILL, COPPER, WP_WEIGHT, WP_FILL])
    assert.ok(body.cited.includes(`sets ${ref}`), ref);

  // the register's 45 kg shell (its archetype, a high-explosive projectile) holds the body and band with 7.3 kg
  // left for the explosive and fuze (the register's illustrative 8 kg): the lines do not overfill it
  assert.equal(shell.unit_mass_g, 45000);
  assert.equal(shell.archetype, 'high-explosive projectile');
  const rest = shell.unit_mass_g / 1000 - body.qty - band.qty;
  assert.ok(rest > 5 && rest < 9, `${rest} kg left for the explosive and fuze`);
  assert.equal(bomLine('artillery-shell', 'explosive and fuze').basis, 'illustrative');
});

/**
 * Issue 33h's spot check on the 5.56 mm cartridge, read from the shipped bom-additions file with csv-parse
 * directly, not through the importers. Its case is a weighed .223 Remington brass case (the mean of 100 new
 * Lapua cases, Precision Rifle Blog) in grams; the catalogue's 12 g round must still hold the case with a
 * 55-grain M193 bullet. The box of 1,000 takes 1,000 of these cartridges by its definition. Issue 33j: the
 * bullet's lead is the National Research Council's lead in a 55-grain 5.56 mm full-metal-jacket bullet (its Table
 * 4.2), and the jacket is that bullet less its lead; the same table's 62-grain bullet widens the lead's range. Rows
 * are named as the lines cite them (`bom_additions.csv:N`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bomLine, catalogueProduct, citedRow as row } from '../helpers/impact-bom.ts';

const CASE = 'bom_additions.csv:92';
const BULLET = 'bom_additions.csv:115';
const LEAD = 'bom_additions.csv:116';
const LEAD_62 = 'bom_additions.csv:117';
/** the international grain, 64.79891 mg exactly */
const GRAIN_G = 0.06479891;

const cartridge = catalogueProduct('cartridge-556');

test('the case row is the blog’s measured mean of 100 .223 Remington cases, quoted with its method', () => {
  assert.equal(Number(row(CASE).quantity), 96.28);
  assert.equal(row(CASE).material, 'brass');
  assert.match(row(CASE).unit!, /^grains per case/);
  assert.match(row(CASE).basis_note!, /weighed 100 pieces of brand new Lapua 223 Remington/);
  assert.match(row(CASE).basis_note!, /Average = 96\.28 grains/);
  assert.match(row(CASE).confidence!, /^low-medium: /);
});

test("the cartridge's case is 96.28 grains in grams, derived, and leaves room in the 12 g round for an M193 bullet", () => {
  const c = bomLine('cartridge-556', 'case');
  assert.equal(c.unit, 'g');
  assert.equal(c.component_key, 'brass');
  assert.ok(Math.abs(c.qty - 96.28 * GRAIN_G) < 1e-12, `${c.qty}`);
  assert.ok(Math.abs(c.qty - 6.239) < 0.001);
  assert.equal(c.basis, 'derived');
  assert.deepEqual(c.cited, [`sets ${CASE}`]);
  // the 12 g ball round (its archetype) less the case holds a 55-grain bullet (3.56 g) and about 1.7 g of charge and primer
  assert.equal(cartridge.unit_mass_g, 12);
  assert.equal(cartridge.archetype, 'ball cartridge with lead core');
  const rest = cartridge.unit_mass_g - c.qty;
  assert.ok(rest > 55 * GRAIN_G + 1.5 && rest < 55 * GRAIN_G + 2.5, `${rest} g for bullet, charge and primer`);
  // the box of 1,000 is its definition
  const box = bomLine('ammunition-box', 'cartridges');
  assert.equal(box.qty, 1000);
});

test("the bullet rows are Table 4.2's 5.56 mm full-metal-jacket rows, grains and grams agreeing", () => {
  for (const ref of [BULLET, LEAD, LEAD_62]) {
    assert.match(row(ref).source_title!, /^Forensic Analysis: Weighing Bullet Lead Evidence$/);
    assert.match(row(ref).page_or_table!, /Table 4\.2/);
    assert.match(row(ref).url!, /record_id=10924&page=73$/);
    assert.match(row(ref).confidence!, /^medium: /);
  }
  // each row quotes the table's line it takes its figure from; the grams are the grains × the grain
  const quoted: Array<[string, number, number, RegExp]> = [
    [BULLET, 3.56, 55, /55 \(46\.1\) \| 0\.126 \(0\.105\) \| 3\.56 \(2\.99\)/],
    [LEAD, 2.99, 46.1, /55 \(46\.1\) \| 0\.126 \(0\.105\) \| 3\.56 \(2\.99\)/],
    [LEAD_62, 2.05, 31.6, /62 \(31\.6\) \| 0\.142 \(0\.0722\) \| 4\.02 \(2\.05\)/],
  ];
  for (const [ref, grams, grains, quote] of quoted) {
    assert.equal(Number(row(ref).quantity), grams, ref);
    assert.match(row(ref).basis_note!, quote, ref);
    assert.ok(row(ref).unit!.includes(`(${grains} grains)`), ref);
    assert.ok(Math.abs(grains * GRAIN_G - grams) < 0.006, `${ref}: ${grains} gr = ${grains * GRAIN_G} g`);
  }
  assert.equal(row(BULLET).material, 'bullet (lead core and jacket)');
  for (const ref of [LEAD, LEAD_62]) assert.equal(row(ref).material, 'lead');
});

test("the core is the 55-grain bullet's published lead, widened by the 62-grain bullet's", () => {
  const core = bomLine('cartridge-556', 'core');
  assert.equal(core.component_key, 'lead');
  assert.equal(core.unit, 'g');
  assert.equal(core.qty, Number(row(LEAD).quantity));
  assert.equal(core.basis, 'published');
  assert.deepEqual(core.cited, [`sets ${LEAD}`, `range ${LEAD_62}`]);
  assert.equal(Number(core.qty_low), Number(row(LEAD_62).quantity));
  assert.equal(Number(core.qty_high), Number(row(LEAD).quantity));
});

test('the jacket is the 55-grain bullet less its lead, derived; the whole cartridge fits its 12 g', () => {
  const jacket = bomLine('cartridge-556', 'jacket');
  assert.equal(jacket.component_key, 'copper');
  assert.equal(jacket.unit, 'g');
  const expected = Number(row(BULLET).quantity) - Number(row(LEAD).quantity);
  assert.ok(Math.abs(jacket.qty - expected) < 1e-12, `${jacket.qty}`);
  assert.ok(Math.abs(jacket.qty - 0.57) < 1e-9);
  assert.equal(jacket.basis, 'derived');
  assert.deepEqual(jacket.cited, [`sets ${BULLET}`, `sets ${LEAD}`]);
  // the jacket is 16 % of the bullet: under the ATF's 25 % jacket threshold for handgun bullets, as a rifle ball's is
  const share = jacket.qty / Number(row(BULLET).quantity);
  assert.ok(share > 0.15 && share < 0.17, `${share}`);
  // case + core + jacket + the demo's 1.7 g of charge and primer come to the 12 g round within 0.5 g
  const cased = bomLine('cartridge-556', 'case').qty;
  const charge = bomLine('cartridge-556', 'propellant and primer').qty;
  const total = cased + bomLine('cartridge-556', 'core').qty + jacket.qty + charge;
  assert.ok(Math.abs(total - cartridge.unit_mass_g) < 0.6, `${total} g`);
  // nothing of the cartridge's metal is illustrative any more; the box is 1,000 of them
  for (const role of ['case', 'core', 'jacket']) assert.notEqual(bomLine('cartridge-556', role).basis, 'illustrative');
  assert.equal(bomLine('ammunition-box', 'cartridges').component_key, 'cartridge-556');
});

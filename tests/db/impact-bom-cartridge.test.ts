/**
 * Issue 33h's spot check on the 5.56 mm cartridge, read from the shipped bom-additions file with csv-parse
 * directly, not through the importers. Its case is a weighed .223 Remington brass case (the mean of 100 new
 * Lapua cases, Precision Rifle Blog) in grams; the catalogue's 12 g round must still hold the case with a
 * 55-grain M193 bullet. The box of 1,000 takes 1,000 of these cartridges by its definition. The bullet's lead
 * and jacket stay illustrative (methodology v3 §5.4). Rows are named as the lines cite them (`bom_additions.csv:N`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../db/impact/load.ts';
import { additionRow, bomLine } from '../helpers/impact-bom.ts';

const row = (ref: string) => additionRow(Number(ref.split(':')[1]));
const CASE = 'bom_additions.csv:92';
/** the international grain, 64.79891 mg exactly */
const GRAIN_G = 0.06479891;

const { products } = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'impact', 'products.json'), 'utf8')) as {
  products: Array<{ slug: string; unit_mass_g: number; archetype: string }>;
};
const cartridge = products.find((p) => p.slug === 'cartridge-556')!;

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
  // the bullet's lead and gilding metal have no split read: illustrative
  for (const role of ['core', 'jacket']) assert.equal(bomLine('cartridge-556', role).basis, 'illustrative', role);
  // the box of 1,000 is its definition
  const box = bomLine('ammunition-box', 'cartridges');
  assert.equal(box.qty, 1000);
});

/**
 * Issue 33c's spot checks, read from the shipped files with csv-parse directly, not through the
 * importers: the food lines FAO's extraction rates convert (green coffee in a 250 g pack of roasted
 * coffee, cocoa beans in 30 % chocolate, cane in white sugar, soybeans in tofu), each against the
 * workbook rows it cites, and the rare-earth price against USGS's value of U.S. concentrates and the
 * ECB's 2024 rate. Plausibility beside each: 1.19–1.33 kg of green coffee per kg roasted, 9–12 kg of cane
 * per kg of sugar.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { buildRegister, ROOT } from '../../db/impact/load.ts';

type Rec = Record<string, string>;
const csv = (path: string): Rec[] =>
  parse(readFileSync(join(ROOT, 'data', 'impact', path), 'utf8'), { columns: true, bom: true, trim: true }) as Rec[];
const tcf = csv('fao-conversion-factors/tcf_key_commodities.csv');
const built = buildRegister('published');
const t = built.tables;
const provenance = new Map(t.impact_provenance!.map((p) => [p.id as number, p]));
const line = (product: string, role: string): Record<string, unknown> & { method: string; cited: Rec[] } => {
  const l = t.impact_bom_lines!.find((x) => x.product === product && x.role === role);
  assert.ok(l, `${product} ${role}`);
  const p = provenance.get(l.provenance as number)!;
  return { ...l, basis: p.basis, source: p.source, method: String(p.method), cited: l.citations as Rec[] };
};
const EU27 = [
  'Austria',
  'Belgium',
  'Bulgaria',
  'Croatia',
  'Cyprus',
  'Czechia',
  'Denmark',
  'Estonia',
  'Finland',
  'France',
  'Germany',
  'Greece',
  'Hungary',
  'Ireland',
  'Italy',
  'Latvia',
  'Lithuania',
  'Luxembourg',
  'Malta',
  'Netherlands',
  'Poland',
  'Portugal',
  'Romania',
  'Slovakia',
  'Slovenia',
  'Spain',
  'Sweden',
];
const rates = (item: string, countries: string[]) =>
  tcf.filter((r) => r.item_en === item && countries.includes(r.country_name!) && r.extraction_rate_pct !== '');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const close = (a: unknown, b: number, what: string) =>
  assert.ok(Math.abs(Number(a) - b) < 1e-9 * b, `${what}: ${a} ≠ ${b}`);

test('ground coffee: 250 g roasted ÷ the EU rows of FAO’s green-to-roasted rate', () => {
  const eu = rates('Coffee, roasted', EU27);
  const pct = eu.map((r) => Number(r.extraction_rate_pct));
  assert.equal(eu.length, 24, 'the workbook lists 24 of the 27 member states');
  assert.deepEqual([median(pct), Math.min(...pct), Math.max(...pct)], [80, 75, 84]);
  const l = line('ground-coffee', 'green coffee');
  close(l.qty, 250 / 0.8, 'quantity');
  close(l.qty_low, 250 / 0.84, 'low');
  close(l.qty_high, 250 / 0.75, 'high');
  assert.deepEqual(
    [l.unit, l.component_key, l.basis, l.source, l.loss_factor],
    ['g', 'coffee', 'derived', 'fao-tcf', 0],
  );
  // every cited row is one of those EU rows, by its workbook row
  assert.deepEqual(
    l.cited.map((c) => String(c.page).match(/row (\d+):/)![1]).sort(),
    eu.map((r) => r.source_row!).sort(),
  );
  // plausible: 1.19–1.33 kg of green coffee per kg roasted (the brief's ~1.19 is France's 84 %)
  assert.ok(Number(l.qty) / 250 >= 1.19 && Number(l.qty) / 250 <= 1.33);
  assert.match(l.method, /^250 g \(250 g of roasted coffee.*\) ÷ 80 % /);
});

test('chocolate mass: 0.3 kg of cocoa solids ÷ 80 % (every EU row) = 0.375 kg of beans', () => {
  const eu = rates('Cocoa paste', EU27);
  assert.ok(eu.length > 20 && eu.every((r) => r.extraction_rate_pct === '80'));
  const l = line('chocolate-mass', 'cocoa');
  close(l.qty, 0.375, 'quantity');
  assert.deepEqual([l.qty_low, l.qty_high, l.basis, l.loss_factor], [null, null, 'derived', 0]);
  // the recipe's sugar stays illustrative
  assert.equal(line('chocolate-mass', 'sugar').basis, 'illustrative');
});

test('white sugar: 1 kg ÷ raw cane sugar ÷ refined sugar in the seven largest cane producers', () => {
  const seven = ['Brazil', 'India', 'Thailand', 'China, Main', 'Pakistan', 'Mexico', 'Colombia'];
  const raw = rates('Raw cane sugar', seven).map((r) => Number(r.extraction_rate_pct));
  const refined = rates('Refined sugar', seven).map((r) => Number(r.extraction_rate_pct));
  assert.deepEqual([raw.length, refined.length], [7, 7]);
  assert.deepEqual([median(raw), Math.min(...raw), Math.max(...raw)], [11, 9.4, 12]);
  assert.ok(refined.every((x) => x === 92));
  const l = line('sugar', 'cane');
  close(l.qty, 1 / (0.11 * 0.92), 'quantity');
  close(l.qty_low, 1 / (0.12 * 0.92), 'low');
  close(l.qty_high, 1 / (0.094 * 0.92), 'high');
  assert.ok(Number(l.qty) > 9 && Number(l.qty) < 12, 'plausible: 9–12 kg of cane per kg of sugar');
  assert.equal(l.cited.length, 14);
});

test('tofu: 400 g ÷ Korea’s soya-curd rate (the workbook’s only one), low confidence', () => {
  const curd = tcf.filter((r) => r.item_published === 'Soya Curd');
  assert.deepEqual(
    curd.map((r) => [r.source_row, r.country_name, r.extraction_rate_pct]),
    [['13555', 'Republic of Korea', '200']],
  );
  const l = line('tofu', 'soybeans');
  close(l.qty, 200, 'quantity');
  assert.deepEqual([l.confidence, l.basis], ['low', 'derived']);
});

test('the rare-earth price is USGS’s value of U.S. concentrates over their tonnage, in euros of 2024', () => {
  const [v] = csv('usgs-mcs-2025-rare-earths/rare_earths_us_mine_value.csv');
  const ecb = csv('ecb-eur-usd-annual/eur_usd_annual_average.csv').find((r) => r.year === '2024')!;
  const m = t.impact_materials!.find((x) => x.slug === 'rare-earths')!;
  close(m.price_eur_per_kg, Number(v!.value_usd) / (Number(v!.reo_t) * 1000) / Number(ecb.usd_per_eur_mean), 'price');
  assert.ok(Number(m.price_eur_per_kg) > 5 && Number(m.price_eur_per_kg) < 6);
  const p = provenance.get(m.price_provenance as number)!;
  assert.deepEqual([p.basis, p.source], ['derived', 'usgs-mcs']);
  assert.match(String(p.method), /^USGS MCS 2025, p\. 144: 45000 t valued at 260000000 USD in 2024 \(USGS estimates\)/);
});

/**
 * Agricultural production in the published register (methodology v3 §5) against the shipped FAOSTAT
 * file, read here with csv-parse directly, not through the importer: three crops in three countries
 * (Brazil's green coffee, Côte d'Ivoire's cocoa beans, India's seed cotton as lint), the year taken
 * (the file's latest, 2019), the world totals as the sum of the countries, the conversion to lint and
 * palm oil at the country's FAO extraction rate (read from the factor file), and the crop prices of
 * the same year. Spot values were read in the file by hand (data/impact/faostat-production/SOURCE.md lists them).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { buildRegister, ROOT } from '../../db/impact/load.ts';

const built = buildRegister('published');
const t = built.tables;
const provenance = new Map(t.impact_provenance!.map((p) => [p.id as number, p]));
const data = (file: string) => readFileSync(join(ROOT, 'data', 'impact', file), 'utf8');

/** The shipped FAOSTAT rows, keyed "FAO area code|item code" → the 2019 cell. */
const fao = new Map(
  (
    parse(data('faostat-production/faostat_qc_production_register_crops.csv').replace(/^#.*\n/gm, ''), {
      columns: true,
    }) as Array<Record<string, string>>
  ).map((r) => [`${r['country codes']}|${r['item codes']}`, r['2019']!]),
);
const tcf = parse(data('fao-conversion-factors/tcf_key_commodities.csv'), { columns: true }) as Array<
  Record<string, string>
>;
const rate = (country: string, item: string) =>
  Number(tcf.find((r) => r.country_name === country && r.item_en === item)!.extraction_rate_pct);

const production = (material: string, iso3: string) =>
  t.impact_material_production!.find((r) => r.material === material && r.iso3 === iso3)!;

test('three crops in three countries are the FAOSTAT file’s 2019 cells', () => {
  // Hand-read in the file: Brazil (area 21) coffee green (656) 3,009,402 t; Côte d'Ivoire (107) cocoa
  // beans (661) 2,180,000 t; India (100) seed cotton (328) 18,550,000 t.
  assert.equal(fao.get('21|656'), '3009402');
  assert.equal(fao.get('107|661'), '2180000');
  assert.equal(fao.get('100|328'), '18550000');
  const coffee = production('coffee', 'BRA');
  assert.deepEqual([coffee.year, coffee.qty, coffee.source], [2019, 3_009_402, 'faostat']);
  assert.equal(provenance.get(coffee.provenance as number)!.basis, 'published');
  assert.equal(production('cocoa', 'CIV').qty, 2_180_000);
  // India's lint: the seed cotton × India's cotton-lint extraction rate (33 %) in FAO's factors.
  assert.equal(rate('India', 'Cotton lint'), 33);
  const lint = production('cotton', 'IND');
  assert.equal(lint.qty, (18_550_000 * 33) / 100);
  const how = provenance.get(lint.provenance as number)!;
  assert.equal(how.basis, 'derived');
  assert.equal(how.source, 'fao-tcf');
  assert.match(String(how.method), /Seed cotton \(FAOSTAT QC item 328, 2019\) × 33 %/);
});

test('palm oil is the oil palm fruit at the country’s extraction rate; a country without one takes the common rate', () => {
  // Indonesia (101) oil palm fruit (254) 245,633,087 t × 20 %.
  assert.equal(fao.get('101|254'), '245633087');
  assert.equal(rate('Indonesia', 'Palm oil'), 20);
  assert.equal(production('palm-oil', 'IDN').qty, (245_633_087 * 20) / 100);
  // Every palm-oil producer either has its own factor or says it took the common one.
  for (const r of t.impact_material_production!.filter((x) => x.material === 'palm-oil')) {
    const method = String(provenance.get(r.provenance as number)!.method);
    assert.match(method, /the producing country's|the rate most countries share/, String(r.iso3));
  }
});

test('world totals are the sum of the countries; no crop keeps a recalled value', () => {
  for (const m of ['cocoa', 'coffee', 'cotton', 'palm-oil', 'natural-rubber', 'soybeans', 'sugar-cane']) {
    const world = t.impact_material_world!.filter((w) => w.material === m);
    assert.deepEqual(
      world.map((w) => [w.year, w.source]),
      [[2019, 'faostat']],
      m,
    );
    const rows = t.impact_material_production!.filter((r) => r.material === m);
    const sum = rows.reduce((a, r) => a + (r.qty as number), 0);
    assert.ok(Math.abs((world[0]!.world_total as number) - sum) < 1e-6 * sum, m);
    assert.ok(rows.every((r) => r.source === 'faostat' && r.year === 2019));
  }
  // data/impact/faostat-production/SOURCE.md's sums over the file, 2019: coffee green 10,035,576 t (85 rows, 79 with a 2019 value);
  // cocoa beans 5,596,397 t (62 rows, 57 with a value). A row without one (a former area, a crop given
  // up) is no producer; a country that reports 0 is one with nothing.
  const world = (m: string) => t.impact_material_world!.find((w) => w.material === m)!.world_total;
  const withValue = (item: string) => [...fao].filter(([k, v]) => k.endsWith(`|${item}`) && v !== '').length;
  assert.equal(world('coffee'), 10_035_576);
  assert.equal(withValue('656'), 79);
  assert.equal(t.impact_material_production!.filter((r) => r.material === 'coffee').length, 79);
  assert.equal(world('cocoa'), 5_596_397);
  assert.equal(t.impact_material_production!.filter((r) => r.material === 'cocoa').length, withValue('661'));
});

test('crop prices are the Pink Sheet’s of the FAOSTAT year; sugar cane through its raw-sugar yield', () => {
  const pink = parse(data('worldbank-pink-sheet-2025-12/pink_sheet_annual_prices_tidy.csv'), {
    columns: true,
  }) as Array<Record<string, string>>;
  const ecb = parse(data('ecb-eur-usd-annual/eur_usd_annual_average.csv'), { columns: true }) as Array<
    Record<string, string>
  >;
  const usdPerEur = Number(ecb.find((r) => r.year === '2019')!.usd_per_eur_mean);
  const usd = (code: string) => Number(pink.find((r) => r.wb_code === code && r.year === '2019')!.usd_per_kg);
  const material = (slug: string) => t.impact_materials!.find((m) => m.slug === slug)!;
  assert.ok(Math.abs((material('cocoa').price_eur_per_kg as number) - usd('COCOA') / usdPerEur) < 1e-12);
  // Coffee: arabica and robusta weighted 98.33 : 70.67 (ICO, coffee year 2018/19).
  const coffee = (98.33 * usd('COFFEE_ARABIC') + 70.67 * usd('COFFEE_ROBUS')) / 169 / usdPerEur;
  assert.ok(Math.abs((material('coffee').price_eur_per_kg as number) - coffee) < 1e-12);
  assert.equal(provenance.get(material('coffee').price_provenance as number)!.basis, 'derived');
  // Sugar cane: raw sugar × a cane-weighted extraction rate between the factors' extremes (9–14 %).
  const cane = (material('sugar-cane').price_eur_per_kg as number) / (usd('SUGAR_WLD') / usdPerEur);
  assert.ok(cane > 0.09 && cane < 0.14, `${cane}`);
  const how = provenance.get(material('sugar-cane').price_provenance as number)!;
  assert.deepEqual([how.basis, how.source], ['derived', 'fao-tcf']);
});

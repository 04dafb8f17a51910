/**
 * The published-data importers on small files written here in each publisher's format (issue 24): the
 * rules each states (withheld stays unknown, units converted, older classifications read through, a
 * dyad-year split by where the deaths occurred), and the bad inputs each refuses, naming the file and
 * line: a missing column, a value that no longer matches its check file, a row no branch accounts for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ImportError, numberOf, readCsv } from '../../../lib/impact/import/csv.ts';
import { readGwTable } from '../../../lib/impact/import/gleditsch-ward.ts';
import { importWorkInjuries } from '../../../lib/impact/import/ilostat.ts';
import { Tally } from '../../../lib/impact/import/reconcile.ts';
import { brdLedger, checkConflictYears, readBrd, splitWhole } from '../../../lib/impact/import/ucdp-brd.ts';
import { importGed } from '../../../lib/impact/import/ucdp-ged.ts';
import { importOrganisedViolence } from '../../../lib/impact/import/ucdp-owid.ts';
import { importProduction, readRaw, readTidy, reconcileRaw, TIDY_COLUMNS } from '../../../lib/impact/import/usgs.ts';

const ISO = new Set(['COD', 'RWA', 'UKR', 'RUS', 'POL', 'PER', 'TUR', 'USA', 'CHL']);
const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof ImportError && pattern.test(err.message));

test('CSV: quoted commas and line breaks, line numbers, a missing column named', () => {
  const t = readCsv('a,b\n1,"x, y"\n2,"two\nlines"\n\n3,z\n', 'f.csv', ['a', 'b']);
  assert.deepEqual(
    t.records.map((r) => [r.line, r.values.a, r.values.b]),
    [
      [2, '1', 'x, y'],
      [3, '2', 'two\nlines'],
      [6, '3', 'z'],
    ],
  );
  refused(() => readCsv('a,c\n1,2\n', 'f.csv', ['a', 'b']), /^f\.csv: missing column\(s\) b$/);
  refused(() => readCsv('', 'empty.csv'), /^empty\.csv: the file is empty$/);
  assert.deepEqual(['1,230 ', '170000', 'W', 'NA', '', '-', '2.5e3'].map(numberOf), [
    1230,
    170000,
    null,
    null,
    null,
    null,
    2500,
  ]);
});

test('a reconciliation that does not add up is an importer bug, not a silent loss', () => {
  const t = new Tally('f.csv').read(3);
  t.imported();
  t.skip('out_of_scope');
  assert.throws(() => t.done(), /f\.csv: 3 rows read but 2 accounted for/);
});

test('USGS: units to tonnes, W unknown not 0, residual and unmapped rows counted; raw cells checked', () => {
  const row = (o: Record<string, string>) =>
    TIDY_COLUMNS.map((c) => o[c] ?? '')
      .map((v) => (v.includes(',') ? `"${v}"` : v))
      .join(',');
  const base = { commodity_file: 'coppe', source_file: 'mcs2024-coppe_world.csv', type: 'Mine production' };
  const text = [
    TIDY_COLUMNS.join(','),
    row({
      ...base,
      country_raw: 'Chile',
      iso3: 'CHL',
      entity_kind: 'country',
      measure: 'production',
      year: '2022',
      estimated: '0',
      unit_code: 'kt',
      value: '5330',
      value_raw: '5330',
    }),
    row({
      ...base,
      country_raw: 'United States',
      iso3: 'USA',
      entity_kind: 'country',
      measure: 'production',
      year: '2022',
      estimated: '0',
      unit_code: 'kt',
      value: '',
      value_raw: 'W',
    }),
    row({
      ...base,
      country_raw: 'Other countries',
      iso3: '',
      entity_kind: 'other',
      measure: 'production',
      year: '2022',
      estimated: '0',
      unit_code: 'kt',
      value: '3000',
      value_raw: '3000',
    }),
    row({
      ...base,
      country_raw: 'Atlantis',
      iso3: 'ATL',
      entity_kind: 'country',
      measure: 'production',
      year: '2022',
      estimated: '0',
      unit_code: 'kt',
      value: '1',
      value_raw: '1',
    }),
    row({
      ...base,
      country_raw: 'Chile',
      iso3: 'CHL',
      entity_kind: 'country',
      measure: 'reserves',
      year: '',
      estimated: '0',
      unit_code: 'kt',
      value: '190000',
      value_raw: '190000',
    }),
  ].join('\n');
  const tidy = readTidy(text, 'tidy.csv');
  const { cells, reconciliation } = importProduction(
    tidy,
    [{ material: 'copper', file: 'coppe', types: ['Mine production'] }],
    ISO,
    'tidy.csv',
  );
  assert.deepEqual(
    cells.map((c) => [c.iso3, c.qty, c.quality]),
    [
      ['CHL', 5330000, 'reported'],
      ['USA', null, 'withheld'],
    ],
  );
  assert.deepEqual(
    [reconciliation.imported, reconciliation.unknown, reconciliation.skipped],
    [1, 1, { out_of_scope: 1, residual: 1, unmapped_code: 1 }],
  );
  // The publisher's own CSV must say what the tidy table says, cell by cell.
  const raw = (chile: string) =>
    readRaw(
      `Source,Country,Type,Prod_kt_2022,Reserves_kt\nMCS2024,Chile,Mine production,${chile},190000\nMCS2024,United States,Mine production,W,\nMCS2024,Other countries,Mine production,3000,\nMCS2024,Atlantis,Mine production,1,\n`,
      'raw.csv',
    );
  assert.equal(reconcileRaw(raw('5330'), 'raw.csv', 'mcs2024-coppe_world.csv', tidy).checked, 4);
  refused(
    () => reconcileRaw(raw('5300'), 'raw.csv', 'mcs2024-coppe_world.csv', tidy),
    /^raw\.csv: line 2: Chile, Mine production, 2022: the production cell is "5300" but the tidy table says "5330"$/,
  );
  refused(() => readRaw('Country,Type,Reserves_t\nX,Y,1\n', 'r.csv'), /no production column/);
});

test('UCDP BRD: split in proportion to where deaths occurred, every death kept; the conflict-year check', () => {
  assert.deepEqual(splitWhole(91723, [2, 65, 92608]), [2, 64, 91657]);
  assert.deepEqual(splitWhole(385, [5498, 4]), [385, 0]);
  assert.deepEqual(splitWhole(10, [0, 0, 0]), [4, 3, 3], 'equal parts, the rest to the first listed');
  assert.deepEqual(splitWhole(5, [1, 1]), [3, 2]);
  for (let i = 0; i < 200; i++) {
    const n = (i * 7919) % 10007;
    const w = [(i * 31) % 97, (i * 17) % 13, i % 5];
    const parts = splitWhole(n, w);
    assert.equal(
      parts.reduce((a, b) => a + b, 0),
      n,
      `${n} over ${w}`,
    );
    assert.ok(parts.every((p) => Number.isInteger(p) && p >= 0));
  }
  const header =
    'conflict_id,dyad_id,year,bd_best,bd_low,bd_high,gwno_battle,location_inc,side_a,side_b,incompatibility,territory_name,type_of_conflict,gwno_loc';
  const brd = readBrd(
    `${header}\n283,1,2022,385,385,577,"490, 517",DR Congo,Gov,M23,2,,4,490\n283,2,2022,41,41,41,490,DR Congo,Gov,CNPSC,2,,4,490\n999,3,2022,30,25,40,135,Peru,Gov,SL,2,,3,135\n`,
    'brd.csv',
  );
  const gw = readGwTable(
    'gw_code,gw_name,iso3,basis\n490,DR Congo,COD,published\n517,Rwanda,RWA,published\n135,Peru,PER,published\n',
    'gw.csv',
    ISO,
  );
  const occurred = new Map([
    ['COD|2022', 5498],
    ['RWA|2022', 4],
  ]);
  const { ledger, countryBattle, reconciliation } = brdLedger(brd, gw, new Set([283]), 'brd.csv', occurred);
  assert.deepEqual(
    ledger.map((c) => [c.iso3, c.best, c.low, c.high, c.split]),
    [
      ['COD', 426, 426, 618, 2],
      ['RWA', 0, 0, 0, 2],
    ],
  );
  assert.equal(countryBattle.get('PER|2022'), 30, 'every conflict counts in its country');
  assert.deepEqual([reconciliation.imported, reconciliation.checked], [2, 1]);
  const cy = 'conflict_id,year,dyads,bd_best,bd_low,bd_high\n283,2022,2,426,426,618\n999,2022,1,30,25,40\n';
  assert.equal(checkConflictYears(brd, cy, 'cy.csv').checked, 2);
  refused(
    () => checkConflictYears(brd, cy.replace('426,426,618', '427,426,618'), 'cy.csv'),
    /^cy\.csv: line 2: conflict 283 2022 reads 2\/427\/426\/618 \(dyads\/best\/low\/high\); the dyadic file sums to 2\/426\/426\/618$/,
  );
  refused(
    () => checkConflictYears(brd, cy.split('\n').slice(0, 2).join('\n'), 'cy.csv'),
    /1 conflict-years, but the dyadic file has 2/,
  );
  refused(
    () => readGwTable('gw_code,gw_name,iso3,basis\n490,DR Congo,ZZZ,published\n', 'gw.csv', ISO),
    /line 2: ZZZ is not an ISO 3166-1 alpha-3 code/,
  );
});

test('UCDP via OWID: the coded copy must equal OWID file; other violence is the rest, at least 0', () => {
  const raw = {
    file: 'raw.csv',
    text: 'Entity,Year,Deaths in ongoing conflicts (best estimate) - Conflict type: all\nDemocratic Republic of Congo,2022,5498\nPoland,2022,2\nWorld,2022,200000\nAbkhazia,2022,0\n',
  };
  const coded = (cod: string) => ({
    file: 'coded.csv',
    text: `entity,code,entity_kind,year,deaths_best\nDemocratic Republic of Congo,COD,country,2022,${cod}\nPoland,POL,country,2022,2\nWorld,OWID_WRL,world,2022,200000\nAbkhazia,OWID_ABK,non_iso_entity,2022,0\n`,
  });
  const battle = new Map([
    ['COD|2022', 1541],
    ['POL|2022', 3],
  ]);
  const { rows, reconciliation } = importOrganisedViolence(raw, coded('5498'), battle, [1989, 2023], ISO);
  assert.deepEqual(
    rows.map((r) => [r.iso3, r.total, r.battle, r.other]),
    [
      ['COD', 5498, 1541, 3957],
      ['POL', 2, 3, 0],
    ],
  );
  const r = reconciliation[0]!;
  assert.deepEqual([r.imported, r.skipped], [2, { aggregate: 1, unmapped_code: 1 }]);
  assert.match(r.notes[0]!, /^1 country-years where the battle deaths/);
  refused(
    () => importOrganisedViolence(raw, coded('5499'), battle, [1989, 2023], ISO),
    /^coded\.csv: line 2: Democratic Republic of Congo 2022 reads 5499, OWID's file \(raw\.csv\) 5498$/,
  );
});

test('ILOSTAT: ISIC Rev.4 as published, older revisions read through, superseded and aggregates counted', () => {
  const fatal = [
    'ref_area,indicator,source,classif1,time,obs_value,obs_status',
    'TUR,INJ_FATL_ECO_NB,FA:1,ECO_ISIC4_B,2008,66,',
    'TUR,INJ_FATL_ECO_NB,FA:1,ECO_ISIC4_F,2008,300,',
    'TUR,INJ_FATL_ECO_NB,FA:1,ECO_ISIC4_G,2008,20,U',
    'TUR,INJ_FATL_ECO_NB,FA:1,ECO_ISIC4_TOTAL,2008,386,',
    'TUR,INJ_FATL_ECO_NB,FA:1,ECO_ISIC3_C,2008,60,',
    'PER,INJ_FATL_ECO_NB,FX:1,ECO_ISIC3_A,2013,5,',
    'PER,INJ_FATL_ECO_NB,FX:1,ECO_ISIC3_B,2013,1,',
    'PER,INJ_FATL_ECO_NB,FX:1,ECO_ISIC3_C,2013,52,',
    'PER,INJ_FATL_ECO_NB,FX:1,ECO_ISIC3_X,2013,4,',
    'PER,INJ_FATL_ECO_NB,FX:1,ECO_AGGREGATE_TOTAL,2013,62,',
    'PER,INJ_FATL_ECO_RT,FX:1,ECO_ISIC3_C,2013,12.5,',
    'ZZZ,INJ_FATL_ECO_NB,FX:1,ECO_ISIC4_B,2013,7,',
    'USA,INJ_FATL_ECO_NB,FX:1,ECO_ISIC2_2,2001,90,',
    'USA,INJ_FATL_ECO_NB,FX:1,ECO_ISIC2_2,2002,,',
  ].join('\n');
  const { rows, reconciliation } = importWorkInjuries(
    [{ text: fatal, file: 'fatal.csv', indicator: 'INJ_FATL_ECO_NB', metric: 'deaths' }],
    ISO,
  );
  assert.deepEqual(
    rows.map((r) => [r.iso3, r.activity, r.year, r.deaths, r.injuries, r.read_as, r.quality]),
    [
      ['PER', 'A', 2013, 6, null, 'ISIC Rev.3 A+B', 'reported'],
      ['PER', 'B', 2013, 52, null, 'ISIC Rev.3 C', 'reported'],
      ['TUR', 'B', 2008, 66, null, 'ISIC Rev.4 B', 'reported'],
      ['TUR', 'D-U', 2008, 320, null, 'ISIC Rev.4 F+G', 'estimated'],
      ['USA', 'B', 2001, 90, null, 'ISIC Rev.2 2', 'reported'],
    ],
  );
  assert.deepEqual(reconciliation[0]!.skipped, {
    aggregate: 2,
    no_value: 1,
    out_of_scope: 2,
    superseded: 1,
    unmapped_code: 1,
  });
  assert.equal(reconciliation[0]!.imported, 7);
});

test('UCDP GED events: type 1 of a register conflict to its ledger, the rest to the country; bad rows named', () => {
  const gw = readGwTable('gw_code,gw_name,iso3,basis\n490,DR Congo,COD,published\n', 'gw.csv', ISO);
  const header = 'id,year,type_of_violence,conflict_new_id,country_id,where_prec,best,low,high';
  const text = [
    header,
    '1,2022,1,283,490,1,10,8,12',
    '2,2022,1,283,490,4,5,5,9',
    '3,2022,2,14501,490,1,3,3,3',
    '4,2022,3,506,490,2,7,7,7',
    '5,2022,1,999,490,1,2,2,2',
    '6,2022,1,283,345,1,4,4,4',
    '7,2022,1,283,490,1,,,',
  ].join('\n');
  const { ledger, countries, reconciliation } = importGed(text, 'ged.csv', gw, new Set([283]));
  assert.deepEqual(
    ledger.map((c) => [c.conflict_id, c.iso3, c.year, c.events, c.precise_events, c.best, c.low, c.high]),
    [[283, 'COD', 2022, 2, 1, 15, 13, 21]],
  );
  assert.deepEqual(countries, [{ iso3: 'COD', year: 2022, battle: 17, other: 10 }]);
  assert.deepEqual(
    [reconciliation.imported, reconciliation.checked, reconciliation.skipped],
    [2, 3, { no_value: 1, unmapped_code: 1 }],
  );
  refused(
    () => importGed(`${header}\n1,2022,4,283,490,1,1,1,1`, 'ged.csv', gw, new Set()),
    /line 2: year, type_of_violence/,
  );
  refused(() => importGed('id,year\n1,2022', 'ged.csv', gw, new Set()), /missing column\(s\) type_of_violence/);
});

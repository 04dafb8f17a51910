/**
 * lib/impact/import/other-output.ts on small inputs in the shipped files' formats: a country's other
 * crops are Σ tonnes × the Pink Sheet's USD/kg ÷ the ECB rate, only for the countries asked for and
 * only where something is grown; a mining country-sector is USGS tonnage × unit value; a price or a
 * production row the spec needs and the files lack stops the build, naming the file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FaostatCell } from '../../../lib/impact/import/faostat.ts';
import { ImportError } from '../../../lib/impact/import/csv.ts';
import {
  agriculturalOtherOutput,
  miningLines,
  miningOtherOutput,
  otherCropKey,
  type OtherMining,
} from '../../../lib/impact/import/other-output.ts';
import type { TidyRow } from '../../../lib/impact/import/usgs.ts';

const PINK = {
  file: 'pink_other.csv',
  text: [
    'material,wb_series,wb_code,unit_published,year,months,annual_mean,usd_per_kg,conversion,partial_year,note',
    '(other crops),Maize,MAIZE,$/mt,2019,12,170.0701,0.1700701,x,0,x',
    '(other crops),"Banana, US",BANANA_US,$/kg,2019,12,1.1405,1.1405,x,0,x',
    '(other crops),Maize,MAIZE,$/mt,2020,12,165.5,0.1655,x,0,x',
  ].join('\n'),
};
const CROPS = [
  { item_code: 56, item: 'Maize', series: 'MAIZE' },
  { item_code: 486, item: 'Bananas', series: 'BANANA_US' },
];
const cell = (item: number, iso3: string, qty: number): FaostatCell => ({
  material: otherCropKey({ item_code: item }),
  year: 2019,
  iso3,
  qty,
  basis: 'published',
  method: '',
});
const rate = (year: number) => ({ 2019: 1.119475, 2023: 1.081269 })[year] ?? Number.NaN;

test("a country's other crops: Σ tonnes × USD/kg ÷ the ECB rate, for the growers asked for", () => {
  const cells = [cell(56, 'COL', 1_394_863), cell(486, 'COL', 2_914_419), cell(56, 'USA', 1000), cell(486, 'PER', 0)];
  const out = agriculturalOtherOutput({ sector: 'AGR', crops: CROPS }, cells, PINK, rate, new Set(['COL', 'PER']));
  // the United States is not a grower here; Peru grows none of the priced crops: no row, not a zero
  assert.deepEqual(
    out.rows.map((r) => r.iso3),
    ['COL'],
  );
  const expected = (1_394_863 * 1000 * 0.1700701 + 2_914_419 * 1000 * 1.1405) / 1.119475;
  assert.ok(Math.abs(out.rows[0]!.value_eur / expected - 1) < 1e-12);
  assert.match(out.rows[0]!.note, /Maize 1,394,863 t × 0\.1700701 USD\/kg \(MAIZE\); Bananas 2,914,419 t × 1\.1405/);
  // the 2019 rows are imported, the other year's is out of scope: every row accounted for
  assert.deepEqual(
    [out.reconciliation.rows, out.reconciliation.imported, out.reconciliation.skipped],
    [3, 2, { out_of_scope: 1 }],
  );
});

test('a crop the spec prices and the price file lacks stops the build, naming the file', () => {
  const crops = [...CROPS, { item_code: 667, item: 'Tea', series: 'TEA_AVG' }];
  assert.throws(
    () => agriculturalOtherOutput({ sector: 'AGR', crops }, [cell(667, 'KEN', 458_850)], PINK, rate, new Set(['KEN'])),
    (e: unknown) => e instanceof ImportError && /pink_other\.csv/.test(e.message) && /TEA_AVG/.test(e.message),
  );
});

const tidyRow = (over: Partial<TidyRow>): TidyRow => ({
  line: 2,
  commodity_file: 'niobi',
  source_file: 'mcs2024-niobi_world.csv',
  type: 'Mine production, niobium content',
  country_raw: 'Congo (Kinshasa)',
  iso3: 'COD',
  entity_kind: 'country',
  measure: 'production',
  year: 2023,
  estimated: true,
  unit_code: 't',
  value: 540,
  value_raw: '540',
  ...over,
});
const SPEC: OtherMining[] = [
  {
    sector: 'MIN-ORE',
    iso3: 'COD',
    year: 2023,
    commodities: [
      {
        file: 'niobi',
        type: 'Mine production, niobium content',
        label: 'Niobium',
        price: { column: 'Price_dkg', per: 'kg' },
      },
    ],
  },
];
const SALIENT = {
  niobi: {
    file: 'mcs2024-niobi_salient.csv',
    text: 'DataSource,Commodity,Year,Price_dkg\nMCS2024,Niobium,2022,25\nMCS2024,Niobium,2023,25\n',
  },
};

test("a mining country-sector: USGS tonnage × unit value ÷ the ECB rate, the salient file's year row used", () => {
  const rows = miningLines(SPEC, [tidyRow({ year: 2022, value: 710, line: 1 }), tidyRow({})], 'tidy.csv');
  assert.equal(rows.get('MIN-ORE|COD|niobi')!.line, 2, 'the spec year’s row');
  const out = miningOtherOutput(SPEC, rows, SALIENT, rate);
  assert.ok(Math.abs(out.rows[0]!.value_eur - (540 * 1000 * 25) / 1.081269) < 1e-6);
  assert.match(out.rows[0]!.note, /Niobium 540 t \(USGS MCS 2024, 2023, estimated\) × 25 USD\/kg/);
  assert.deepEqual(
    out.reconciliation.map((r) => [r.file, r.rows, r.imported, r.skipped]),
    [['mcs2024-niobi_salient.csv', 2, 1, { out_of_scope: 1 }]],
  );
});

test('a mining commodity the tables lack, or a unit value of another year, stops the build', () => {
  assert.throws(
    () => miningLines(SPEC, [tidyRow({ iso3: 'BRA' })], 'tidy.csv'),
    (e: unknown) => e instanceof ImportError && /tidy\.csv/.test(e.message) && /COD/.test(e.message),
  );
  const rows = miningLines(SPEC, [tidyRow({})], 'tidy.csv');
  const only2022 = {
    niobi: { ...SALIENT.niobi, text: 'DataSource,Commodity,Year,Price_dkg\nMCS2024,Niobium,2022,25\n' },
  };
  assert.throws(
    () => miningOtherOutput(SPEC, rows, only2022, rate),
    (e: unknown) => e instanceof ImportError && /mcs2024-niobi_salient\.csv/.test(e.message) && /2023/.test(e.message),
  );
});

/**
 * The published register against the files it is built from (issue 24). Spot values are read from the
 * published CSVs here, with csv-parse directly, not through the importers: a country's 2023 cobalt
 * mine production is the USGS row, a conflict's battle deaths in a year are its UCDP dyads summed, a
 * country's mining fatalities are the ILOSTAT row. Then every file's reconciliation (every row imported
 * or skipped with a counted reason), the hash (same files, same register; a changed value, another),
 * every removable published file failing the build by name, provenance on every input row, and the
 * optional GED input on the real-format sample in fixtures/impact/ged/.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { buildRegister, ROOT } from '../../db/impact/load.ts';
import { MissingDataError } from '../../db/impact/published.ts';

type Rec = Record<string, string>;
const csv = (path: string): Rec[] =>
  parse(readFileSync(join(ROOT, 'data', 'impact', path), 'utf8'), { columns: true, bom: true, trim: true }) as Rec[];
const num = (s: string) => Number(s.replace(/,/g, '').trim());

const built = buildRegister('published');
const t = built.tables;
const provenance = new Map(t.impact_provenance!.map((p) => [p.id as number, p]));
const basisOf = (id: unknown) => provenance.get(id as number)?.basis;

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('USGS: a country-year of mine production is the publisher row, units converted, estimates flagged', () => {
  const cobalt = csv('usgs-mcs-2024-world/raw/mcs2024-cobal_world.csv').find(
    (r) => r.Country === 'Congo (Kinshasa)' && /^Mine production/.test(r.Type!),
  )!;
  const cod = (year: number) =>
    t.impact_material_production!.find((r) => r.material === 'cobalt' && r.iso3 === 'COD' && r.year === year)!;
  assert.equal(cod(2023).qty, num(cobalt.Prod_t_est_2023!), 'tonnes, as published');
  assert.equal(cod(2023).qty, 170000);
  assert.equal(cod(2022).qty, num(cobalt.Prod_t_est_2022!));
  assert.equal(cod(2023).quality, 'estimated', 'the 2023 column is an estimate');
  assert.equal(basisOf(cod(2023).provenance), 'published');

  // Copper is published in thousand tonnes: converted, and the conversion stated.
  const copper = csv('usgs-mcs-2024-world/raw/mcs2024-coppe_world.csv').find(
    (r) => r.Country === 'Chile' && /^Mine production/.test(r.Type!),
  )!;
  const chl = t.impact_material_production!.find(
    (r) => r.material === 'copper' && r.iso3 === 'CHL' && r.year === 2022,
  )!;
  assert.equal(chl.qty, num(copper.Prod_kt_2022!) * 1000);
  assert.equal(chl.quality, 'reported');
  assert.match(provenance.get(chl.provenance as number)!.method as string, /thousand metric tons converted to tonnes/);

  // Withheld ("W") stays unknown, never 0.
  const lithium = csv('usgs-mcs-2024-world/raw/mcs2024-lithi_world.csv').find((r) => r.Country === 'United States')!;
  assert.equal(lithium.Prod_t_2022 ?? lithium.Prod_t_est_2022, 'W');
  const usa = t.impact_material_production!.filter((r) => r.material === 'lithium' && r.iso3 === 'USA');
  assert.deepEqual(
    usa.map((r) => [r.year, r.qty, r.quality]),
    [
      [2022, null, 'withheld'],
      [2023, null, 'withheld'],
    ],
  );
  // The world total as published, beside the countries.
  const world = t.impact_material_world!.find((r) => r.material === 'cobalt' && r.year === 2023)!;
  const worldRow = csv('usgs-mcs-2024-world/raw/mcs2024-cobal_world.csv').find(
    (r) => /^World total/.test(r.Country!) && /^Mine production/.test(r.Type!),
  )!;
  assert.equal(world.world_total, num(worldRow.Prod_t_est_2023!));
});

test("UCDP BRD: a conflict's battle deaths in a year are its dyads summed; a split keeps every death", () => {
  const dyads = csv('ucdp-brd-dyadic-v24.1/BattleDeaths_v24_1.csv');
  const conflictYear = csv('ucdp-brd-dyadic-v24.1/brd_conflict_year.csv');
  for (const k of t.impact_conflicts!) {
    if (k.ucdp_conflict_id === null) continue;
    const mine = dyads.filter((r) => Number(r.conflict_id) === k.ucdp_conflict_id);
    const years = [...new Set(mine.map((r) => Number(r.year)))];
    for (const year of years) {
      const rows = mine.filter((r) => Number(r.year) === year);
      const ledger = t.impact_conflict_ledger!.filter((r) => r.conflict === k.slug && r.year === year);
      for (const [col, src] of [
        ['deaths_best', 'bd_best'],
        ['deaths_low', 'bd_low'],
        ['deaths_high', 'bd_high'],
      ] as const)
        assert.equal(
          ledger.reduce((a, r) => a + (r[col] as number), 0),
          rows.reduce((a, r) => a + num(r[src]!), 0),
          `${k.slug} ${year} ${col}`,
        );
      assert.ok(
        ledger.every((r) => r.events === null && r.precise_events === null),
        'BRD counts deaths, not events',
      );
    }
    assert.equal(t.impact_conflict_ledger!.filter((r) => r.conflict === k.slug).length > 0, years.length > 0);
  }
  // DR Congo east = UCDP conflict 283; 2022 from its dyads, and as the conflict-year file says. The M23
  // dyad (385) was also fought in Rwanda, where UCDP counts 4 deaths that year against 5,498 in DR Congo:
  // its share rounds to none.
  const drc = t.impact_conflict_ledger!.filter((r) => r.conflict === 'drc-east' && r.year === 2022);
  const want = conflictYear.find((r) => r.conflict_id === '283' && r.year === '2022')!;
  assert.deepEqual(
    drc.map((r) => [r.iso3, r.deaths_best]),
    [
      ['COD', num(want.bd_best!)],
      ['RWA', 0],
    ],
  );
  assert.equal(num(want.bd_best!), 544);
  // Russia–Ukraine 2022 is fought in Poland, Russia and Ukraine: split by where UCDP counts the deaths.
  const ru = t.impact_conflict_ledger!.filter((r) => r.conflict === 'russia-ukraine' && r.year === 2022);
  const occurred = csv('ucdp-owid-conflict-deaths-by-country/conflict_deaths_by_country_year.csv').filter(
    (r) => r.year === '2022' && ['POL', 'RUS', 'UKR'].includes(r.code!),
  );
  const weights: Record<string, number> = Object.fromEntries(occurred.map((r) => [r.code, num(r.deaths_best!)]));
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  for (const r of ru)
    assert.ok(Math.abs((r.deaths_best as number) - (91723 * weights[r.iso3 as string]!) / total) < 1, `${r.iso3}`);
  assert.equal(
    ru.reduce((a, r) => a + (r.deaths_best as number), 0),
    91723,
  );
  assert.equal(basisOf(ru[0]!.provenance), 'derived');
});

test('UCDP via OWID: a country-year of organised violence is its battle deaths plus the rest', () => {
  const owid = csv('ucdp-owid-conflict-deaths-by-country/conflict_deaths_by_country_year.csv');
  const c1 = (iso3: string, year: number, activity: string) =>
    t.impact_harm_counted!.find(
      (r) => r.channel === 'C1' && r.iso3 === iso3 && r.year === year && r.activity === activity,
    )!;
  for (const [iso3, year] of [
    ['COD', 2022],
    ['COL', 2019],
    ['MLI', 2021],
  ] as const) {
    const all = num(owid.find((r) => r.code === iso3 && r.year === String(year))!.deaths_best!);
    const battle = c1(iso3, year, 'battle').deaths as number;
    assert.ok(battle <= all, `${iso3} ${year}: battle deaths within all organised violence`);
    assert.equal(battle + (c1(iso3, year, 'other').deaths as number), all, `${iso3} ${year}`);
  }
  assert.equal(num(owid.find((r) => r.code === 'COD' && r.year === '2022')!.deaths_best!), 5498);
  // Other violence is never tied to a conflict or a sector: no share rows for it.
  assert.ok(!t.impact_harm_sector_shares!.some((r) => r.activity === 'other' || r.activity === 'battle'));
});

test("ILOSTAT: a country's mining fatalities are the ILOSTAT row, older classifications read through", () => {
  const fatal = csv('ilostat-occupational-injuries-2021/ilostat_fatal_injuries_by_economic_activity_2000_2019.csv');
  const nonfatal = csv(
    'ilostat-occupational-injuries-2021/ilostat_nonfatal_injuries_by_economic_activity_2000_2019.csv',
  );
  const cell = (rows: Rec[], area: string, classif: string, year: number) =>
    num(rows.find((r) => r.ref_area === area && r.classif1 === classif && r.time === String(year))!.obs_value!);
  const c2 = (iso3: string, activity: string, year: number) =>
    t.impact_harm_counted!.find(
      (r) => r.channel === 'C2' && r.iso3 === iso3 && r.activity === activity && r.year === year,
    )!;
  // Turkey 2008 reports ISIC Rev.4: section B (mining and quarrying) as published.
  const tur = c2('TUR', 'B', 2008);
  assert.deepEqual(
    [tur.deaths, tur.injuries],
    [cell(fatal, 'TUR', 'ECO_ISIC4_B', 2008), cell(nonfatal, 'TUR', 'ECO_ISIC4_B', 2008)],
  );
  assert.equal(tur.deaths, 66);
  assert.equal(basisOf(tur.provenance), 'published');
  // Peru 2013 reports ISIC Rev.3, where mining is section C: read as B, the correspondence stated.
  const per = c2('PER', 'B', 2013);
  assert.deepEqual(
    [per.deaths, per.injuries],
    [cell(fatal, 'PER', 'ECO_ISIC3_C', 2013), cell(nonfatal, 'PER', 'ECO_ISIC3_C', 2013)],
  );
  assert.equal(basisOf(per.provenance), 'derived');
  assert.match(provenance.get(per.provenance as number)!.method as string, /ISIC Rev\.3 C, read as activity B/);
  // Every activity of a country-year together is its reported total (no case lost or counted twice).
  const perAll = ['A', 'B', 'C', 'D-U'].reduce((a, x) => a + (c2('PER', x, 2013).deaths as number), 0);
  assert.equal(perAll, cell(fatal, 'PER', 'ECO_ISIC3_TOTAL', 2013));
  // A country that reports nothing has no row: nothing invented.
  const [deaths, injuries] = [fatal, nonfatal].map(
    (rows) => new Set(rows.filter((r) => r.obs_value !== '').map((r) => `${r.ref_area}|${r.time}`)),
  );
  let unknown = 0;
  for (const r of t.impact_harm_counted!.filter((x) => x.channel === 'C2')) {
    const key = `${r.iso3}|${r.year}`;
    assert.ok(r.deaths === null || deaths!.has(key), `${key}: deaths only where reported`);
    assert.ok(r.injuries === null || injuries!.has(key), `${key}: injuries only where reported`);
    assert.ok(r.deaths !== null || r.injuries !== null, `${key}: no row of nothing`);
    if (r.deaths === null) unknown++;
  }
  assert.ok(unknown > 0, 'a country-year reporting injuries only keeps its deaths unknown (null), not 0');
});

test('World Bank: income groups and regions by ISO code, as published', () => {
  const wb = csv('worldbank-income-groups-fy2025/wb_country_class_fy2025.csv');
  const country = (iso3: string) => t.impact_countries!.find((r) => r.iso3 === iso3)!;
  for (const code of ['COD', 'CHL', 'DEU', 'IDN']) {
    const row = wb.find((r) => r.iso3 === code)!;
    assert.deepEqual([country(code).income_group, country(code).wb_region], [row.income_group, row.region]);
    assert.equal(basisOf(country(code).income_provenance), 'published');
  }
  // Venezuela's group is withheld in FY2025 ("" in the file): unknown, not a guess.
  const unknown = wb.filter((r) => r.income_group === '').map((r) => r.iso3);
  assert.deepEqual(unknown, ['VEN']);
  assert.equal(country('VEN').income_group, null);
});

test('every row of every file is imported or skipped with a counted reason', () => {
  const byFile = new Map(built.reconciliation.map((r) => [r.file, r]));
  // Rows read = the file's data rows, counted here independently.
  for (const r of built.reconciliation) {
    // FAOSTAT's file opens with comment lines (`# …`) before its header.
    const text = readFileSync(join(ROOT, r.file), 'utf8').replace(/^#.*\n/gm, '');
    const rows = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
    assert.equal(r.rows, rows.slice(1).filter((x) => x.some((v) => v.trim() !== '')).length, r.file);
    const skipped = Object.values(r.skipped).reduce((a, b) => a + b, 0);
    assert.equal(r.imported + r.unknown + r.checked + skipped, r.rows, `${r.file} adds up`);
  }
  const expect: Array<[string, [number, number, number, number], Record<string, number>]> = [
    // silver and palladium added by issue 33: 38 more country-years of production, two more 'Other countries' rows
    // published-2026.4: DR Congo's niobium and Mozambique's diatomite are read for the sectors' other output
    ['usgs-mcs-2024-world/mcs2024_world_tidy.csv', [3477, 572, 8, 2], { out_of_scope: 2857, residual: 38 }],
    ['worldbank-income-groups-fy2025/wb_country_class_fy2025.csv', [218, 215, 1, 0], { unmapped_code: 2 }],
    ['ucdp-brd-dyadic-v24.1/BattleDeaths_v24_1.csv', [1920, 263, 0, 1657], {}],
    ['ucdp-brd-dyadic-v24.1/brd_conflict_year.csv', [1520, 0, 0, 1520], {}],
    [
      'ucdp-owid-conflict-deaths-by-country/conflict_deaths_by_country_year.csv',
      [7632, 6895, 0, 0],
      { aggregate: 216, beyond_coverage: 197, unmapped_code: 324 },
    ],
    [
      'ilostat-occupational-injuries-2021/ilostat_fatal_injuries_by_economic_activity_2000_2019.csv',
      [33995, 16411, 0, 0],
      { aggregate: 2513, no_value: 67, out_of_scope: 15004 },
    ],
    [
      'ilostat-occupational-injuries-2021/ilostat_nonfatal_injuries_by_economic_activity_2000_2019.csv',
      [32973, 15861, 0, 0],
      { aggregate: 2325, no_value: 7, out_of_scope: 14780 },
    ],
    // v3: FAOSTAT's 2019 column (72 rows of the seven crops have none: former areas, crops given up),
    // the crosswalk's areas with a 2019 value, and the conversion factors the crops take.
    ['faostat-production/faostat_qc_production_register_crops.csv', [562, 490, 0, 0], { no_value: 72 }],
    // published-2026.4: 27 areas more, growing only the other crops (not a register grower: out of scope)
    ['faostat-production/fao_area_iso3.csv', [205, 158, 0, 0], { no_value: 7, out_of_scope: 40 }],
    // the other crops the Pink Sheet prices, every country's 2019 tonnes (other-output.ts)
    ['faostat-production/faostat_qc_production_priced_crops.csv', [1204, 1104, 0, 0], { no_value: 100 }],
    ['worldbank-pink-sheet-2025-12/pink_sheet_annual_prices_other_crops.csv', [9, 9, 0, 0], {}],
    ['usgs-mcs-2024-salient/raw/mcs2024-niobi_salient.csv', [5, 1, 0, 0], { out_of_scope: 4 }],
    ['usgs-mcs-2024-salient/raw/mcs2024-diato_salient.csv', [5, 1, 0, 0], { out_of_scope: 4 }],
    // issue 33c: the roasted-coffee, cocoa-paste, refined-sugar and soya-curd rows bills of materials cite
    // (55 more; the raw-cane-sugar rows they cite are production's already), and one added row (Korea's soya curd)
    ['fao-conversion-factors/tcf_key_commodities.csv', [1839, 279, 0, 0], { no_value: 1, out_of_scope: 1559 }],
    ['usgs-mcs-2025-rare-earths/rare_earths_us_mine_value.csv', [1, 1, 0, 0], {}],
    ['ico-coffee-production/ico_coffee_production_by_type.csv', [2, 2, 0, 0], {}],
    // Issue 33: a row that sets or widens a bill-of-materials line is imported; one cited beside a line, checked.
    ['bom-literature/bom_figures.csv', [125, 46, 0, 55], { out_of_scope: 24 }],
    // Issue 33d: PV_ICE's module rows, Ecobalyse's bicycle, e-bike and jean components, the iPad's battery;
    // PV_ICE's ribbon copper (row 29) fits no line (methodology v3 §5.5).
    // Issue 33f: the refrigerator's and the washing machine's shares and copper; ComEd's copper-and-aluminium sum checks.
    // Issue 33l: the shell's copper and the M104's weights and fillings set lines; MINEX Europe's restatement checks.
    ['bom-additions/bom_additions.csv', [123, 97, 0, 25], { out_of_scope: 1 }],
    ['standard-compositions/compositions.csv', [110, 16, 0, 21], { out_of_scope: 73 }],
    ['batpac-mineral-intensity/mineral-intensity.csv', [122, 5, 0, 0], { out_of_scope: 117 }],
    ['usgs-mcs-2024-salient/usgs_salient_prices_tidy.csv', [231, 10, 0, 0], { out_of_scope: 221 }],
    ['worldbank-pink-sheet-2025-12/pink_sheet_annual_prices_tidy.csv', [147, 17, 0, 0], { out_of_scope: 130 }],
    // the 2024 rate prices the rare earths (issue 33c)
    ['ecb-eur-usd-annual/eur_usd_annual_average.csv', [11, 3, 0, 0], { out_of_scope: 8 }],
    ['material-prices-register-2023/register_material_prices_2023.csv', [44, 0, 0, 17], { out_of_scope: 27 }],
    ['eu-crma-2024-raw-materials/eu_crma_2024_annex_lists.csv', [51, 24, 0, 0], { out_of_scope: 27 }],
    ['usgs-critical-minerals-2022/MCS2024_T4_Critical_Minerals_End_Use.csv', [50, 19, 0, 0], { out_of_scope: 31 }],
    ['conflict-minerals-legal-scope/conflict_minerals_scope.csv', [8, 8, 0, 0], {}],
  ];
  for (const [file, [rows, imported, unknown, checked], skipped] of expect) {
    const r = byFile.get(`data/impact/${file}`);
    assert.ok(r, `${file} reconciled`);
    assert.deepEqual(
      [r.rows, r.imported, r.unknown, r.checked, r.skipped],
      [rows, imported, unknown, checked, skipped],
      file,
    );
  }
  // Every raw USGS commodity file the materials use is read as a check of the tidy table.
  const raw = built.reconciliation.filter((r) => r.file.includes('usgs-mcs-2024-world/raw/mcs2024-'));
  assert.equal(raw.length, 19);
  assert.ok(
    raw.every((r) => r.checked === r.rows),
    'raw files checked',
  );
  assert.deepEqual(byFile.get('data/impact/worldbank-income-groups-fy2025/wb_country_class_fy2025.csv')!.notes, [
    'line 41: Channel Islands (CHI) has no ISO 3166-1 code',
    'line 107: Kosovo (XKX) has no ISO 3166-1 code',
  ]);
});

test('the same files give the same register hash; a changed value another', () => {
  assert.match(built.sha256, /^[0-9a-f]{64}$/);
  assert.equal(buildRegister('published').sha256, built.sha256);
  const edited = (folder: string, file: string, from: RegExp, to: string) =>
    rootWith(
      (dataDir) => {
        const text = readFileSync(join(ROOT, 'data', 'impact', folder, file), 'utf8');
        const changed = text.replace(from, to);
        assert.notEqual(changed, text, `${file} edited`);
        rmSync(join(dataDir, folder, file));
        writeFileSync(join(dataDir, folder, file), changed);
      },
      [folder],
    );
  // Turkey's 66 mining deaths of 2008 read as 67: another register.
  const ilo = edited(
    'ilostat-occupational-injuries-2021',
    'ilostat_fatal_injuries_by_economic_activity_2000_2019.csv',
    /^(TUR,INJ_FATL_ECO_NB,[^,]*,ECO_ISIC4_B,2008,)66,/m,
    '$167,',
  );
  assert.notEqual(buildRegister('published', { root: ilo }).sha256, built.sha256);
  // An exchange rate that no longer gives the material-prices register's euros stops the build.
  const ecb = edited('ecb-eur-usd-annual', 'eur_usd_annual_average.csv', /^2023,1\.081269,/m, '2023,1.091269,');
  assert.throws(
    () => buildRegister('published', { root: ecb }),
    /register_material_prices_2023\.csv: line \d+: \w+ [\d.]+ EUR\/kg, computed from the tables [\d.]+/,
  );
});

test('a published file removed: the build fails with a message naming it', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'impact', 'published', 'manifest.json'), 'utf8')) as {
    files: Record<string, string>;
  };
  // a pattern stands for one file it names: cobalt's world table, niobium's salient statistics
  const files = Object.values(manifest.files).map((f) =>
    f.replace('{code}', f.includes('salient') ? 'niobi' : 'cobal'),
  );
  assert.equal(files.length, 29);
  for (const file of files) {
    const root = rootWith((dataDir) => rmSync(join(dataDir, file)), [file.split('/')[0]!]);
    assert.throws(
      () => buildRegister('published', { root }),
      (err: unknown) =>
        err instanceof MissingDataError &&
        err.message.startsWith(`data/impact/${file} is missing`) &&
        /--register demo/.test(err.message),
      file,
    );
  }
});

test('every input row carries its provenance; bases are what they say', () => {
  const columns = ['provenance', 'price_provenance', 'income_provenance'];
  let checked = 0;
  for (const [table, rows] of Object.entries(t)) {
    const col = columns.find((c) => rows[0] && c in rows[0]);
    if (!col) continue;
    for (const r of rows) {
      if (r[col] === null && col !== 'provenance') continue; // no price or income group to trace
      assert.ok(provenance.has(r[col] as number), `${table} row without provenance: ${JSON.stringify(r)}`);
      checked++;
    }
  }
  assert.ok(checked > 18000, `${checked} rows traced`);
  const releases = new Set(t.impact_source_releases!.map((r) => `${r.source}|${r.release}`));
  for (const p of t.impact_provenance!) {
    if ((p.basis === 'published' || p.basis === 'derived') && String(p.file).startsWith('data/impact/')) {
      assert.ok(
        p.file && releases.has(`${p.source}|${p.release}`),
        `published/derived ${p.id} names its file and release`,
      );
      const dated = t.impact_source_releases!.find((r) => r.source === p.source && r.release === p.release)!;
      assert.match(
        String(dated.published_on),
        /^\d{4}(-\d{2}(-\d{2})?)?$/,
        `${p.source} ${p.release}: publication date`,
      );
    }
    if (p.basis === 'derived' && !String(p.file).includes('/raw/'))
      assert.ok(p.method, `derived ${p.id} (${p.source}) states its formula`);
    if (p.basis === 'assumption') assert.ok(p.method, `assumption ${p.id} (${p.source}) states its rationale`);
  }
  // What is illustrative in the published register is what methodology v3 §1 lists, no more: the
  // input–output table and budget shares, the
  // bills of materials without cited figures and product prices. Harm counted never is.
  const illustrative = (table: string, col = 'provenance') =>
    t[table]!.filter((r) => basisOf(r[col]) === 'illustrative').length;
  assert.deepEqual(
    Object.fromEntries(
      Object.entries(t)
        .map(([table, rows]) => [table, ['provenance', 'price_provenance'].find((c) => rows[0] && c in rows[0])])
        .filter(([, col]) => col)
        .map(([table, col]) => [table, illustrative(table!, col)])
        .filter(([, n]) => n),
    ),
    {
      impact_mrio_output: 72,
      impact_mrio_sourcing: 432,
      impact_mrio_coefficients: 2124,
      impact_coicop: 27,
      impact_coicop_bridge: 61,
      // v3: agricultural production and the sugar-cane price are FAO's, the rare-earth price USGS's value of
      // U.S. concentrates (issue 33c): no material is priced illustratively any more; and since
      // published-2026.4 the sectors' other output is derived (FAOSTAT × Pink Sheet, USGS): none illustrative
      // every line but those resting on a published table, a conversion or the catalogue's definition (issues 33, 33c)
      // issue 33d: 7 lines added (the bicycle's and e-bike's tyre beads, valves and plastics, the e-bike's wheels);
      // 85 left illustrative; issue 33e: the e-bike's motor magnets and the laptop's and the tablet's boards and case cited (80);
      // issue 33i: the solar panel's solder (now its lead and tin), the military drone's battery and boards and the
      // earbuds' batteries cited (76); issue 33h: the tantalum capacitor's anode and the cartridge's case derived (74);
      // issue 33g: the biscuits' sugar, fat, coating and flour from McVitie's label and the chocolate directive (70);
      // issue 33f: four refrigerator and three washing-machine lines cited (63);
      // issue 33j: the cartridge's lead core published and its jacket derived (61);
      // issue 33l: the artillery shell's band (published) and body (derived) cited (59)
      impact_bom_lines: 182 - 123,
      impact_products: 48,
    },
  );
  assert.deepEqual(
    [...new Set(t.impact_provenance!.filter((p) => p.basis === 'illustrative').map((p) => p.source))],
    ['trio-demo'],
  );
  for (const table of [
    'impact_harm_counted',
    'impact_conflict_ledger',
    'impact_conflicts',
    'impact_harm_sector_shares',
  ])
    assert.equal(illustrative(table), 0, table);
});

test('the optional GED file: the ledger of a conflict it holds is its events summed', () => {
  const ged = 'fixtures/impact/ged/ged231-sample-cod-col.csv';
  const events = parse(readFileSync(join(ROOT, ged), 'utf8'), { columns: true }) as Rec[];
  const withGed = buildRegister('published', { ged: join(ROOT, ged) });
  const r = withGed.reconciliation.find((x) => x.file.endsWith('ged231-sample-cod-col.csv'))!;
  assert.equal(r.rows, events.length);
  assert.equal(r.rows, 62);
  // Colombia (UCDP 289) from its type-1 events: counted and summed per year.
  const colombia = withGed.tables.impact_conflict_ledger!.filter((x) => x.conflict === 'colombia');
  const mine = events.filter((e) => e.conflict_new_id === '289' && e.type_of_violence === '1');
  assert.deepEqual(
    colombia.map((x) => [x.year, x.events, x.deaths_best, x.source]),
    [...new Set(mine.map((e) => Number(e.year)))]
      .sort((a, b) => a - b)
      .map((year) => {
        const ys = mine.filter((e) => Number(e.year) === year);
        return [year, ys.length, ys.reduce((a, e) => a + Number(e.best), 0), 'ucdp-ged'];
      }),
  );
  assert.notEqual(withGed.sha256, built.sha256, 'the GED file is part of the register');
});

/**
 * A repository root whose data/impact/ links to the real folders, except `copied` ones, whose files are
 * linked one by one so that `edit` may remove or replace them.
 */
function rootWith(edit: (dataDir: string) => void, copied: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'trio-impact-data-'));
  dirs.push(root);
  for (const top of ['fixtures', 'docs']) symlinkSync(join(ROOT, top), join(root, top));
  const dataDir = join(root, 'data', 'impact');
  mkdirSync(dataDir, { recursive: true });
  for (const folder of readdirSync(join(ROOT, 'data', 'impact'))) {
    const from = join(ROOT, 'data', 'impact', folder);
    if (!copied.includes(folder)) {
      symlinkSync(from, join(dataDir, folder));
      continue;
    }
    linkTree(from, join(dataDir, folder));
  }
  edit(dataDir);
  return root;
}

function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true }))
    if (e.isDirectory()) linkTree(join(from, e.name), join(to, e.name));
    else symlinkSync(join(from, e.name), join(to, e.name));
}

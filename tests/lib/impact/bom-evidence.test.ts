/**
 * The rule that turns published rows into bill-of-materials lines (lib/impact/import/bom-evidence.ts),
 * on small tables in the real files' columns (hand-made: each row is a trap the shipped files hold
 * only once or not at all): a standard's nominal value with its limits, a lone maximum, a change of unit
 * that leaves a value published, rows that only widen the range, a definition, a repeated line, a row
 * that does not exist.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importBomEvidence, type EvidenceSpec } from '../../../lib/impact/import/bom-evidence.ts';
import { readEvidenceTables, evidenceReconciliation } from '../../../lib/impact/import/bom-tables.ts';

const FIG_HEAD =
  'product,material,quantity,unit,min,max,source_title,publisher_or_authors,year,url,page_or_table,access_note,confidence,basis_note';
const bom = [
  FIG_HEAD,
  'cell,cobalt,177.3,g per kWh (DERIVED: per car / 75),,,IEA,IEA,2021,https://iea.example/a,Table 1,,medium: derived,',
  'cell,cobalt,133.3,g per kWh,,,T&E,T&E,2021,https://te.example/b,table,,medium-low: derived,',
  'ring,alloy,,g per unit,3,10,Blog,Jeweller,,https://blog.example/c,text,,low: blog,',
].join('\n');
const add = [
  FIG_HEAD,
  'steel,manganese,,kg per kg,,0.014,EN 10025-2,CEN,2004,https://std.example/d,Table 2,,high: standard,',
].join('\n');
const std = [
  'material,designation,standard_or_source,element_or_input,mass_fraction_min,mass_fraction_max,nominal,source_repo_path_commit_or_citation,note',
  'solder,SAC305 / Sn96.5Ag3.0Cu0.5,producer specification,Ag,0.028,0.032,0.03,"AIM data sheet, https://aim.example/e",',
  'stainless,304 (UNS S30400),ASTM,Ni,0.08,0.105,,"repo `owner/name`, path x",',
].join('\n');
const batpac = [
  'chemistry,electrolyte,anode,mineral,kg_per_kwh,g_per_kwh',
  'NMC 622,Lithium liquid,Graphite,Cobalt,0.1713,171.3',
].join('\n');
const tcf = [
  'source_row,m49_code,region,country_name,item_published,commodity_group,item_en,extraction_rate_pct,waste_of_supply_pct,seeding_rate_kg_per_ha',
  '6446,276,Europe,Germany,Coffee Roasted,coffee,"Coffee, roasted",80,,',
  '5995,250,Europe,France,Café Torréfié,coffee,"Coffee, roasted",84,,',
  '8646,380,Europe,Italy,Coffee Roasted,coffee,"Coffee, roasted",80,,',
  '2119,76,South America,Brazil,Cane Sugar,sugar,Raw cane sugar,9.4,,',
  '3598,170,South America,Colombia,Azúcar de Caña,sugar,Raw cane sugar,12,,',
  '2121,76,South America,Brazil,Sugar Refined,sugar,Refined sugar,92,,',
  '13550,410,Asia,Republic of Korea,Soybeans,soybeans,Soybeans,,0.7,60',
].join('\n');
const tables = () =>
  readEvidenceTables({
    bom: { text: bom, file: 'bom.csv', source: 'bom-literature', release: 'r1' },
    add: { text: add, file: 'add.csv', source: 'bom-additions', release: 'r2' },
    std: { text: std, file: 'std.csv', source: 'standard-compositions', release: 'r3' },
    batpac: { text: batpac, file: 'batpac.csv', source: 'batpac', release: 'r4' },
    tcf: { text: tcf, file: 'tcf.csv', source: 'fao-tcf', release: 'r5' },
  });
const line = (spec: Partial<EvidenceSpec>) => {
  const full = { product: 'p', role: 'r', component: 'm:x', unit: 'kg', figures: [], ...spec } as EvidenceSpec;
  return importBomEvidence(tables(), [full]).lines[0]!;
};

test('a standard row gives its nominal value, and its limits feed the draws', () => {
  const l = line({ figures: ['std:1'], confidence: 'high' });
  assert.deepEqual([l.qty, l.qty_low, l.qty_high, l.basis], [0.03, 0.028, 0.032, 'published']);
  assert.equal(l.from.source, 'standard-compositions');
  assert.match(l.citations[0]!.source, /SAC305/);
  assert.equal(l.citations[0]!.url, 'https://aim.example/e');
  // Limits without a nominal value: the geometric mean; a repository cited by name links to it.
  const ni = line({ figures: ['std:2'], confidence: 'high' });
  assert.ok(Math.abs(ni.qty - Math.sqrt(0.08 * 0.105)) < 1e-15);
  assert.equal(ni.citations[0]!.url, 'https://github.com/owner/name');
});

test('a standard row has no confidence of its own: the line must state it', () => {
  assert.throws(() => line({ figures: ['std:1'] }), /does not say how far it can be used/);
});

test('a lone maximum is taken at half, as a derived value with its formula', () => {
  const l = line({ figures: ['add:1'], scale: 0.5, formula: 'half the maximum' });
  assert.deepEqual(
    [l.qty, l.qty_low, l.qty_high, l.basis, l.method],
    [0.007, null, null, 'derived', 'half the maximum'],
  );
});

test('a change of unit leaves a value published; any other scale derives it', () => {
  const g = line({
    unit: 'g',
    figures: [{ rows: ['batpac:NMC 622/Cobalt'], scale: 1000, unit: true }],
    confidence: 'medium',
  });
  assert.ok(Math.abs(g.qty - 171.3) < 1e-9);
  assert.equal(g.basis, 'published');
  const d = line({ unit: 'g', figures: [{ rows: ['batpac:NMC 622/Cobalt'], scale: 60000 }], confidence: 'medium' });
  assert.equal(d.basis, 'derived');
});

test('a summed group counts a scaled entry that many times (two wheels of one component), derived', () => {
  const l = line({ figures: [[{ rows: ['bom:2'], scale: 2 }, 'bom:1']], formula: 'two of row 2 and one of row 1' });
  assert.ok(Math.abs(l.qty - (2 * 133.3 + 177.3)) < 1e-9);
  assert.deepEqual([l.basis, l.qty_low, l.qty_high], ['derived', null, null]);
  assert.deepEqual(
    l.citations.map((c) => [c.file, c.row, c.use]),
    [
      ['bom.csv', 2, 'sets'],
      ['bom.csv', 1, 'sets'],
    ],
  );
  // a change of unit inside a group leaves a published row published
  const g = line({ figures: [[{ rows: ['bom:2'], scale: 1000, unit: true }]], unit: 'g' });
  assert.deepEqual([g.qty, g.basis], [133300, 'published']);
  assert.throws(() => line({ figures: [[]] }), /no positive quantity/);
});

test('range rows widen the draws without setting the quantity; checks neither', () => {
  const l = line({
    unit: 'g',
    figures: [{ rows: ['batpac:NMC 622/Cobalt'], scale: 1000, unit: true }],
    range: [1, 2],
    checks: ['bom:3'],
    confidence: 'medium',
  });
  assert.ok(Math.abs(l.qty - 171.3) < 1e-9, 'BatPaC sets it');
  assert.deepEqual([l.qty_low, l.qty_high], [133.3, 177.3]);
  assert.equal(l.basis, 'published', 'a derived row that only widens the range does not derive the line');
  assert.deepEqual(
    l.citations.map((c) => [c.file, c.row, c.use]),
    [
      ['batpac.csv', 1, 'sets'],
      ['bom.csv', 1, 'range'],
      ['bom.csv', 2, 'range'],
      ['bom.csv', 3, 'checks'],
    ],
  );
});

test('a definition rests on the catalogue, with no figures', () => {
  const l = line({ unit: 'kWh', qty: 0.037, defined: 'a 37 Wh pack' });
  assert.deepEqual([l.qty, l.basis, l.from.source], [0.037, 'derived', 'trio-catalogue']);
  assert.match(l.source_text, /a 37 Wh pack/);
  assert.throws(() => line({ unit: 'kWh', qty: 0.037, defined: 'x', figures: [1] }), /states its qty and no figures/);
});

test('a crop-to-input line divides the defined input by the median rate of each step, the extremes bounding it', () => {
  const coffee = line({
    unit: 'g',
    convert: {
      of: 250,
      defined: 'a 250 g pack',
      steps: [{ step: 'green to roasted', rows: ['tcf:6446', 'tcf:5995', 'tcf:8646'] }],
    },
    confidence: 'high',
  });
  // 250 g ÷ 0.80 (the median of 80, 84, 80); 250 ÷ 0.84 to 250 ÷ 0.80
  assert.ok(Math.abs(coffee.qty - 312.5) < 1e-9);
  assert.ok(Math.abs(coffee.qty_low! - 250 / 0.84) < 1e-9);
  assert.ok(Math.abs(coffee.qty_high! - 312.5) < 1e-9);
  assert.deepEqual([coffee.basis, coffee.from.source, coffee.citations.length], ['derived', 'fao-tcf', 3]);
  assert.match(coffee.citations[1]!.page, /row 5995: France, Café Torréfié/);
  assert.match(
    coffee.method!,
    /^250 g \(a 250 g pack\) ÷ 80 % \(green to roasted: the median of 3 countries' rates, 80–84 %\)/,
  );
  // Two steps multiply: cane → raw sugar (9.4 and 12: median 10.7) → refined (92).
  const sugar = line({
    convert: {
      of: 1,
      defined: '1 kg',
      steps: [
        { step: 'raw', rows: ['tcf:2119', 'tcf:3598'] },
        { step: 'refined', rows: ['tcf:2121'] },
      ],
    },
    confidence: 'medium',
  });
  assert.ok(Math.abs(sugar.qty - 1 / (0.107 * 0.92)) < 1e-9);
  assert.ok(Math.abs(sugar.qty_low! - 1 / (0.12 * 0.92)) < 1e-9);
  assert.ok(Math.abs(sugar.qty_high! - 1 / (0.094 * 0.92)) < 1e-9);
  // A row with no extraction rate, a row of another table, a conversion without its confidence: refused.
  const spec = (rows: string[], confidence?: 'low') =>
    line({ convert: { of: 1, defined: 'x', steps: [{ step: 's', rows }] }, ...(confidence ? { confidence } : {}) });
  assert.throws(() => spec(['tcf:13550'], 'low'), /tcf:13550 is not an extraction rate/);
  assert.throws(() => spec(['std:1'], 'low'), /std:1 is not an extraction rate/);
  assert.throws(() => spec(['tcf:2119']), /states its confidence and no figures/);
});

test('each table is reconciled: rows that set or widen are imported, rows only cited beside are checks', () => {
  const t = tables();
  const { used } = importBomEvidence(t, [
    { product: 'a', role: 'x', component: 'm:x', unit: 'g', figures: [1], checks: [3] },
    { product: 'b', role: 'y', component: 'm:x', unit: 'g', figures: [2], checks: [1] },
  ]);
  const rec = evidenceReconciliation(t, used).find((r) => r.file === 'bom.csv')!;
  assert.deepEqual([rec.rows, rec.imported, rec.checked, rec.skipped], [3, 2, 1, {}]);
});

test('a repeated line, an unknown row and a range that gives nothing positive are refused', () => {
  const spec = { product: 'p', role: 'r', component: 'm:x', unit: 'g', figures: [1] };
  assert.throws(() => importBomEvidence(tables(), [spec, { ...spec }]), /two lines for p r/);
  assert.throws(
    () =>
      importBomEvidence(tables(), [
        { ...spec, line: 2 },
        { ...spec, role: 'other', line: 2 },
      ]),
    /two lines for p line 2/,
  );
  assert.throws(() => line({ figures: ['std:9'], confidence: 'high' }), /no row std:9/);
  assert.throws(() => line({ figures: [3], minus: 20 }), /no positive quantity/);
});

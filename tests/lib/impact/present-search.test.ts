/** /search matching and ranking, and a product's trace and industries. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fold, searchEntries, type SearchEntry } from '../../../lib/impact/present-search.ts';
import { industriesOf, traceOf, type BomLineFact } from '../../../lib/impact/present-product.ts';

const ENTRIES: SearchEntry[] = [
  { type: 'product', key: 'copper-wire', name: 'Copper wire' },
  { type: 'material', key: 'copper', name: 'Copper' },
  { type: 'material', key: 'cobalt', name: 'Cobalt' },
  { type: 'country', key: 'CIV', name: "Côte d'Ivoire", aliases: ['CI'] },
  { type: 'country', key: 'COD', name: 'Congo, The Democratic Republic of the', aliases: ['CD'] },
  { type: 'channel', key: 'C1', name: 'Conflict' },
  { type: 'product', key: 'battery-cell-nmc', name: 'Lithium-ion cells, NMC 622' },
];

test('fold: case, accents and punctuation do not matter', () => {
  assert.equal(fold("  Côte d'Ivoire "), 'cote d ivoire');
  assert.equal(fold('NMC-622'), 'nmc 622');
});

test('ranked by how they match: key, name, prefix, word, substring; then type; then name', () => {
  const rank = (q: string) => searchEntries(ENTRIES, q).map((m) => `${m.match}:${m.key}`);
  assert.deepEqual(rank('copper'), ['key:copper', 'prefix:copper-wire']);
  assert.deepEqual(rank('COTE'), ['prefix:CIV']);
  assert.deepEqual(rank('cd'), ['key:COD']);
  assert.deepEqual(rank('co'), [
    'prefix:copper-wire',
    'prefix:cobalt',
    'prefix:copper',
    'prefix:COD',
    'prefix:CIV',
    'prefix:C1',
  ]);
  assert.deepEqual(rank('622'), ['word:battery-cell-nmc']);
  assert.deepEqual(rank('democratic'), ['word:COD']);
  assert.deepEqual(rank('balt'), ['substring:cobalt']);
  assert.deepEqual(rank('!!'), []);
});

const line = (product: string, n: number, type: string, key: string | null): BomLineFact => ({
  product,
  line: n,
  role: `r${n}`,
  component_type: type,
  component_key: key,
  component_name: key,
  qty: 1,
  unit: 'kg',
  loss_factor: 0,
});

test('a trace walks through semi-finished products depth first, and gives up on a cycle', () => {
  const lines = new Map<string, BomLineFact[]>([
    [
      'phone',
      [line('phone', 1, 'product', 'cell'), line('phone', 2, 'material', 'gold'), line('phone', 3, 'unmodelled', null)],
    ],
    ['cell', [line('cell', 1, 'material', 'cobalt')]],
  ]);
  const t = traceOf('phone', lines)!;
  assert.equal(t.depth, 2);
  assert.deepEqual(
    t.nodes.map((n) => `${n.depth}:${n.parent}/${n.key}`),
    ['1:phone/cell', '2:cell/cobalt', '1:phone/gold', '1:phone/null'],
  );
  lines.set('cell', [line('cell', 1, 'product', 'phone')]);
  assert.equal(traceOf('phone', lines), null);
  assert.equal(
    traceOf('cell', new Map([['cell', [line('cell', 1, 'product', 'missing')]]])),
    null,
    'a product the register lacks',
  );
});

test("industries: where the last stage is made, then the raw materials' industries", () => {
  const sectors = new Map([
    ['ELEC', { name: 'Electronics', kind: 'manufacture' }],
    ['MIN-ORE', { name: 'Metal ores', kind: 'extraction' }],
  ]);
  const out = industriesOf({ mrio_region: 'CHN', mrio_sector: 'ELEC' }, sectors, new Map([['CHN', 'China']]), [
    { key: 'cobalt', sector: 'MIN-ORE' },
    { key: 'gold', sector: 'MIN-ORE' },
    { key: 'cobalt', sector: 'MIN-ORE' },
  ]);
  assert.deepEqual(out, [
    {
      sector: 'ELEC',
      name: 'Electronics',
      kind: 'manufacture',
      role: 'last_stage',
      region: 'CHN',
      region_name: 'China',
      materials: [],
    },
    {
      sector: 'MIN-ORE',
      name: 'Metal ores',
      kind: 'extraction',
      role: 'raw_material',
      region: null,
      region_name: null,
      materials: ['cobalt', 'gold'],
    },
  ]);
});

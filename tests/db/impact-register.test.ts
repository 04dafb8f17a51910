/**
 * The demo register (the explicit choice `--register demo`) loaded from fixtures/impact/ into a real
 * SQLite file: what the issue asks the demo data set to hold, honesty markers (every input row
 * illustrative), the methodology hashes, and idempotent reloads. The published register, the default,
 * is tests/db/impact-published.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { loadImpactRegister } from '../../db/impact/load.ts';
import { readRegister } from '../../db/impact/register.ts';
import { migrate } from '../../db/migrate.ts';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'trio-impact-register-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const db: Db = openDatabase(join(dir, 'trio.sqlite'));
migrate(db, undefined, NOW);
const first = loadImpactRegister(db, NOW, { register: 'demo' });
const count = (sql: string) => db.prepare(sql).pluck().get() as number;

test('the demo data set holds at least what the issue asks', () => {
  const cases: Array<[string, string, number]> = [
    ['products', 'SELECT count(*) FROM impact_products', 40],
    ['semi-finished products', "SELECT count(*) FROM impact_products WHERE tier = 'semi_finished'", 1],
    ['finished products', "SELECT count(*) FROM impact_products WHERE tier = 'finished'", 1],
    ['arms products', 'SELECT count(*) FROM impact_products WHERE is_arms = 1', 2],
    ['materials', 'SELECT count(*) FROM impact_materials', 25],
    ['conflicts', 'SELECT count(*) FROM impact_conflicts', 12],
    ['countries (all of ISO 3166-1)', 'SELECT count(*) FROM impact_countries', 249],
    ['channels', 'SELECT count(*) FROM impact_channels', 4],
    ['input-output sectors', 'SELECT count(*) FROM impact_sectors', 10],
    ['input-output regions', 'SELECT count(*) FROM impact_mrio_regions', 6],
    ['sources', 'SELECT count(*) FROM impact_sources', 6],
    ['scenarios', 'SELECT count(*) FROM impact_scenarios', 5],
    ['COICOP 2018 divisions', "SELECT count(*) FROM impact_coicop WHERE level = 'division'", 15],
    [
      'bill-of-materials lines referencing semi-finished products',
      "SELECT count(*) FROM impact_bom_lines WHERE component_type = 'product'",
      1,
    ],
  ];
  for (const [what, sql, min] of cases) assert.ok(count(sql) >= min, `${what}: ${count(sql)} < ${min}`);
  assert.equal(count("SELECT count(*) FROM impact_scenarios WHERE is_default = 1 AND code = 'S-MAX'"), 1);
  assert.deepEqual(db.prepare('SELECT code FROM impact_channels ORDER BY ordinal').pluck().all(), [
    'C1',
    'C2',
    'C3',
    'C4',
  ]);
});

test('honesty: no invented UCDP identifier, unverified sources say so, the demo is marked illustrative', () => {
  assert.equal(
    count(
      "SELECT count(*) FROM impact_conflicts WHERE ucdp_conflict_id IS NULL AND (ucdp_id_note IS NULL OR ucdp_id_note = '')",
    ),
    0,
    'a missing id says why',
  );
  assert.equal(
    count(
      "SELECT count(*) FROM impact_sources WHERE verified_on IS NULL AND (basis IS NULL OR basis NOT LIKE '%not%')",
    ),
    0,
    'an unverified source says so in basis',
  );
  assert.equal(db.prepare("SELECT value FROM impact_register_meta WHERE key = 'illustrative'").pluck().get(), '1');
  assert.equal(db.prepare("SELECT value FROM impact_register_meta WHERE key = 'register'").pluck().get(), 'demo');
  // Issue 24: every input row of the demo says it is illustrative.
  assert.deepEqual(db.prepare('SELECT DISTINCT basis FROM impact_provenance').pluck().all(), ['illustrative']);
  for (const [table, column] of [
    ['impact_material_production', 'provenance'],
    ['impact_conflict_ledger', 'provenance'],
    ['impact_harm_counted', 'provenance'],
    ['impact_bom_lines', 'provenance'],
    ['impact_materials', 'price_provenance'],
  ])
    assert.equal(
      count(`SELECT count(*) FROM ${table} WHERE ${column} IS NULL`),
      0,
      `${table}: every row has its provenance`,
    );
  assert.equal(count('SELECT count(*) FROM impact_sources WHERE licence_name IS NULL OR credit IS NULL'), 0);
  assert.equal(
    db.prepare("SELECT usage_restriction FROM impact_sources WHERE code = 'gbd'").pluck().get(),
    'non-commercial',
  );
});

test('each methodology version carries the SHA-256 of its own document in the repository', () => {
  for (const code of ['v1', 'v2', 'v3']) {
    const file = join(import.meta.dirname, '..', '..', 'docs', 'methodology', `${code}.md`);
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    assert.equal(
      db.prepare('SELECT document_sha256 FROM impact_methodology_versions WHERE code = ?').pluck().get(code),
      sha,
      code,
    );
  }
  assert.equal(
    db.prepare("SELECT value FROM impact_register_meta WHERE key = 'methodology_version'").pluck().get(),
    'v2', // the demo register stays on v2; the published one applies v3
  );
  assert.match(first.register_sha256, /^[0-9a-f]{64}$/);
});

test('derived columns: completeness, bill-of-materials confidence and C1 harm from the ledger', () => {
  const phone = db.prepare("SELECT complete, bom_confidence FROM impact_products WHERE slug = 'smartphone'").get();
  assert.deepEqual(phone, { complete: 0, bom_confidence: 'low' });
  const ring = db.prepare("SELECT complete, bom_confidence FROM impact_products WHERE slug = 'gold-ring'").get();
  assert.deepEqual(ring, { complete: 1, bom_confidence: 'high' });
  const c1 = count(
    "SELECT deaths FROM impact_harm_counted WHERE channel = 'C1' AND activity = 'battle' AND iso3 = 'COD' AND year = 2023",
  );
  assert.equal(c1, count("SELECT sum(deaths_best) FROM impact_conflict_ledger WHERE iso3 = 'COD' AND year = 2023"));
  assert.equal(
    count("SELECT count(*) FROM impact_conflict_shares WHERE sector = 'ARMS' AND scenario <> 'S-ARMS'"),
    0,
    'only S-ARMS attributes to arms manufacture',
  );
  assert.ok(count("SELECT count(*) FROM impact_conflict_shares WHERE sector = 'ARMS' AND scenario = 'S-ARMS'") >= 12);
});

test('every column of the input-output table sums to less than 1 (a productive table)', () => {
  const worst = count(
    'SELECT max(s) FROM (SELECT sum(value) AS s FROM impact_mrio_coefficients GROUP BY to_region, to_sector)',
  );
  assert.ok(worst < 1, `column sum ${worst}`);
  assert.equal(
    count(
      'SELECT count(*) FROM (SELECT sum(share) AS s FROM impact_mrio_sourcing GROUP BY sector, to_region) WHERE abs(s - 1) > 1e-9',
    ),
    0,
  );
});

test('loading the same fixtures again writes nothing; the register reads back the same', () => {
  const before = JSON.stringify(readRegister(db));
  const changes = db.prepare('SELECT total_changes()').pluck().get() as number;
  const again = loadImpactRegister(db, NOW + 1000, { register: 'demo' });
  assert.equal(again.changed, false);
  assert.equal(db.prepare('SELECT total_changes()').pluck().get(), changes);
  assert.equal(JSON.stringify(readRegister(db)), before);
});

test('raw inputs are register facts: flattened through semi-finished products, losses included', () => {
  const rows = db
    .prepare(
      "SELECT type, key, name, round(qty, 6) AS qty, unit FROM impact_product_raw_inputs WHERE product = 'gold-ring' ORDER BY seq",
    )
    .all();
  // 4 g of 18-carat alloy with 5% loss = 4.2 g: 75% gold (1% loss), 20% copper, 5% silver (not modelled)
  assert.deepEqual(rows, [
    { type: 'material', key: 'copper', name: 'Copper', qty: 0.00084, unit: 'kg' },
    { type: 'material', key: 'gold', name: 'Gold', qty: 0.003182, unit: 'kg' },
    { type: 'unmodelled', key: null, name: 'Silver', qty: 0.00021, unit: 'kg' },
  ]);
  assert.equal(
    count('SELECT count(DISTINCT product) FROM impact_product_raw_inputs'),
    count('SELECT count(*) FROM impact_products'),
  );
});

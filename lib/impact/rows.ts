/**
 * The rows a run writes (one interface per table of db/migrations/005_impact_runs.sql, without
 * run_id), how a statistics row is made from draws, and the canonical digest that makes "the same
 * inputs and seed give a byte-identical run" checkable: every row, in a fixed order, serialised with
 * a fixed key order, floats as JavaScript prints them (shortest round-trip form), draws as their bytes.
 */
import { createHash } from 'node:crypto';
import type { Provenance } from './basis.ts';
import { summarize, toFigure, type Figure, type Grade } from './figure.ts';

export interface StatColumns {
  low: number;
  median: number;
  high: number;
  mean: number;
  central: number | null;
  grade: Grade;
}

/** The share of a figure's mean resting on each basis (lib/impact/basis.ts); null where not computed. */
export interface ProvColumns {
  prov_published: number | null;
  prov_derived: number | null;
  prov_assumption: number | null;
  prov_illustrative: number | null;
}

export function provColumns(p: Provenance | null): ProvColumns {
  return {
    prov_published: p?.published ?? null,
    prov_derived: p?.derived ?? null,
    prov_assumption: p?.assumption ?? null,
    prov_illustrative: p?.illustrative ?? null,
  };
}

export const NO_PROVENANCE: ProvColumns = provColumns(null);

export interface RunProductRow {
  product: string;
  complete: number;
  bom_confidence: string | null;
  unit_mass_g: number | null;
  price_eur: number;
  mrio_column: string;
}
export interface FigureRow extends StatColumns, ProvColumns {
  subject_type: 'product' | 'material';
  subject_key: string;
  metric: string;
  basis: 'per_unit' | 'per_kg' | 'per_1000_eur';
  route: 'material' | 'mrio';
}
export interface ContributionRow extends StatColumns, ProvColumns {
  product: string;
  metric: string;
  route: string;
  dimension: string;
  key: string;
  label: string;
  seq: number;
  share: number | null;
}
export interface QuantityRow {
  product: string;
  seq: number;
  material: string | null;
  name: string;
  qty: number;
  unit: string;
}
export interface DrawRow {
  subject_type: 'product' | 'mrio_column';
  subject_key: string;
  metric: string;
  draws: Float64Array;
}
export interface SpendRow extends StatColumns, ProvColumns {
  consumer: string;
  code: string;
  metric: string;
  reference: number;
  share_of_spend: number | null;
  made_in_consumer: number | null;
}
export interface SpendLeftOutRow {
  consumer: string;
  industries: string[];
  share_of_spend: number | null;
  why: string;
}
export interface ReachRow extends StatColumns, ProvColumns {
  subject_type: 'material' | 'conflict' | 'country' | 'channel';
  subject_key: string;
  metric: string;
  rank: number;
  product: string | null;
  share: number | null;
  counted: number | null;
}
export interface IntensityRow {
  metric: string;
  region: string;
  sector: string;
  channel: string;
  low: number;
  median: number;
  high: number;
  mean: number;
}
export interface NearestRow {
  product: string;
  rank: number;
  other: string;
}
export interface SourceUseRow {
  subject: string;
  source: string;
}

export interface RunRows {
  products: RunProductRow[];
  figures: FigureRow[];
  contributions: ContributionRow[];
  quantities: QuantityRow[];
  draws: DrawRow[];
  spend: SpendRow[];
  spendLeftOut: SpendLeftOutRow[];
  reach: ReachRow[];
  intensities: IntensityRow[];
  nearest: NearestRow[];
  sources: SourceUseRow[];
}

export function emptyRows(): RunRows {
  return {
    products: [],
    figures: [],
    contributions: [],
    quantities: [],
    draws: [],
    spend: [],
    spendLeftOut: [],
    reach: [],
    intensities: [],
    nearest: [],
    sources: [],
  };
}

export function statColumns(draws: Float64Array, cap: Grade, scratch?: Float64Array): StatColumns {
  return figureColumns(toFigure(summarize(draws, scratch), cap));
}

export function figureColumns(f: Figure): StatColumns {
  return { low: f.low, median: f.median, high: f.high, mean: f.mean, central: f.central, grade: f.grade };
}

/** The columns of a figure's statistics (StatColumns), in their stored order. */
const STAT_KEYS = ['low', 'median', 'high', 'mean', 'central', 'grade'];
const PROV_KEYS = ['prov_published', 'prov_derived', 'prov_assumption', 'prov_illustrative'];

/** Keys of each table in the order they are serialised and stored. */
export const TABLE_KEYS: { [K in keyof RunRows]: string[] } = {
  products: ['product', 'complete', 'bom_confidence', 'unit_mass_g', 'price_eur', 'mrio_column'],
  figures: ['subject_type', 'subject_key', 'metric', 'basis', 'route', ...STAT_KEYS, ...PROV_KEYS],
  contributions: [
    'product',
    'metric',
    'route',
    'dimension',
    'key',
    'label',
    'seq',
    ...STAT_KEYS,
    'share',
    ...PROV_KEYS,
  ],
  quantities: ['product', 'seq', 'material', 'name', 'qty', 'unit'],
  draws: ['subject_type', 'subject_key', 'metric', 'draws'],
  spend: ['consumer', 'code', 'metric', 'reference', ...STAT_KEYS, 'share_of_spend', 'made_in_consumer', ...PROV_KEYS],
  spendLeftOut: ['consumer', 'industries', 'share_of_spend', 'why'],
  reach: ['subject_type', 'subject_key', 'metric', 'rank', 'product', ...STAT_KEYS, 'share', 'counted', ...PROV_KEYS],
  intensities: ['metric', 'region', 'sector', 'channel', 'low', 'median', 'high', 'mean'],
  nearest: ['product', 'rank', 'other'],
  sources: ['subject', 'source'],
};

/** Draws as stored: little-endian float64. */
export function drawsToBuffer(draws: Float64Array): Buffer {
  const buf = Buffer.alloc(draws.length * 8);
  for (let i = 0; i < draws.length; i++) buf.writeDoubleLE(draws[i]!, i * 8);
  return buf;
}

export function bufferToDraws(buf: Uint8Array): Float64Array {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out = new Float64Array(buf.byteLength / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}

/** One row serialised canonically: a JSON array of its values in TABLE_KEYS order (draws in base64). */
function serializeRow(keys: readonly string[], row: object): string {
  return JSON.stringify(
    keys.map((k) => {
      const v = (row as Record<string, unknown>)[k];
      if (v instanceof Float64Array) return drawsToBuffer(v).toString('base64');
      return v;
    }),
  );
}

/** One table's rows serialised canonically (one JSON array per row, in TABLE_KEYS order). */
export function serializeRows(table: keyof RunRows, rows: readonly object[]): string {
  const keys = TABLE_KEYS[table];
  return rows.map((row) => serializeRow(keys, row)).join('\n');
}

/**
 * SHA-256 of every row of the run, table by table in TABLE_KEYS order: the bytes of serializeRows,
 * hashed a row at a time (a run's tables serialised whole were a few hundred MB of strings at 2,000
 * products).
 */
export function rowsDigest(rows: RunRows): string {
  const hash = createHash('sha256');
  for (const table of Object.keys(TABLE_KEYS) as Array<keyof RunRows>) {
    const keys = TABLE_KEYS[table];
    hash.update(`#${table}\n`);
    rows[table].forEach((row, i) => {
      if (i > 0) hash.update('\n');
      hash.update(serializeRow(keys, row));
    });
    hash.update('\n');
  }
  return hash.digest('hex');
}

/**
 * USGS Mineral Commodity Summaries 2024, world mine production by country (data/impact/usgs-mcs-2024-
 * world/). Two formats, both read:
 *  - the tidy long table (`mcs2024_world_tidy.csv`), which carries each country's ISO 3166-1 alpha-3
 *    code: the register takes production from it, by code, for the USGS file and row type each
 *    material names (fixtures/impact/published/materials.json);
 *  - the publisher's per-commodity CSVs (`raw/mcs2024-<code>_world.csv`): every production cell of a
 *    file the register uses must equal the tidy table's (value as printed, estimate flag), or the build
 *    stops naming the file and line.
 * Units are converted to tonnes of the material's content basis (kt × 1,000, kg ÷ 1,000) and the
 * conversion is stated in the row's provenance; estimated values are flagged; a withheld (W) or not
 * available (NA) cell stays unknown (NULL), never zero. Pure.
 */
import { ImportError, numberOf, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export const TIDY_COLUMNS = [
  'commodity_file',
  'source_file',
  'type',
  'country_raw',
  'iso3',
  'entity_kind',
  'measure',
  'year',
  'estimated',
  'unit_code',
  'value',
  'value_raw',
] as const;

/** Tonnes per unit of the USGS unit codes a register material can be in. */
export const TONNES: Record<string, number> = { t: 1, kt: 1000, kg: 0.001, mmt: 1e6, mt: 1e6 };

export interface UsgsMapping {
  material: string;
  /** USGS five-letter file code, e.g. 'cobal' */
  file: string;
  /** row types summed for a country's production (one, or several whose sum is the content basis) */
  types: string[];
  /** row types of the world total, where the file names them differently (platinum) */
  world_types?: string[];
}

export interface TidyRow {
  line: number;
  commodity_file: string;
  source_file: string;
  type: string;
  country_raw: string;
  iso3: string;
  entity_kind: string;
  measure: string;
  year: number | null;
  estimated: boolean;
  unit_code: string;
  value: number | null;
  value_raw: string;
}

/** Whitespace as the tidy table writes it (the raw files hold non-breaking spaces and doubled blanks). */
export const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export function readTidy(text: string, file: string): TidyRow[] {
  return readCsv(text, file, TIDY_COLUMNS).records.map(({ line, values: v }) => ({
    line,
    commodity_file: v.commodity_file!,
    source_file: v.source_file!,
    type: norm(v.type!),
    country_raw: norm(v.country_raw!),
    iso3: v.iso3!,
    entity_kind: v.entity_kind!,
    measure: v.measure!,
    year: v.year ? Number(v.year) : null,
    estimated: v.estimated === '1',
    unit_code: v.unit_code!,
    value: v.value === '' ? null : Number(v.value),
    value_raw: v.value_raw!,
  }));
}

export interface ProductionCell {
  material: string;
  year: number;
  /** null: the world total */
  iso3: string | null;
  /** tonnes; null when withheld or not available */
  qty: number | null;
  quality: 'reported' | 'estimated' | 'withheld' | 'not_available';
  unit_code: string;
  types: string[];
  line: number;
}

/** Production of the mapped materials from the tidy table, summed over each material's types. */
export function importProduction(
  rows: TidyRow[],
  mappings: UsgsMapping[],
  isoCodes: ReadonlySet<string>,
  file: string,
  /** lines another input reads (the sectors' other output): checked, not out of scope */
  checked: ReadonlySet<number> = new Set(),
): { cells: ProductionCell[]; reconciliation: Reconciliation } {
  const tally = new Tally(file).read(rows.length);
  const byKey = new Map<string, ProductionCell>();
  const mapped = (r: TidyRow) =>
    mappings.find(
      (m) =>
        m.file === r.commodity_file &&
        (r.entity_kind === 'world' ? (m.world_types ?? m.types) : m.types).includes(r.type),
    );
  for (const r of rows) {
    const m = r.measure === 'production' && r.year !== null ? mapped(r) : undefined;
    if (!m) {
      if (checked.has(r.line)) tally.checked();
      else tally.skip('out_of_scope');
      continue;
    }
    if (r.entity_kind === 'other') {
      tally.skip('residual');
      continue;
    }
    if (r.entity_kind === 'group') {
      tally.skip('aggregate');
      continue;
    }
    const world = r.entity_kind === 'world';
    if (!world && !isoCodes.has(r.iso3)) {
      tally.skip('unmapped_code');
      tally.note(`line ${r.line}: ${r.country_raw} (${r.commodity_file}) has no ISO 3166-1 code`);
      continue;
    }
    const per = TONNES[r.unit_code];
    if (per === undefined)
      throw new ImportError(file, `line ${r.line}: unit ${r.unit_code} cannot be turned into tonnes`);
    if (r.value_raw === 'XX') {
      tally.skip('not_applicable');
      continue;
    }
    let quality: ProductionCell['quality'] = r.estimated ? 'estimated' : 'reported';
    const qty: number | null = r.value === null ? null : r.value * per;
    if (qty === null) {
      quality = r.value_raw === 'W' ? 'withheld' : 'not_available';
      tally.unknown();
    } else tally.imported();
    const key = `${m.material}|${r.year}|${world ? '' : r.iso3}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, {
        material: m.material,
        year: r.year!,
        iso3: world ? null : r.iso3,
        qty,
        quality,
        unit_code: r.unit_code,
        types: [r.type],
        line: r.line,
      });
      continue;
    }
    // A second type of the same material (silicon: ferrosilicon and metal): the sum, unknown if either is.
    prev.types.push(r.type);
    if (prev.qty === null || qty === null) {
      prev.qty = null;
      prev.quality = prev.quality === 'withheld' || quality === 'withheld' ? 'withheld' : 'not_available';
    } else {
      prev.qty += qty;
      if (quality === 'estimated') prev.quality = 'estimated';
    }
    if (prev.unit_code !== r.unit_code) prev.unit_code = `${prev.unit_code}+${r.unit_code}`;
  }
  const cells = [...byKey.values()].sort((a, b) =>
    a.material !== b.material
      ? a.material < b.material
        ? -1
        : 1
      : a.year - b.year || (a.iso3 ?? '').localeCompare(b.iso3 ?? ''),
  );
  return { cells, reconciliation: tally.done() };
}

export interface RawCell {
  line: number;
  type: string;
  country_raw: string;
  year: number;
  unit_code: string;
  estimated: boolean;
  value_raw: string;
}

/** The production cells of one publisher CSV (columns `Prod_<unit>[_est]_<year>`). */
export function readRaw(text: string, file: string): { rows: number; cells: RawCell[] } {
  const table = readCsv(text, file, ['Country', 'Type']);
  const prodColumns = table.header
    .map((h) => ({ h, m: /^Prod_([a-z]+)(_est)?_(\d{4})$/.exec(h) }))
    .filter((x): x is { h: string; m: RegExpExecArray } => x.m !== null);
  if (prodColumns.length === 0) throw new ImportError(file, 'no production column (Prod_<unit>_<year>)');
  const cells: RawCell[] = [];
  for (const { line, values } of table.records) {
    for (const { h, m } of prodColumns) {
      const raw = values[h] ?? '';
      cells.push({
        line,
        type: norm(values.Type!),
        country_raw: norm(values.Country!),
        year: Number(m[3]),
        unit_code: m[1]!,
        estimated: m[2] !== undefined || /^e\s*[\d,]/.test(raw),
        value_raw: raw,
      });
    }
  }
  return { rows: table.records.length, cells };
}

/** Each raw production cell against the tidy table: equal, or the build stops. */
export function reconcileRaw(
  raw: { rows: number; cells: RawCell[] },
  rawFile: string,
  sourceFile: string,
  tidy: TidyRow[],
): Reconciliation {
  const tally = new Tally(rawFile).read(raw.rows);
  const index = new Map<string, TidyRow>();
  for (const r of tidy)
    if (r.measure === 'production' && r.source_file.toLowerCase() === sourceFile.toLowerCase())
      index.set(`${r.type}|${r.country_raw}|${r.year}`, r);
  for (const c of raw.cells) {
    const t = index.get(`${c.type}|${c.country_raw}|${c.year}`);
    const why = !t
      ? 'has no row in the tidy table'
      : t.value_raw !== c.value_raw
        ? `is "${c.value_raw}" but the tidy table says "${t.value_raw}"`
        : t.estimated !== c.estimated || t.unit_code !== c.unit_code
          ? 'differs from the tidy table in its unit or estimate flag'
          : null;
    if (why)
      throw new ImportError(
        rawFile,
        `line ${c.line}: ${c.country_raw}, ${c.type}, ${c.year}: the production cell ${why}`,
      );
    if (numberOf(c.value_raw) === null && c.value_raw !== '' && !['W', 'NA', 'XX'].includes(c.value_raw))
      tally.note(`line ${c.line}: ${c.country_raw} ${c.year} reads "${c.value_raw}"`);
  }
  tally.checked(raw.rows);
  return tally.done();
}

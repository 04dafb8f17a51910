/**
 * The published tables a bill-of-materials line can rest on, each read into the same evidence rows
 * so that one rule (bom-evidence.ts) turns any of them into a line:
 *  - `bom`: data/impact/bom-literature/bom_figures.csv, cited product figures (row N as `N` or `bom:N`);
 *  - `add`: data/impact/bom-additions/bom_additions.csv, more cited figures in the same columns;
 *  - `std`: data/impact/standard-compositions/compositions.csv, compositions by standard and
 *    designation, as mass fractions (kg per kg) or, for the steel rows, kg of input per kg;
 *  - `batpac`: data/impact/batpac-mineral-intensity/mineral-intensity.csv, kg of a mineral per kWh by
 *    cell chemistry (ANL BatPaC 5.2 via Busch et al.), addressed `batpac:<chemistry>/<mineral>`;
 *  - `tcf`: data/impact/fao-conversion-factors/tcf_key_commodities.csv, FAO's extraction rates (per cent
 *    of the parent commodity's mass) by country, addressed `tcf:<row of FAO's workbook>`; its file is
 *    reconciled by the production reader (faostat.ts), which is told the rows the lines use.
 * A row keeps its limits: a standard's range (min–max) and a nominal value both feed the line, so the
 * standard's range feeds the draws. The standards table has no confidence column: the line says how
 * far a designation can be trusted. Pure.
 */
import { ImportError, numberOf, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export type TableCode = 'bom' | 'add' | 'std' | 'batpac' | 'tcf';

export interface EvidenceRow {
  ref: string;
  table: TableCode;
  /** the data row of its file, 1-based */
  row: number;
  quantity: number | null;
  min: number | null;
  max: number | null;
  unit: string;
  material: string;
  source: string;
  page: string;
  url: string;
  /** as the table states it; null when the table has none (the line states it) */
  confidence: string | null;
  /** the table computed the value from a published one (a DERIVED unit) */
  derived: boolean;
}

export interface TableFile {
  text: string;
  file: string;
}

/** Where each table comes from: its provenance source code, release and file. */
export interface TableSource {
  source: string;
  release: string;
  file: string;
}

const FIGURE_COLUMNS = [
  'product',
  'material',
  'quantity',
  'unit',
  'min',
  'max',
  'source_title',
  'publisher_or_authors',
  'year',
  'url',
  'page_or_table',
  'confidence',
];

function figureRows(f: TableFile, table: 'bom' | 'add'): EvidenceRow[] {
  return readCsv(f.text, f.file, FIGURE_COLUMNS).records.map(({ values: v }, i) => ({
    ref: `${table}:${i + 1}`,
    table,
    row: i + 1,
    quantity: numberOf(v.quantity!),
    min: numberOf(v.min!),
    max: numberOf(v.max!),
    unit: v.unit!,
    material: v.material!,
    source: `${v.publisher_or_authors}${v.year ? ` ${v.year}` : ''}, ${v.source_title}`,
    page: v.page_or_table!,
    url: v.url!,
    confidence: v.confidence!,
    derived: /DERIVED/.test(v.unit!),
  }));
}

const firstUrl = (s: string) => s.match(/https?:\/\/[^\s;,)]+/)?.[0] ?? '';
const repoUrl = (s: string) => {
  const m = s.match(/repo\s+`?([\w.-]+\/[\w.-]+)`?/);
  return m ? `https://github.com/${m[1]}` : '';
};

function standardRows(f: TableFile): EvidenceRow[] {
  const cols = [
    'material',
    'designation',
    'standard_or_source',
    'element_or_input',
    'mass_fraction_min',
    'mass_fraction_max',
    'nominal',
    'source_repo_path_commit_or_citation',
    'note',
  ];
  return readCsv(f.text, f.file, cols).records.map(({ values: v }, i) => {
    const cite = v.source_repo_path_commit_or_citation!;
    const input = /INPUT RATIO/.test(v.note!);
    return {
      ref: `std:${i + 1}`,
      table: 'std' as const,
      row: i + 1,
      quantity: numberOf(v.nominal!),
      min: numberOf(v.mass_fraction_min!),
      max: numberOf(v.mass_fraction_max!),
      unit: input ? 'kg of input per kg of product' : 'mass fraction (kg per kg)',
      material: `${v.element_or_input} in ${v.designation}`,
      source: `${v.standard_or_source}: ${v.designation}`,
      page: cite.replace(/\s+/g, ' ').slice(0, 400),
      url: firstUrl(cite) || repoUrl(cite),
      confidence: null,
      derived: false,
    };
  });
}

const BATPAC_SOURCE =
  'Busch et al. 2026, replication inputs of "Life cycle performance and carbon handprint of lithium-ion batteries in electric vehicles" (mineral intensities from ANL BatPaC 5.2)';
const BATPAC_URL =
  'https://github.com/pmbusch/USA-EV-Lithium-GHG/blob/eb00f12d4cee17021a845d3868ef5505046fbf34/Inputs/Mineral_Intensity.xlsx';

function batpacRows(f: TableFile): EvidenceRow[] {
  return readCsv(f.text, f.file, ['chemistry', 'anode', 'mineral', 'kg_per_kwh']).records.map(({ values: v }, i) => ({
    ref: `batpac:${v.chemistry}/${v.mineral}`,
    table: 'batpac' as const,
    row: i + 1,
    quantity: numberOf(v.kg_per_kwh!),
    min: null,
    max: null,
    unit: 'kg per kWh',
    material: `${v.mineral}, ${v.chemistry} (${v.anode} anode)`,
    source: BATPAC_SOURCE,
    page: `Inputs/Mineral_Intensity.xlsx, sheet Li, chemistry ${v.chemistry}, mineral ${v.mineral}`,
    url: BATPAC_URL,
    confidence: null,
    derived: false,
  }));
}

const TCF_SOURCE =
  'FAO, Technical Conversion Factors for Agricultural Commodities (spreadsheet edition, last modified 2021-05-24)';
const TCF_URL =
  'https://www.fao.org/economic/the-statistics-division-ess/methodology/methodology-systems/technical-conversion-factors-for-agricultural-commodities/';

function tcfRows(f: TableFile): EvidenceRow[] {
  const cols = ['source_row', 'country_name', 'item_published', 'item_en', 'extraction_rate_pct'];
  return readCsv(f.text, f.file, cols).records.map(({ values: v }, i) => ({
    ref: `tcf:${v.source_row}`,
    table: 'tcf' as const,
    row: i + 1,
    quantity: numberOf(v.extraction_rate_pct!),
    min: null,
    max: null,
    unit: "per cent of the parent commodity's mass (extraction rate)",
    material: `${v.item_en}, ${v.country_name}`,
    source: TCF_SOURCE,
    page: `workbook sheet "Sheet 1", row ${v.source_row}: ${v.country_name}, ${v.item_published}, Extraction_rates_%`,
    url: TCF_URL,
    confidence: null,
    derived: false,
  }));
}

export interface EvidenceTables {
  rows: Map<string, EvidenceRow>;
  sources: Record<TableCode, TableSource>;
  /** the count of data rows of each table, for its reconciliation */
  sizes: Record<TableCode, number>;
}

export function readEvidenceTables(
  files: Record<TableCode, TableFile & { source: string; release: string }>,
): EvidenceTables {
  const all = [
    ...figureRows(files.bom, 'bom'),
    ...figureRows(files.add, 'add'),
    ...standardRows(files.std),
    ...batpacRows(files.batpac),
    ...tcfRows(files.tcf),
  ];
  const rows = new Map<string, EvidenceRow>();
  for (const r of all) {
    if (rows.has(r.ref)) throw new ImportError(files[r.table].file, `two rows answer to ${r.ref}`);
    rows.set(r.ref, r);
  }
  const codes = Object.keys(files) as TableCode[];
  return {
    rows,
    sources: Object.fromEntries(
      codes.map((c) => [c, { source: files[c].source, release: files[c].release, file: files[c].file }]),
    ) as Record<TableCode, TableSource>,
    sizes: Object.fromEntries(codes.map((c) => [c, all.filter((r) => r.table === c).length])) as Record<
      TableCode,
      number
    >,
  };
}

/** Each table's reconciliation: the rows that set or widen a line are imported, those only cited beside
 *  a line are checks, the rest are out of scope (another product, element or chemistry). FAO's factors
 *  are left to the production reader, which reads the same file (one reconciliation per file). */
export function evidenceReconciliation(
  t: EvidenceTables,
  used: ReadonlyMap<string, 'sets' | 'range' | 'checks'>,
): Reconciliation[] {
  return (Object.keys(t.sources) as TableCode[])
    .filter((c) => c !== 'tcf')
    .map((c) => {
      const tally = new Tally(t.sources[c].file).read(t.sizes[c]);
      const mine = [...used].filter(([ref]) => t.rows.get(ref)?.table === c);
      const checks = mine.filter(([, use]) => use === 'checks').length;
      tally.imported(mine.length - checks);
      tally.checked(checks);
      if (t.sizes[c] > mine.length) tally.skip('out_of_scope', t.sizes[c] - mine.length);
      return tally.done();
    });
}

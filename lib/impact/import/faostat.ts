/**
 * Agricultural production from FAOSTAT (data/impact/faostat-production/): crop production (domain QC)
 * by country in tonnes, the latest year the file holds, for each register material that names its
 * FAO item. Countries are joined on FAO's area code through the crosswalk shipped beside the file
 * (fao_area_iso3.csv), never on names. A material whose register form is a processed product (cotton
 * lint, palm oil) takes the crop's tonnes times the extraction rate FAO's Technical Conversion Factors
 * give for the producing country (data/impact/fao-conversion-factors/), or the rate most countries
 * share where the country has none: derived, with the rate in its formula. The world total is the sum
 * of the countries (the file holds no world row): derived. Pure.
 */
import type { Basis } from '../basis.ts';
import type { M49Entry } from '../countries.ts';
import type { Row } from '../register/shapes.ts';
import { ImportError, numberOf, readCsv } from './csv.ts';
import type { PricePick } from './prices.ts';
import type { ProvenanceTable } from './provenance.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

/** Which FAO item a material is, and the extraction step to its register form, if any. */
export interface FaostatMapping {
  material: string;
  item_code: number;
  item: string;
  /** the TCF factor from the crop to the register's form (per cent of the crop's mass) */
  extraction?: { group: string; item_en: string };
}

export interface FaostatCell {
  material: string;
  year: number;
  /** null: the world total */
  iso3: string | null;
  qty: number;
  basis: Basis;
  method: string;
}

interface Text {
  text: string;
  file: string;
}

/** A factor table: per ISO3 the rate (per cent), and the rate most countries share. */
export interface ExtractionRates {
  byCountry: Map<string, number>;
  common: number;
  label: string;
}

/** The lines of a file that are not comments (`# …`), and how many comment lines came first. */
function uncommented(text: string): { text: string; skipped: number } {
  const lines = text.split('\n');
  let skipped = 0;
  while (skipped < lines.length && lines[skipped]!.startsWith('#')) skipped++;
  return { text: lines.slice(skipped).join('\n'), skipped };
}

/** FAO's M49 quirks in the TCF workbook (data/impact/fao-conversion-factors/SOURCE.md): China mainland is 1248, Grenada shares Denmark's 208. */
const TCF_AREA_EXCEPTIONS: Record<string, string> = { '1248|China, Main': 'CHN', '208|Grenada': 'GRD' };

/** The rates of the items production needs, read by country; `lines` are the workbook rows
 *  (`source_row`) bills of materials cite (bom-tables.ts): imported too, not out of scope. */
export function readExtractionRates(
  tcf: Text,
  m49: readonly M49Entry[],
  wanted: ReadonlyArray<{ group: string; item_en: string }>,
  lines: ReadonlySet<string> = new Set(),
): { rates: Map<string, ExtractionRates>; reconciliation: Reconciliation } {
  const table = readCsv(tcf.text, tcf.file, [
    'source_row',
    'm49_code',
    'country_name',
    'commodity_group',
    'item_en',
    'extraction_rate_pct',
  ]);
  const iso = new Map(m49.filter((e) => e.iso3166).map((e) => [Number(e.code), e.iso3166!]));
  const tally = new Tally(tcf.file).read(table.records.length);
  const rates = new Map<string, ExtractionRates>();
  for (const w of wanted) {
    const key = `${w.group}|${w.item_en}`;
    if (!rates.has(key)) rates.set(key, { byCountry: new Map(), common: NaN, label: w.item_en });
  }
  for (const { line, values: v } of table.records) {
    const r = rates.get(`${v.commodity_group}|${v.item_en}`);
    const pct = numberOf(v.extraction_rate_pct!);
    if (!r) {
      if (lines.has(v.source_row!)) tally.imported();
      else tally.skip('out_of_scope');
      continue;
    }
    if (pct === null) {
      tally.skip('no_value');
      continue;
    }
    const iso3 = TCF_AREA_EXCEPTIONS[`${v.m49_code}|${v.country_name}`] ?? iso.get(Number(v.m49_code));
    if (!iso3) {
      tally.skip('unmapped_code');
      tally.note(`line ${line}: ${v.country_name} (M49 ${v.m49_code}) has no ISO 3166-1 code`);
      continue;
    }
    if (r.byCountry.has(iso3)) throw new ImportError(tcf.file, `line ${line}: a second ${r.label} rate for ${iso3}`);
    r.byCountry.set(iso3, pct);
    tally.imported();
  }
  for (const [key, r] of rates) {
    if (r.byCountry.size === 0) throw new ImportError(tcf.file, `no extraction rate for ${key}`);
    r.common = mostCommon([...r.byCountry.values()]);
  }
  return { rates, reconciliation: tally.done() };
}

/** The value most countries share (the smaller one on a tie, so the choice never depends on order). */
export function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

export function importFaostat(
  production: Text,
  crosswalk: Text,
  mappings: readonly FaostatMapping[],
  rates: ReadonlyMap<string, ExtractionRates>,
  isoCodes: ReadonlySet<string>,
): { year: number; cells: FaostatCell[]; reconciliation: Reconciliation[] } {
  const areas = readCsv(crosswalk.text, crosswalk.file, ['fao_area_code', 'iso3']);
  const isoOf = new Map(areas.records.map((r) => [Number(r.values.fao_area_code), r.values.iso3!]));
  const xTally = new Tally(crosswalk.file).read(areas.records.length);
  const used = new Set<number>();

  const body = uncommented(production.text);
  const table = readCsv(body.text, production.file, ['country codes', 'item codes', 'element']);
  const years = table.header.filter((h) => /^\d{4}$/.test(h)).map(Number);
  if (years.length === 0) throw new ImportError(production.file, 'no year columns');
  const year = Math.max(...years);
  const tally = new Tally(production.file).read(table.records.length);
  const cells: FaostatCell[] = [];
  for (const { line, values: v } of table.records) {
    const m = mappings.find((x) => x.item_code === Number(v['item codes']));
    if (!m || v.element !== 'Production') {
      tally.skip('out_of_scope');
      continue;
    }
    const tonnes = numberOf(v[String(year)] ?? '');
    if (tonnes === null) {
      tally.skip('no_value');
      continue;
    }
    const code = Number(v['country codes']);
    const iso3 = isoOf.get(code);
    if (!iso3 || !isoCodes.has(iso3)) {
      tally.skip('unmapped_code');
      tally.note(`line ${line + body.skipped}: ${v.countries} (FAO area ${code}) has no ISO 3166-1 code`);
      continue;
    }
    if (cells.some((c) => c.material === m.material && c.iso3 === iso3))
      throw new ImportError(production.file, `line ${line + body.skipped}: a second ${m.item} row for ${iso3}`);
    used.add(code);
    tally.imported();
    const item = `${m.item} (FAOSTAT QC item ${m.item_code}, ${year})`;
    if (!m.extraction) {
      cells.push({ material: m.material, year, iso3, qty: tonnes, basis: 'published', method: '' });
      continue;
    }
    const r = rates.get(`${m.extraction.group}|${m.extraction.item_en}`)!;
    const own = r.byCountry.get(iso3);
    const pct = own ?? r.common;
    cells.push({
      material: m.material,
      year,
      iso3,
      qty: (tonnes * pct) / 100,
      basis: 'derived',
      method: `${item} × ${pct} % (${r.label} extraction rate, FAO Technical Conversion Factors: ${own === undefined ? 'the rate most countries share, the country having none' : "the producing country's"})`,
    });
  }
  for (const m of mappings) {
    const own = cells.filter((c) => c.material === m.material);
    if (own.length === 0) throw new ImportError(production.file, `no ${year} production of ${m.item} (${m.material})`);
    cells.push({
      material: m.material,
      year,
      iso3: null,
      qty: own.reduce((a, c) => a + c.qty, 0),
      basis: 'derived',
      method: `Sum of the ${own.length} countries' ${m.extraction ? m.extraction.item_en.toLowerCase() : m.item.toLowerCase()} (the file holds no world row)`,
    });
  }
  for (const r of areas.records) {
    if (used.has(Number(r.values.fao_area_code))) xTally.imported();
    else xTally.skip(r.values.iso3 ? 'out_of_scope' : 'no_value');
  }
  return { year, cells, reconciliation: [tally.done(), xTally.done()] };
}

/**
 * FAOSTAT production of the agricultural materials (lib/impact/import/faostat.ts) and, for a crop
 * priced through a processed product (sugar cane as raw sugar), its extraction rate weighted by the
 * countries' production.
 */
export function agriculturalProduction(
  materials: ReadonlyArray<{ slug: string; faostat?: Omit<FaostatMapping, 'material'>; price: PricePick }>,
  f: Record<string, Text>,
  m49: readonly M49Entry[],
  rec: Reconciliation[],
  isoCodes: ReadonlySet<string>,
  bomLines: ReadonlySet<string>,
) {
  const mappings = materials.flatMap((m) => (m.faostat ? [{ material: m.slug, ...m.faostat }] : []));
  const crops = materials.flatMap((m) => (m.price.table === 'pink-crop' ? [{ m, x: m.price.extraction }] : []));
  const tcf = readExtractionRates(
    f.fao_tcf!,
    m49,
    [...mappings.flatMap((m) => (m.extraction ? [m.extraction] : [])), ...crops.map((c) => c.x)],
    bomLines,
  );
  rec.push(tcf.reconciliation);
  const fao = importFaostat(f.faostat_production!, f.faostat_areas!, mappings, tcf.rates, isoCodes);
  rec.push(...fao.reconciliation);
  return {
    cells: fao.cells,
    crops: (release: string | null) =>
      new Map(
        crops.map(({ m, x }) => {
          const r = tcf.rates.get(`${x.group}|${x.item_en}`)!;
          const own = fao.cells.filter((c) => c.material === m.slug && c.iso3 !== null);
          const tonnes = own.reduce((a, c) => a + c.qty, 0);
          const pct = own.reduce((a, c) => a + c.qty * (r.byCountry.get(c.iso3!) ?? r.common), 0) / tonnes;
          const how = `the ${x.item_en.toLowerCase()} extraction rates of FAO's Technical Conversion Factors weighted by the ${own.length} countries' FAOSTAT production of ${fao.year}, the rate most countries share (${r.common} %) where a country has none`;
          return [m.slug, { pct, how, source: 'fao-tcf', release }] as const;
        }),
      ),
  };
}

export function faostatRow(
  cell: FaostatCell,
  prov: ProvenanceTable,
  release: (code: string, i?: number) => string | null,
  file: string,
): Row {
  const converted = cell.iso3 !== null && cell.basis === 'derived';
  return {
    material: cell.material,
    year: cell.year,
    source: 'faostat',
    quality: converted ? 'modelled' : 'estimated',
    provenance: prov.id({
      source: converted ? 'fao-tcf' : 'faostat',
      release: release(converted ? 'fao-tcf' : 'faostat'),
      basis: cell.basis,
      method: cell.method || null,
      file,
    }),
  };
}

/**
 * The other output of a sector in a country (methodology v3 §6, §13): what the sector produces besides
 * the register's materials, in EUR. A country's harm in a sector is shared between its materials and
 * this remainder by value, so the remainder decides how much of, say, Colombia's agricultural harm a
 * kilogram of coffee carries. Derived from published files only:
 *
 * - Agriculture: for every country growing a register crop, FAOSTAT's tonnes (the year the file ends)
 *   of the other crops the World Bank's Pink Sheet prices, at that year's prices, in EUR at the ECB
 *   rate of the year. Sugar beet is left out: the Pink Sheet prices its sugar, and turning beet into
 *   sugar needs FAO's conversion factors, whose unstated terms every agricultural figure would then
 *   carry through its denominator (methodology v3 §11). Crops the Pink Sheet does not price (roots, plantains, vegetables, most fruit) and
 *   livestock, forestry and fishing are not counted: the value is a floor, so the register crops'
 *   share of a country's agricultural harm is a ceiling, as it was where no other output was recorded.
 * - Mining: the country-sectors the spec names, USGS's mine production of the other commodities it
 *   lists there (MCS 2024 world tables) times USGS's unit value of the same year (salient statistics).
 *
 * Pure: the caller reads the files.
 */
import type { Row } from '../register/shapes.ts';
import { ImportError, numberOf, readCsv } from './csv.ts';
import { importFaostat, type FaostatCell } from './faostat.ts';
import type { ProvenanceTable } from './provenance.ts';
import { Tally, type Reconciliation } from './reconcile.ts';
import { TONNES, type TidyRow } from './usgs.ts';

type Text = { text: string; file: string };

export interface OtherCrop {
  item_code: number;
  item: string;
  /** the Pink Sheet series (wb_code) that prices it, in the crop's own form */
  series: string;
}

export interface OtherMining {
  sector: string;
  iso3: string;
  year: number;
  commodities: Array<{
    /** the USGS file code (`niobi`) and the row type of its world table */
    file: string;
    type: string;
    label: string;
    /** the salient-statistics column of USGS's unit value, and what it is per */
    price: { column: string; per: 'kg' | 't' };
  }>;
}

export interface OtherOutputSpec {
  about: string;
  agriculture: { sector: string; crops: OtherCrop[] };
  mining: OtherMining[];
}

export interface OtherOutputRow {
  sector: string;
  iso3: string;
  value_eur: number;
  note: string;
  source: string;
}

/** Agricultural other output of each country in `countries` (those growing a register crop). */
export function agriculturalOtherOutput(
  spec: OtherOutputSpec['agriculture'],
  cells: readonly FaostatCell[],
  prices: Text,
  usdPerEur: (year: number) => number,
  countries: ReadonlySet<string>,
): { rows: OtherOutputRow[]; reconciliation: Reconciliation } {
  const table = readCsv(prices.text, prices.file, ['wb_code', 'year', 'usd_per_kg']);
  const tally = new Tally(prices.file).read(table.records.length);
  const year = cells[0]?.year;
  if (year === undefined) throw new ImportError(prices.file, 'no FAOSTAT production of the other crops');
  const price = new Map<string, number>();
  for (const { values: v } of table.records) {
    if (Number(v.year) !== year || !spec.crops.some((c) => c.series === v.wb_code)) {
      tally.skip('out_of_scope');
      continue;
    }
    price.set(v.wb_code!, numberOf(v.usd_per_kg!) ?? NaN);
    tally.imported();
  }
  const rate = usdPerEur(year);
  const rows: OtherOutputRow[] = [];
  for (const iso3 of [...countries].sort()) {
    let usd = 0;
    const parts: string[] = [];
    for (const crop of spec.crops) {
      const cell = cells.find((c) => c.material === otherCropKey(crop) && c.iso3 === iso3);
      if (!cell || cell.qty === 0) continue;
      const p = price.get(crop.series);
      if (p === undefined || Number.isNaN(p))
        throw new ImportError(prices.file, `no ${year} price of ${crop.series} (${crop.item})`);
      usd += cell.qty * 1000 * p;
      parts.push(`${crop.item} ${Math.round(cell.qty).toLocaleString('en')} t × ${p} USD/kg (${crop.series})`);
    }
    if (usd === 0) continue;
    rows.push({
      sector: spec.sector,
      iso3,
      value_eur: usd / rate,
      source: 'faostat',
      note: `Crops besides the register's that the Pink Sheet prices, FAOSTAT ${year}: ${parts.join('; ')}; EUR = USD ÷ ${rate} (ECB ${year}). Unpriced crops, livestock, forestry and fishing not counted (a floor).`,
    });
  }
  return { rows, reconciliation: tally.done() };
}

/** The pseudo-material key the other crops' FAOSTAT cells are imported under. */
export const otherCropKey = (crop: Pick<OtherCrop, 'item_code'>) => `other-crop:${crop.item_code}`;

/** The tidy-table lines the mining spec reads (reconciled as checked, not out of scope). */
export function miningLines(
  spec: readonly OtherMining[],
  tidy: readonly TidyRow[],
  file: string,
): Map<string, TidyRow> {
  const out = new Map<string, TidyRow>();
  for (const s of spec)
    for (const c of s.commodities) {
      const row = tidy.find(
        (r) =>
          r.commodity_file === c.file &&
          r.type === c.type &&
          r.iso3 === s.iso3 &&
          r.year === s.year &&
          r.measure === 'production',
      );
      if (!row || row.value === null)
        throw new ImportError(
          file,
          `no ${s.year} ${c.type} for ${s.iso3} (${c.file}): the other output of ${s.sector} needs it`,
        );
      out.set(`${s.sector}|${s.iso3}|${c.file}`, row);
    }
  return out;
}

/** Mining other output of the country-sectors the spec names. `salient` by USGS file code. */
export function miningOtherOutput(
  spec: readonly OtherMining[],
  rows: ReadonlyMap<string, TidyRow>,
  salient: Readonly<Record<string, Text>>,
  usdPerEur: (year: number) => number,
): { rows: OtherOutputRow[]; reconciliation: Reconciliation[] } {
  const tallies = new Map<string, { tally: Tally; rows: number; used: number }>();
  const out: OtherOutputRow[] = [];
  for (const s of spec) {
    let usd = 0;
    const parts: string[] = [];
    for (const c of s.commodities) {
      const text = salient[c.file];
      if (!text) throw new ImportError(c.file, 'the salient statistics of this USGS file code were not read');
      const table = readCsv(text.text, text.file, ['Year', c.price.column]);
      const rowsRead = table.records.length;
      const t = tallies.get(c.file) ?? { tally: new Tally(text.file).read(rowsRead), rows: rowsRead, used: 0 };
      tallies.set(c.file, t);
      const priceRow = table.records.find((r) => Number(r.values.Year) === s.year);
      const unit = priceRow ? numberOf(priceRow.values[c.price.column]!) : null;
      if (unit === null) throw new ImportError(text.file, `no ${s.year} ${c.price.column}`);
      t.used++;
      const row = rows.get(`${s.sector}|${s.iso3}|${c.file}`)!;
      const tonnes = row.value! * (TONNES[row.unit_code] ?? NaN);
      usd += c.price.per === 'kg' ? tonnes * 1000 * unit : tonnes * unit;
      parts.push(
        `${c.label} ${tonnes.toLocaleString('en')} t (USGS MCS 2024, ${s.year}${row.estimated ? ', estimated' : ''}) × ${unit} USD/${c.price.per} (${c.price.column})`,
      );
    }
    const rate = usdPerEur(s.year);
    out.push({
      sector: s.sector,
      iso3: s.iso3,
      value_eur: usd / rate,
      source: 'usgs-mcs',
      note: `Mine output besides the register's that USGS lists: ${parts.join('; ')}; EUR = USD ÷ ${rate} (ECB ${s.year}). Artisanal output USGS does not count is not in it (a floor).`,
    });
  }
  // one row (the year's) of each salient file is used; the other years are not inputs
  const reconciliation = [...tallies.values()].map(({ tally, rows: read, used }) => {
    tally.imported(used);
    tally.skip('out_of_scope', read - used);
    return tally.done();
  });
  return { rows: out, reconciliation };
}

/** The register's rows of other output, each with its formula's provenance (published.ts). */
export function otherOutputRows(
  spec: OtherOutputSpec,
  files: { faostat: Text; areas: Text; pink: Text; ecb: Text; tidy: Text; salient: Readonly<Record<string, Text>> },
  out: {
    prov: ProvenanceTable;
    rec: Reconciliation[];
    isoCodes: ReadonlySet<string>;
    release: (code: string) => string | null;
  },
  from: { growers: ReadonlySet<string>; mining: Map<string, TidyRow> },
): Row[] {
  // the same complete-year rule as the prices (prices.ts): a year without one stops the build, never a NaN
  const ecb = new Map(
    readCsv(files.ecb.text, files.ecb.file, ['year', 'usd_per_eur_mean', 'complete_year']).records.flatMap((r) =>
      r.values.complete_year === '1' ? [[Number(r.values.year), Number(r.values.usd_per_eur_mean)] as const] : [],
    ),
  );
  const usdPerEur = (year: number) => {
    const rate = ecb.get(year);
    if (rate === undefined) throw new ImportError(files.ecb.file, `no complete-year rate for ${year} (other output)`);
    return rate;
  };
  const crops = importFaostat(
    files.faostat,
    files.areas,
    spec.agriculture.crops.map((c) => ({ material: otherCropKey(c), ...c })),
    new Map(), // every crop is priced in its own form: no conversion factor
    out.isoCodes,
  );
  out.rec.push(crops.reconciliation[0]!); // the crosswalk is reconciled once, with the register's crops
  const agr = agriculturalOtherOutput(spec.agriculture, crops.cells, files.pink, usdPerEur, from.growers);
  out.rec.push(agr.reconciliation);
  const min = miningOtherOutput(spec.mining, from.mining, files.salient, usdPerEur);
  out.rec.push(...min.reconciliation);
  const agrProv = out.prov.id({
    source: 'faostat',
    release: out.release('faostat'),
    basis: 'derived',
    method: `Σ over the other crops the World Bank's Pink Sheet prices (${spec.agriculture.crops.map((c) => c.item).join(', ')}) of FAOSTAT tonnes × the Pink Sheet's USD/kg of the same year ÷ the ECB's USD per EUR: a floor (unpriced crops, livestock, forestry and fishing not counted)`,
    file: files.faostat.file,
  });
  const minProv = out.prov.id({
    source: 'usgs-mcs',
    release: out.release('usgs-mcs'),
    basis: 'derived',
    method:
      'Σ over the other commodities USGS lists for the country-sector of its mine production × USGS unit value of the same year ÷ the ECB USD per EUR: a floor (artisanal output USGS does not count is not in it)',
    file: files.tidy.file,
  });
  return [
    ...agr.rows.map((o) => ({ ...o, provenance: agrProv })),
    ...min.rows.map((o) => ({ ...o, provenance: minProv })),
  ];
}

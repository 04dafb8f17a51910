/**
 * Material prices (the value shares that split a country-sector's harm between materials), from the
 * price tables: USGS MCS salient statistics (data/impact/usgs-mcs-2024-salient/), the World Bank Pink
 * Sheet (data/impact/worldbank-pink-sheet-2025-12/), converted to EUR with the ECB reference rate of
 * the price's year (data/impact/ecb-eur-usd-annual/). Each material names its series and year in
 * fixtures/impact/published/materials.json; the EUR price is computed here, and where the data
 * collector's per-material pick (data/impact/material-prices-register-2023/) recommends the same
 * series, its EUR value must agree to its four decimals, or the build stops. A material no table
 * prices keeps its demo price, labelled illustrative; one priced from several series says how. Pure.
 */
import type { Basis } from '../basis.ts';
import { ImportError, numberOf, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export type PricePick =
  | { table: 'usgs'; column: string; year: number }
  | { table: 'pink'; code: string; year: number }
  | {
      table: 'mean';
      of: Array<{ table: 'pink'; code: string; year: number }>;
      rationale: string;
      /** weights of the series, read from a cited figure (then the mean is derived, not assumed) */
      weights?: { values: number[]; source: string; release: string; cited: string };
    }
  /** a crop priced by the processed product the series prices, times the crop's extraction rate to it */
  | {
      table: 'pink-crop';
      code: string;
      year: number;
      extraction: { group: string; item_en: string };
      rationale: string;
    }
  /** a value of mine output over its tonnage (USGS: REO in U.S. concentrates), for a material no price series covers */
  | { table: 'usgs-value'; year: number; rationale: string }
  | { table: 'illustrative'; eur_per_kg: number; note: string };

export interface PriceFact {
  material: string;
  eur_per_kg: number;
  basis: Basis;
  /** the source code of the table the price comes from */
  source: string;
  release: string | null;
  method: string;
  file: string | null;
  /** the source (and release) of a conversion factor the price also rests on */
  factor?: { source: string; release: string | null };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

interface SeriesRow {
  line: number;
  material: string;
  key: string;
  year: number;
  usd_per_kg: number;
  conversion: string;
  estimated: boolean;
  derived: boolean;
}

export interface PriceFiles {
  usgs: { text: string; file: string; release: string };
  pink: { text: string; file: string; release: string };
  ecb: { text: string; file: string; release: string };
  register: { text: string; file: string };
  /** values of mine output (data/impact/usgs-mcs-2025-rare-earths/): year, tonnes, USD */
  value?: { text: string; file: string; release: string };
  /** per material priced through a conversion factor: the rate (per cent), how it was weighed, its source */
  crops?: ReadonlyMap<string, { pct: number; how: string; source: string; release: string | null }>;
}

function series(text: string, file: string, key: string, extra: string[]): SeriesRow[] {
  return readCsv(text, file, ['material', key, 'year', 'usd_per_kg', 'conversion', ...extra]).records.map(
    ({ line, values: v }) => ({
      line,
      // The collectors parenthesised series of metals that were not register materials then
      // ("(silver)", "(palladium)"); a material added since (issue 33) takes the same series.
      material: v.material!.replace(/^\((.+)\)$/, '$1'),
      key: v[key]!,
      year: Number(v.year),
      usd_per_kg: numberOf(v.usd_per_kg!) ?? NaN,
      conversion: v.conversion!,
      estimated: v.estimated === '1',
      derived: v.derived === '1',
    }),
  );
}

export function importPrices(
  files: PriceFiles,
  picks: ReadonlyArray<{ material: string; price: PricePick }>,
): { prices: PriceFact[]; reconciliation: Reconciliation[] } {
  const usgs = series(files.usgs.text, files.usgs.file, 'column_in_csv', ['estimated', 'derived']);
  const pink = series(files.pink.text, files.pink.file, 'wb_code', []);
  const ecb = new Map(
    readCsv(files.ecb.text, files.ecb.file, ['year', 'usd_per_eur_mean', 'complete_year']).records.map((r) => [
      Number(r.values.year),
      { rate: Number(r.values.usd_per_eur_mean), complete: r.values.complete_year === '1' },
    ]),
  );
  const used = { usgs: new Set<number>(), pink: new Set<number>(), ecb: new Set<number>() };
  const values = files.value
    ? readCsv(files.value.text, files.value.file, ['year', 'reo_t', 'value_usd', 'estimated', 'edition', 'page'])
        .records
    : [];
  const valueUsed = new Set<number>();
  const rateOf = (year: number, material: string) => {
    const r = ecb.get(year);
    if (!r || !r.complete)
      throw new ImportError(files.ecb.file, `no complete-year rate for ${year} (asked for ${material})`);
    used.ecb.add(year);
    return r.rate;
  };
  const find = (
    rows: SeriesRow[],
    file: string,
    material: string,
    key: string,
    year: number,
    table: 'usgs' | 'pink',
  ) => {
    const row = rows.find((r) => r.material === material && r.key === key && r.year === year);
    if (!row || !Number.isFinite(row.usd_per_kg))
      throw new ImportError(file, `no ${key} price of ${material} for ${year}`);
    used[table].add(row.line);
    return row;
  };

  const prices = picks.map(({ material, price }): PriceFact => {
    if (price.table === 'illustrative')
      return {
        material,
        eur_per_kg: price.eur_per_kg,
        basis: 'illustrative',
        source: 'trio-demo',
        release: null,
        method: price.note,
        file: null,
      };
    if (price.table === 'usgs-value') {
      const file = files.value?.file ?? 'usgs_ree_value';
      const row = values.find((r) => Number(r.values.year) === price.year);
      const [t, usd] = [numberOf(row?.values.reo_t ?? ''), numberOf(row?.values.value_usd ?? '')];
      if (!row || !t || !usd) throw new ImportError(file, `no ${price.year} value of ${material} output`);
      valueUsed.add(row.line);
      const rate = rateOf(price.year, material);
      const v = row.values;
      return {
        material,
        eur_per_kg: usd / (t * 1000) / rate,
        basis: 'derived',
        source: 'usgs-mcs',
        release: files.value!.release,
        method: `USGS ${v.edition}, p. ${v.page}: ${t} t valued at ${usd} USD in ${price.year}${v.estimated === '1' ? ' (USGS estimates)' : ''} = ${round(usd / (t * 1000))} USD/kg; EUR = USD ÷ ${rate} (ECB mean reference rate of ${price.year}): ${price.rationale}`,
        file,
      };
    }
    if (price.table === 'mean') {
      const parts = price.of.map((p) => find(pink, files.pink.file, material, p.code, p.year, 'pink'));
      const w = price.weights?.values ?? parts.map(() => 1);
      if (w.length !== parts.length) throw new ImportError(files.pink.file, `${material}: one weight per series`);
      const total = w.reduce((a, b) => a + b, 0);
      const eur = parts.reduce((a, r, i) => a + (w[i]! * r.usd_per_kg) / rateOf(r.year, material), 0) / total;
      const weighted = price.weights
        ? `Mean of ${parts.map((r, i) => `${r.key} ${r.year} (weight ${w[i]})`).join(' and ')}, weighted by ${price.weights.cited}`
        : `Mean of ${parts.map((r) => `${r.key} ${r.year}`).join(' and ')}`;
      return {
        material,
        eur_per_kg: eur,
        basis: price.weights ? 'derived' : 'assumption',
        source: 'wb-pink-sheet',
        release: files.pink.release,
        method: `${weighted}, each USD ÷ the ECB mean rate of its year: ${price.rationale}`,
        file: files.pink.file,
        ...(price.weights ? { factor: { source: price.weights.source, release: price.weights.release } } : {}),
      };
    }
    if (price.table === 'pink-crop') {
      const row = find(pink, files.pink.file, material, price.code, price.year, 'pink');
      const rate = rateOf(row.year, material);
      const crop = files.crops?.get(material);
      if (!crop) throw new ImportError(files.pink.file, `no conversion factor for ${material}`);
      return {
        material,
        eur_per_kg: (row.usd_per_kg * crop.pct) / 100 / rate,
        basis: 'derived',
        source: 'wb-pink-sheet',
        release: files.pink.release,
        method: `${price.code}, ${row.year}: ${row.conversion}, × ${round(crop.pct)} % (${crop.how}); EUR = USD ÷ ${rate} (ECB mean reference rate of ${row.year}): ${price.rationale}`,
        file: files.pink.file,
        factor: { source: crop.source, release: crop.release },
      };
    }
    const [rows, file, key, source, release] =
      price.table === 'usgs'
        ? [usgs, files.usgs.file, price.column, 'usgs-mcs', files.usgs.release]
        : [pink, files.pink.file, price.code, 'wb-pink-sheet', files.pink.release];
    const row = find(rows, file, material, key, price.year, price.table);
    const rate = rateOf(row.year, material);
    return {
      material,
      eur_per_kg: row.usd_per_kg / rate,
      basis: 'derived',
      source,
      release,
      method: `${key}, ${row.year}${row.estimated ? ' (a USGS estimate)' : ''}${row.derived ? ' (itself derived from USGS growth rates by the data collector)' : ''}: ${row.conversion}; EUR = USD ÷ ${rate} (ECB mean reference rate of ${row.year})`,
      file,
    };
  });

  const valueTally = files.value ? [new Tally(files.value.file).read(values.length)] : [];
  for (const t of valueTally) {
    t.imported(valueUsed.size);
    if (values.length > valueUsed.size) t.skip('out_of_scope', values.length - valueUsed.size);
  }
  return {
    prices,
    reconciliation: [
      ...tallies(files, usgs, pink, ecb, used),
      ...valueTally.map((t) => t.done()),
      checkRegister(files.register, prices, picks),
    ],
  };
}

function tallies(
  files: PriceFiles,
  usgs: SeriesRow[],
  pink: SeriesRow[],
  ecb: Map<number, unknown>,
  used: { usgs: Set<number>; pink: Set<number>; ecb: Set<number> },
): Reconciliation[] {
  return [
    [files.usgs.file, usgs.length, used.usgs.size],
    [files.pink.file, pink.length, used.pink.size],
    [files.ecb.file, ecb.size, used.ecb.size],
  ].map(([file, rows, n]) => {
    const t = new Tally(file as string).read(rows as number);
    t.imported(n as number);
    t.skip('out_of_scope', (rows as number) - (n as number));
    return t.done();
  });
}

/** The collector's recommended EUR price of each material, where it picks the same series, must agree. */
function checkRegister(
  register: { text: string; file: string },
  prices: PriceFact[],
  picks: ReadonlyArray<{ material: string; price: PricePick }>,
): Reconciliation {
  const table = readCsv(register.text, register.file, [
    'material',
    'recommended',
    'year',
    'source_series',
    'eur_per_kg',
  ]);
  const tally = new Tally(register.file).read(table.records.length);
  for (const { line, values: v } of table.records) {
    const pick = picks.find((p) => p.material === v.material)?.price;
    const key = pick?.table === 'usgs' ? pick.column : pick?.table === 'pink' ? `[${pick.code}]` : null;
    const same =
      v.recommended === '1' &&
      key !== null &&
      pick !== undefined &&
      'year' in pick &&
      Number(v.year) === pick.year &&
      v.source_series!.includes(key);
    if (!same) {
      tally.skip('out_of_scope');
      continue;
    }
    const ours = prices.find((p) => p.material === v.material)!.eur_per_kg;
    const theirs = Number(v.eur_per_kg);
    if (Math.abs(ours - theirs) > 5e-5 + 1e-9 * theirs)
      throw new ImportError(
        register.file,
        `line ${line}: ${v.material} ${theirs} EUR/kg, computed from the tables ${ours}`,
      );
    tally.checked();
  }
  return tally.done();
}

/**
 * The cited weights of a mean price (coffee: the ICO's production by type) must be the file's: a pick's
 * weights name their file rows by `type` in the order of its series.
 */
export function checkWeights(
  file: { text: string; file: string },
  picks: ReadonlyArray<{ material: string; price: PricePick }>,
): Reconciliation {
  const table = readCsv(file.text, file.file, ['type', 'production_million_bags_60kg']);
  const tally = new Tally(file.file).read(table.records.length);
  const used = new Set<number>();
  for (const { material, price } of picks) {
    if (price.table !== 'mean' || !price.weights) continue;
    price.weights.values.forEach((w, i) => {
      const code = price.of[i]!.code;
      const row = table.records.find(
        (r) =>
          code.toLowerCase().includes(r.values.type!.toLowerCase().slice(0, 5)) &&
          numberOf(r.values.production_million_bags_60kg!) === w,
      );
      if (!row) throw new ImportError(file.file, `${material}: no row gives the weight ${w} of ${code}`);
      used.add(row.line);
    });
  }
  tally.imported(used.size);
  if (table.records.length > used.size) tally.skip('out_of_scope', table.records.length - used.size);
  return tally.done();
}

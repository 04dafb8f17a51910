/**
 * UCDP deaths in all organised violence (state-based, non-state, one-sided) by the country where they
 * occurred, as Our World in Data publishes them (data/impact/ucdp-owid-conflict-deaths-by-country/).
 * OWID's own file has no code column; the copy beside it adds the code OWID uses for each entity.
 * Both are read: every row of the coded copy must equal a row of OWID's file (entity, year, deaths),
 * or the build stops. Countries are taken by their ISO 3166-1 code; OWID_* codes, UCDP regions and the
 * world row are not countries.
 *
 * What battle deaths leave out (methodology v2 §3.2): for each country and year the BRD file covers,
 * the country's other organised violence = all organised violence (this file) − the battle deaths of
 * every conflict fought there (ucdp-brd.ts). It is kept as the country's own count (activity 'other'),
 * never assigned to a conflict id it was not counted under. Where the battle deaths exceed the total
 * (the two files are different UCDP releases), the rest is 0 and the case is noted. Pure.
 */
import { ImportError, numberOf, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export interface CountryYear {
  iso3: string;
  year: number;
  /** all organised violence, best estimate */
  total: number;
  /** battle deaths of every state-based conflict fought there (BRD) */
  battle: number;
  /** total − battle, at least 0 */
  other: number;
}

const DEATHS = 'Deaths in ongoing conflicts (best estimate) - Conflict type: all';
const CODED = ['entity', 'code', 'entity_kind', 'year', 'deaths_best'] as const;

/** Deaths by ISO code and year ("COD|2022"), as the coded copy gives them: the weights of a BRD split. */
export function deathsWhereOccurred(coded: { text: string; file: string }, isoCodes: ReadonlySet<string>) {
  const out = new Map<string, number>();
  for (const { values: v } of readCsv(coded.text, coded.file, CODED).records) {
    const deaths = numberOf(v.deaths_best!);
    if (isoCodes.has(v.code!) && deaths !== null) out.set(`${v.code}|${v.year}`, deaths);
  }
  return out;
}

export function importOrganisedViolence(
  raw: { text: string; file: string },
  coded: { text: string; file: string },
  countryBattle: ReadonlyMap<string, number>,
  battleYears: readonly [number, number],
  isoCodes: ReadonlySet<string>,
): { rows: CountryYear[]; reconciliation: Reconciliation[] } {
  const rawTable = readCsv(raw.text, raw.file, ['Entity', 'Year', DEATHS]);
  const published = new Map<string, string>();
  for (const { values: v } of rawTable.records) published.set(`${v.Entity}|${v.Year}`, v[DEATHS]!);
  const table = readCsv(coded.text, coded.file, CODED);
  const tally = new Tally(coded.file).read(table.records.length);
  const rows: CountryYear[] = [];
  let negative = 0;
  for (const { line, values: v } of table.records) {
    const asPublished = published.get(`${v.entity}|${v.year}`);
    if (asPublished === undefined || numberOf(asPublished) !== numberOf(v.deaths_best!))
      throw new ImportError(
        coded.file,
        `line ${line}: ${v.entity} ${v.year} reads ${v.deaths_best}, OWID's file (${raw.file}) ${asPublished ?? 'has no such row'}`,
      );
    const year = Number(v.year);
    const total = numberOf(v.deaths_best!);
    if (v.entity_kind === 'world' || v.entity_kind === 'ucdp_region') {
      tally.skip('aggregate');
      continue;
    }
    if (!isoCodes.has(v.code!)) {
      tally.skip('unmapped_code');
      continue;
    }
    if (year < battleYears[0] || year > battleYears[1]) {
      tally.skip('beyond_coverage');
      continue;
    }
    if (total === null) {
      tally.skip('no_value');
      continue;
    }
    const battle = countryBattle.get(`${v.code}|${year}`) ?? 0;
    if (battle > total) negative++;
    rows.push({ iso3: v.code!, year, total, battle, other: Math.max(0, total - battle) });
    tally.imported();
  }
  if (negative)
    tally.note(
      `${negative} country-years where the battle deaths (BRD v24.1) exceed all organised violence (GED-based, a later release): their other organised violence is 0`,
    );
  const rawTally = new Tally(raw.file).read(rawTable.records.length);
  rawTally.checked(rawTable.records.length);
  if (rawTable.records.length !== table.records.length)
    throw new ImportError(coded.file, `${table.records.length} rows, OWID's file has ${rawTable.records.length}`);
  rows.sort((a, b) => a.iso3.localeCompare(b.iso3) || a.year - b.year);
  return { rows, reconciliation: [tally.done(), rawTally.done()] };
}

/**
 * The UCDP Georeferenced Event Dataset (GED) CSV, an optional input (`impact data build --ged FILE`,
 * about 300 MB for the global file, CC BY 4.0). One row per event of organised violence; the columns
 * read (UCDP GED codebook; the 49 columns are listed in methodology v2 §3.3):
 *   year              year of the event
 *   type_of_violence  1 state-based conflict, 2 non-state conflict, 3 one-sided violence
 *   conflict_new_id   the conflict's UCDP id (for type 1, the id the BRD file's conflict_id uses)
 *   country_id        Gleditsch–Ward code of the country the event took place in
 *   where_prec        location precision, 1 (exact place) to 7 (only the country or a wider area)
 *   best, low, high   deaths: best, low and high estimates
 * With it the ledger of each register conflict is the events summed per conflict, country and year
 * (events counted, and those located within a limited area, where_prec ≤ 2); and a country's battle
 * deaths and other organised violence are its type-1 and type-2/3 events, where the file covers the
 * country and year. It is taken as complete for every country and year it holds. Pure.
 */
import { ImportError, numberOf, readCsv } from './csv.ts';
import type { GwTable } from './gleditsch-ward.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export const GED_COLUMNS = [
  'year',
  'type_of_violence',
  'conflict_new_id',
  'country_id',
  'where_prec',
  'best',
  'low',
  'high',
] as const;

export interface GedLedgerCell {
  conflict_id: number;
  iso3: string;
  year: number;
  events: number;
  precise_events: number;
  best: number;
  low: number;
  high: number;
}

export interface GedCountryYear {
  iso3: string;
  year: number;
  battle: number;
  other: number;
}

export function importGed(
  text: string,
  file: string,
  gw: GwTable,
  registerIds: ReadonlySet<number>,
): { ledger: GedLedgerCell[]; countries: GedCountryYear[]; reconciliation: Reconciliation } {
  const table = readCsv(text, file, GED_COLUMNS);
  const tally = new Tally(file).read(table.records.length);
  const ledger = new Map<string, GedLedgerCell>();
  const countries = new Map<string, GedCountryYear>();
  for (const { line, values: v } of table.records) {
    const n = (c: (typeof GED_COLUMNS)[number]) => numberOf(v[c] ?? '');
    const [year, type, conflict, best, low, high, prec] = [
      n('year'),
      n('type_of_violence'),
      n('conflict_new_id'),
      n('best'),
      n('low'),
      n('high'),
      n('where_prec'),
    ];
    if (year === null || type === null || conflict === null || ![1, 2, 3].includes(type))
      throw new ImportError(file, `line ${line}: year, type_of_violence or conflict_new_id is not readable`);
    if (best === null) {
      tally.skip('no_value');
      continue;
    }
    const iso3 = gw.get(v.country_id!)?.iso3 ?? null;
    if (iso3 === null) {
      tally.skip('unmapped_code');
      tally.note(`line ${line}: country_id ${v.country_id} has no ISO 3166-1 code`);
      continue;
    }
    const c = countries.get(`${iso3}|${year}`) ?? { iso3, year, battle: 0, other: 0 };
    if (type === 1) c.battle += best;
    else c.other += best;
    countries.set(`${iso3}|${year}`, c);
    if (type === 1 && registerIds.has(conflict)) {
      const key = `${conflict}|${iso3}|${year}`;
      const cell = ledger.get(key) ?? {
        conflict_id: conflict,
        iso3,
        year,
        events: 0,
        precise_events: 0,
        best: 0,
        low: 0,
        high: 0,
      };
      cell.events++;
      if (prec !== null && prec <= 2) cell.precise_events++;
      cell.best += best;
      cell.low += low ?? best;
      cell.high += high ?? best;
      ledger.set(key, cell);
      tally.imported();
    } else tally.checked();
  }
  return {
    ledger: [...ledger.values()].sort(
      (a, b) => a.conflict_id - b.conflict_id || a.iso3.localeCompare(b.iso3) || a.year - b.year,
    ),
    countries: [...countries.values()].sort((a, b) => a.iso3.localeCompare(b.iso3) || a.year - b.year),
    reconciliation: tally.done(),
  };
}

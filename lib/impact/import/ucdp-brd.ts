/**
 * UCDP Battle-Related Deaths v24.1, dyadic (data/impact/ucdp-brd-dyadic-v24.1/): battle deaths per
 * dyad and year, with low/best/high and the conflict's `conflict_id`. From it:
 *  - the ledger of each register conflict: deaths per conflict, country and year, summed over its
 *    dyads. A dyad-year fought in one country (`gwno_battle`) goes to it as published; one fought in
 *    several is split between them in whole deaths in proportion to the organised-violence deaths UCDP
 *    counts in each that year (by location of death, via OWID: ucdp-owid.ts), largest remainders
 *    first, equally when none of them has any (derived: the file does not split deaths by country;
 *    methodology v2 §3.1);
 *  - every conflict's battle deaths per country and year (register conflict or not), which the
 *    by-country totals of all organised violence are reconciled with (ucdp-owid.ts);
 *  - a check: the dyads summed per conflict and year equal the conflict-year file shipped beside it
 *    (`brd_conflict_year.csv`, derived by the data collector), or the build stops.
 * Low above best (7 rows) is kept as published. Pure.
 */
import { ImportError, numberOf, readCsv } from './csv.ts';
import { gwCodes, type GwTable } from './gleditsch-ward.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export interface BrdRow {
  line: number;
  conflict_id: number;
  year: number;
  best: number;
  low: number;
  high: number;
  battle: string[];
  location_inc: string;
  side_a: string;
  side_b: string;
  incompatibility: number;
  territory_name: string;
  type_of_conflict: number;
  gwno_loc: string[];
}

const COLUMNS = [
  'conflict_id',
  'year',
  'bd_best',
  'bd_low',
  'bd_high',
  'gwno_battle',
  'location_inc',
  'side_a',
  'side_b',
  'incompatibility',
  'territory_name',
  'type_of_conflict',
  'gwno_loc',
] as const;

export function readBrd(text: string, file: string): BrdRow[] {
  return readCsv(text, file, COLUMNS).records.map(({ line, values: v }) => {
    const n = (c: string) => {
      const x = numberOf(v[c] ?? '');
      if (x === null) throw new ImportError(file, `line ${line}: ${c} "${v[c]}" is not a number`);
      return x;
    };
    return {
      line,
      conflict_id: n('conflict_id'),
      year: n('year'),
      best: n('bd_best'),
      low: n('bd_low'),
      high: n('bd_high'),
      battle: gwCodes(v.gwno_battle!),
      location_inc: v.location_inc!,
      side_a: v.side_a!,
      side_b: v.side_b!,
      incompatibility: n('incompatibility'),
      territory_name: v.territory_name!,
      type_of_conflict: n('type_of_conflict'),
      gwno_loc: gwCodes(v.gwno_loc!),
    };
  });
}

export interface LedgerCell {
  conflict_id: number;
  iso3: string;
  year: number;
  best: number;
  low: number;
  high: number;
  /** the most countries a dyad-year behind the cell was split between (1: as published) */
  split: number;
}

/**
 * n (whole) split into whole parts in proportion to whole weights: each its floor, the rest one by one
 * to the largest remainders (ties to the one listed first); in equal parts when no weight is positive.
 */
export function splitWhole(n: number, weights: readonly number[]): number[] {
  const w = weights.some((x) => x > 0) ? weights : weights.map(() => 1);
  const total = w.reduce((a, b) => a + b, 0);
  const parts = w.map((x) => Math.floor((n * x) / total));
  const order = w.map((x, i) => [(n * x) % total, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  let rest = n - parts.reduce((a, b) => a + b, 0);
  for (const [, i] of order) {
    if (rest-- <= 0) break;
    parts[i]!++;
  }
  return parts;
}

export function brdLedger(
  rows: BrdRow[],
  gw: GwTable,
  registerIds: ReadonlySet<number>,
  file: string,
  /** organised-violence deaths by country and year ("ISO|year"), the weights of a split */
  occurred: ReadonlyMap<string, number> = new Map(),
): { ledger: LedgerCell[]; countryBattle: Map<string, number>; reconciliation: Reconciliation } {
  const tally = new Tally(file).read(rows.length);
  const cells = new Map<string, LedgerCell>();
  const countryBattle = new Map<string, number>();
  for (const r of rows) {
    const iso = r.battle.map((c) => gw.get(c)?.iso3 ?? null);
    const mapped = iso.filter((x): x is string => x !== null);
    if (mapped.length === 0) {
      tally.skip('unmapped_code');
      tally.note(`line ${r.line}: conflict ${r.conflict_id} ${r.year} fought in ${r.battle.join(', ')}, no ISO code`);
      continue;
    }
    if (mapped.length < iso.length)
      tally.note(`line ${r.line}: conflict ${r.conflict_id} ${r.year}: battle code(s) without an ISO code dropped`);
    const k = iso.length;
    const weights = iso.map((c) => (c === null || k === 1 ? 0 : (occurred.get(`${c}|${r.year}`) ?? 0)));
    const [best, low, high] = [r.best, r.low, r.high].map((x) => splitWhole(x, weights));
    iso.forEach((iso3, i) => {
      if (iso3 === null) return;
      countryBattle.set(`${iso3}|${r.year}`, (countryBattle.get(`${iso3}|${r.year}`) ?? 0) + best![i]!);
      if (!registerIds.has(r.conflict_id)) return;
      const key = `${r.conflict_id}|${iso3}|${r.year}`;
      const cell = cells.get(key) ?? {
        conflict_id: r.conflict_id,
        iso3,
        year: r.year,
        best: 0,
        low: 0,
        high: 0,
        split: 1,
      };
      cell.best += best![i]!;
      cell.low += low![i]!;
      cell.high += high![i]!;
      cell.split = Math.max(cell.split, k);
      cells.set(key, cell);
    });
    if (registerIds.has(r.conflict_id)) tally.imported();
    else tally.checked();
  }
  const ledger = [...cells.values()].sort(
    (a, b) => a.conflict_id - b.conflict_id || a.iso3.localeCompare(b.iso3) || a.year - b.year,
  );
  return { ledger, countryBattle, reconciliation: tally.done() };
}

/** The conflict-year file against the dyads summed: every row equal, or the build stops. */
export function checkConflictYears(rows: BrdRow[], text: string, file: string): Reconciliation {
  const sums = new Map<string, { best: number; low: number; high: number; dyads: number }>();
  for (const r of rows) {
    const s = sums.get(`${r.conflict_id}|${r.year}`) ?? { best: 0, low: 0, high: 0, dyads: 0 };
    s.best += r.best;
    s.low += r.low;
    s.high += r.high;
    s.dyads++;
    sums.set(`${r.conflict_id}|${r.year}`, s);
  }
  const table = readCsv(text, file, ['conflict_id', 'year', 'dyads', 'bd_best', 'bd_low', 'bd_high']);
  const tally = new Tally(file).read(table.records.length);
  for (const { line, values: v } of table.records) {
    const s = sums.get(`${v.conflict_id}|${v.year}`);
    const got = [v.dyads, v.bd_best, v.bd_low, v.bd_high].map((x) => Number(x));
    const want = s ? [s.dyads, s.best, s.low, s.high] : null;
    if (!want || got.some((x, i) => x !== want[i]))
      throw new ImportError(
        file,
        `line ${line}: conflict ${v.conflict_id} ${v.year} reads ${got.join('/')} (dyads/best/low/high); the dyadic file sums to ${want?.join('/') ?? 'nothing'}`,
      );
  }
  tally.checked(table.records.length);
  if (table.records.length !== sums.size)
    throw new ImportError(file, `${table.records.length} conflict-years, but the dyadic file has ${sums.size}`);
  return tally.done();
}

export interface ConflictFacts {
  conflict_id: number;
  name: string;
  type: string;
  year_from: number;
  year_to: number;
  location_gw: string[];
}

const TYPES: Record<number, string> = {
  1: 'state-based (extrasystemic)',
  2: 'state-based (interstate)',
  3: 'state-based (intrastate)',
  4: 'state-based (internationalised intrastate)',
};

/**
 * A conflict as UCDP names it, from its dyad-years: "Location: Territory" for a territorial conflict,
 * "Location: Government" otherwise; "A - B" between states (UCDP's naming convention; the BRD file has
 * no name column, so the name is derived). Years: its first and last year in the file.
 */
export function conflictFacts(rows: BrdRow[], id: number): ConflictFacts | null {
  const mine = rows.filter((r) => r.conflict_id === id);
  if (mine.length === 0) return null;
  const last = mine.reduce((a, b) => (b.year > a.year ? b : a));
  const states = (s: string) => s.replace(/Government of /g, '');
  const name =
    last.type_of_conflict === 2
      ? `${states(last.side_a)} - ${states(last.side_b)}`
      : `${last.location_inc}: ${last.incompatibility === 1 ? last.territory_name : 'Government'}`;
  return {
    conflict_id: id,
    name,
    type: TYPES[last.type_of_conflict] ?? 'state-based',
    year_from: Math.min(...mine.map((r) => r.year)),
    year_to: Math.max(...mine.map((r) => r.year)),
    location_gw: last.gwno_loc,
  };
}

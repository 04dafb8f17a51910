/**
 * The reconciliation of one published file: every data row it holds is imported, imported as an
 * unknown value (withheld or not available: kept, never zero), used only as a check, or skipped with
 * a reason from a closed list. `rows` always equals the sum of the outcomes: a row that no branch
 * accounts for fails the build. `impact data build` prints these and stores them with the register
 * (impact_register_meta 'reconciliation'); methodology v2 §4 describes each reason. Pure.
 */

export const SKIP_REASONS = {
  out_of_scope: 'not an input of the register (another commodity, measure, indicator or column)',
  residual: "a residual row ('Other countries'): its production is in the world total, not a country's",
  aggregate: 'a total or a group of countries, not one country',
  unmapped_code: 'a country the file names by a code or name with no ISO 3166-1 alpha-3 code',
  not_applicable: 'the source marks the value not applicable (XX)',
  superseded: 'the same country, activity and year under a newer classification or a fuller source',
  beyond_coverage: 'a year the other file it is reconciled with does not cover',
  no_value: 'no value in the cell',
} as const;
export type SkipReason = keyof typeof SKIP_REASONS;

export interface Reconciliation {
  file: string;
  /** data rows read (the header excluded) */
  rows: number;
  imported: number;
  /** imported as an unknown value (withheld, not available): the row stays, its value is NULL */
  unknown: number;
  /** read only to check another file or to derive a total (e.g. the conflict-year sums) */
  checked: number;
  skipped: Partial<Record<SkipReason, number>>;
  notes: string[];
}

export class Tally {
  private readonly r: Reconciliation;

  constructor(file: string) {
    this.r = { file, rows: 0, imported: 0, unknown: 0, checked: 0, skipped: {}, notes: [] };
  }

  read(n = 1): this {
    this.r.rows += n;
    return this;
  }
  imported(n = 1): void {
    this.r.imported += n;
  }
  unknown(n = 1): void {
    this.r.unknown += n;
  }
  checked(n = 1): void {
    this.r.checked += n;
  }
  skip(reason: SkipReason, n = 1): void {
    this.r.skipped[reason] = (this.r.skipped[reason] ?? 0) + n;
  }
  note(text: string): void {
    this.r.notes.push(text);
  }

  /** The finished reconciliation; throws when its outcomes do not add up to the rows read. */
  done(): Reconciliation {
    const accounted =
      this.r.imported +
      this.r.unknown +
      this.r.checked +
      Object.values(this.r.skipped).reduce((a, b) => a + (b ?? 0), 0);
    if (accounted !== this.r.rows)
      throw new Error(`${this.r.file}: ${this.r.rows} rows read but ${accounted} accounted for (an importer bug)`);
    return {
      ...this.r,
      skipped: Object.fromEntries(Object.entries(this.r.skipped).sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }
}

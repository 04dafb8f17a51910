/**
 * Rule 4 of the impact document: "a figure that fails its own checks produces a 500 error, never a
 * number". Every figure the read API serialises is made here, and only here: `checkFigure` is the
 * one function that returns a `Figure` (the type is branded, so no other code can build one), and it
 * throws `FigureCheckError` instead of returning anything doubtful. The route layer turns that into a
 * logged 500 (routes/impact/serve.ts).
 *
 * What is checked, against the run the row belongs to (methodology v1 §9, §11):
 *  - integrity: the run is validated and was published, the row is that run's, and its quantiles are
 *    the ones this service reads (p05, p50, p95);
 *  - every number finite and non-negative; low ≤ median ≤ high;
 *  - the grade is what the interval's spread and the row's cap give (gradeOf), so a row cannot claim
 *    a better grade than its numbers or its inputs allow;
 *  - central is null exactly when the grade is INDICATIVE, and otherwise is the mean of the draws,
 *    inside the interval (within 1e-9 relative, the gates' tolerance).
 * Sums are checked too: a breakdown or explain stage that does not add up to its headline is refused.
 * Pure: no database, no clock.
 */
import { BASES, provenanceCap, provenanceSummary, unmeasured, type Provenance } from './basis.ts';
import { displayFigure, gradeOf, QUANTILES_LABEL, worse, type Grade } from './figure.ts';
import { quotableFigure } from './quotable.ts';

/** The facts of a run a figure is checked against (a row of impact_runs). */
export interface ServedRun {
  id: number;
  status: string;
  published_at: string | null;
  quantiles: string;
  illustrative: number | boolean;
}

/** The statistics columns every figure table stores. */
export interface StatRow {
  low: number;
  median: number;
  high: number;
  mean: number;
  central: number | null;
  grade: string;
  /** shares of the mean by basis (migration 013); null or absent where the row carries none */
  prov_published?: number | null;
  prov_derived?: number | null;
  prov_assumption?: number | null;
  prov_illustrative?: number | null;
}

export interface FigureBody {
  /** The mean of the draws; null when the figure is INDICATIVE (only its interval may be quoted). */
  central: number | null;
  low: number;
  median: number;
  high: number;
  grade: Grade;
  /** What one figure counts, e.g. "deaths per kg". */
  unit: string;
  /** Two significant figures with the interval, ready to quote (rule 6). */
  display: string;
  /** The same per a round number of units (methodology v2 §10). */
  quotable: string;
  /** Shares of the value by basis, with the sentence they read as; null on breakdown parts. */
  provenance: (Provenance & { summary: string }) | null;
}

declare const checked: unique symbol;
/** A figure that passed checkFigure. Only checkFigure makes one. */
export type Figure = FigureBody & { readonly [checked]: true };

export interface FigureSpec {
  /** Names the figure in the log line if it fails, e.g. "product smartphone deaths per_unit". */
  what: string;
  unit: string;
  /** The best grade the row's inputs allow (methodology v1 §9: product bill of materials, illustrative data). */
  cap: Grade;
  /** The run id stored on the row. */
  runId: number;
}

export class FigureCheckError extends Error {
  constructor(
    readonly what: string,
    readonly reason: string,
  ) {
    super(`${what}: ${reason}`);
  }
}

const REL = 1e-9;
const GRADES: readonly string[] = ['ROBUST', 'MODERATE', 'INDICATIVE'];

const near = (a: number, b: number) => Math.abs(a - b) <= REL * Math.max(Math.abs(a), Math.abs(b)) + 1e-300;

/** Checks a run can serve figures at all. */
export function checkRun(run: ServedRun, what: string): void {
  if (run.status !== 'validated') throw new FigureCheckError(what, `run ${run.id} is ${run.status}, not validated`);
  if (run.published_at === null) throw new FigureCheckError(what, `run ${run.id} was never published`);
  if (run.quantiles !== QUANTILES_LABEL)
    throw new FigureCheckError(
      what,
      `run ${run.id} stores quantiles ${run.quantiles}, this service reads ${QUANTILES_LABEL}`,
    );
}

export function checkFigure(run: ServedRun, row: StatRow, spec: FigureSpec): Figure {
  const { what } = spec;
  checkRun(run, what);
  if (spec.runId !== run.id) throw new FigureCheckError(what, `a row of run ${spec.runId} offered as run ${run.id}'s`);
  const numbers = [row.low, row.median, row.high, row.mean, ...(row.central === null ? [] : [row.central])];
  if (numbers.some((x) => typeof x !== 'number' || !Number.isFinite(x)))
    throw new FigureCheckError(what, 'a value is missing or not finite');
  if (numbers.some((x) => x < 0)) throw new FigureCheckError(what, 'a value is negative');
  if (!(row.low <= row.median && row.median <= row.high))
    throw new FigureCheckError(what, `interval out of order (low ${row.low}, median ${row.median}, high ${row.high})`);
  if (!GRADES.includes(row.grade)) throw new FigureCheckError(what, `unknown grade ${row.grade}`);
  const grade = row.grade as Grade;
  const provenance = provenanceOfRow(row, what);
  // The grade follows what the value rests on: mostly unmeasured inputs cap it (methodology v2 §9).
  const expected = gradeOf(row, worse(spec.cap, provenanceCap(provenance)));
  if (grade !== expected)
    throw new FigureCheckError(what, `graded ${grade}, but its interval and inputs give ${expected}`);
  if ((grade === 'INDICATIVE') !== (row.central === null)) {
    throw new FigureCheckError(
      what,
      grade === 'INDICATIVE'
        ? 'an INDICATIVE figure carries a central value'
        : `a ${grade} figure has no central value`,
    );
  }
  if (row.central !== null) {
    if (!near(row.central, row.mean))
      throw new FigureCheckError(what, `central ${row.central} is not the mean of the draws ${row.mean}`);
    const tol = REL * Math.max(Math.abs(row.high), Number.MIN_VALUE);
    if (row.central < row.low - tol || row.central > row.high + tol)
      throw new FigureCheckError(what, 'central outside its interval');
  }
  const body: FigureBody = {
    central: row.central,
    low: row.low,
    median: row.median,
    high: row.high,
    grade,
    unit: spec.unit,
    display: displayFigure(row),
    quotable: quotableFigure(row, spec.unit, provenance !== null && unmeasured(provenance) > 0.5),
    provenance: provenance && { ...provenance, summary: provenanceSummary(provenance) },
  };
  return body as Figure;
}

/** A row's provenance columns: all four or none; each a share, together the whole value. */
function provenanceOfRow(row: StatRow, what: string): Provenance | null {
  const values = BASES.map((b) => row[`prov_${b}`] ?? null);
  if (values.every((x) => x === null)) return null;
  if (values.some((x) => x === null || !Number.isFinite(x) || x < -REL || x > 1 + REL))
    throw new FigureCheckError(what, `provenance shares incomplete or out of [0, 1] (${values.join(', ')})`);
  const sum = (values as number[]).reduce((a, b) => a + b, 0);
  if (!near(sum, 1)) throw new FigureCheckError(what, `provenance shares add up to ${sum}, not 1`);
  return Object.fromEntries(BASES.map((b, i) => [b, values[i]])) as Provenance;
}

/** A row scaled by k > 0 (spend by `amount`): the same statistics, every one multiplied. */
export function scaleRow<R extends StatRow>(row: R, k: number): R {
  return {
    ...row,
    low: row.low * k,
    median: row.median * k,
    high: row.high * k,
    mean: row.mean * k,
    central: row.central === null ? null : row.central * k,
  };
}

/** Parts of a headline (a breakdown, an explain stage) must add up to it, on the means (gate sums_to_headline). */
export function checkSum(what: string, headline: { mean: number }, parts: ReadonlyArray<{ mean: number }>): void {
  const sum = parts.reduce((a, p) => a + p.mean, 0);
  if (!near(sum, headline.mean))
    throw new FigureCheckError(what, `parts add up to ${sum}, the headline is ${headline.mean}`);
}

/**
 * The share of a headline a part accounts for, or null when either has no central value: a share of
 * an INDICATIVE figure would let a reader multiply back to the central value rule 6 withholds.
 */
export function shareOf(part: Figure, headline: Figure): number | null {
  if (part.central === null || headline.central === null) return null;
  return headline.central > 0 ? part.central / headline.central : null;
}

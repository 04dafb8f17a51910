/**
 * /compare's arithmetic (SPEC "Impact attribution": one of the two computations allowed at request
 * time): two products' stored draws of one run, paired by draw index (draw i of both used the same
 * draw i of every shared input, methodology v1 §8), divided index by index into the ratio a / b.
 *
 * The ratio's quantiles are taken on log(a / b): type-7 interpolation on the logs is exactly
 * antisymmetric (the p05 of log(b / a) is minus the p95 of log(a / b)), so compare(a, b) and
 * compare(b, a) give reciprocal intervals and mirrored verdicts. Draws where one product is 0 give an
 * unbounded log ratio (±∞); where both are 0 they tie (ratio 1). An unbounded quantile is served as
 * null.
 *
 * Verdict: `a_larger` only if the ratio's p05 exceeds 1, `b_larger` only if its p95 is below 1;
 * otherwise `not_distinguishable` (document: "only where the interval of the ratio supports it").
 * The central ratio is the ratio of the two central values, and null when either figure is INDICATIVE:
 * a central ratio times b's central value would give back the central value a's grade withholds.
 * Pure.
 */
import { FigureCheckError } from './check-figure.ts';
import { QUANTILES } from './figure.ts';

export type Verdict = 'a_larger' | 'b_larger' | 'not_distinguishable';

export interface RatioStats {
  central: number | null;
  low: number | null;
  median: number | null;
  high: number | null;
  verdict: Verdict;
  /** Share of paired draws in which a's figure exceeds b's. */
  p_a_greater: number;
  /** Share of paired draws in which the two are equal (both 0, or identical products): a tie is not "b larger". */
  p_a_equal: number;
}

/** What the draws themselves say about a central ratio, for checkRatio (not served). */
export interface RatioBounds {
  /** (mean of a's draws / mean of b's draws) × scale, or null when b's draws are all 0. */
  ofMeans: number | null;
  /** Smallest and largest ratio of one paired draw, over the draws where either is above 0. */
  min: number;
  max: number;
}

/** log(a/b) of one draw: ±∞ when exactly one is 0, 0 when both are. */
function logRatio(a: number, b: number, logScale: number): number {
  if (a === 0 && b === 0) return 0; // a tie whatever the scale, since both figures are 0
  if (a === b) return logScale; // equal per unit: per kg they differ by the mass ratio
  if (b === 0) return Infinity;
  if (a === 0) return -Infinity;
  return Math.log(a) - Math.log(b) + logScale;
}

/** Type-7 quantile of sorted values that may hold ±∞; symmetric under negation. */
export function quantileWithInfinities(sorted: Float64Array, p: number): number {
  const n = sorted.length;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const f = h - lo;
  const x = sorted[lo]!;
  const y = sorted[hi]!;
  if (f === 0 || x === y) return x;
  if (Number.isFinite(x) && Number.isFinite(y)) return x + f * (y - x);
  if (x === -Infinity && y === Infinity) return f < 0.5 ? x : f > 0.5 ? y : Number.NaN;
  return x === -Infinity ? x : y; // one side unbounded: the interpolation is unbounded too
}

const finiteOrNull = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * The ratio a / b over paired draws. `scale` multiplies every ratio (per kg: b's mass / a's mass), so
 * a tie between two zero draws stays a tie. `centrals` are the central values (null when INDICATIVE)
 * of the two figures on the basis compared (per kg for the per-kg ratio): already scaled, so the central
 * ratio is their plain quotient. checkRatio then holds it against the draws (issue 14: the mass scale
 * had been applied a second time to per-kg centrals, and nothing looked).
 */
export function pairedRatio(
  a: Float64Array,
  b: Float64Array,
  scale: number,
  centrals: [number | null, number | null],
): RatioStats {
  if (a.length !== b.length || a.length === 0)
    throw new FigureCheckError('compare', `draws do not pair (${a.length} and ${b.length})`);
  if (!(scale > 0 && Number.isFinite(scale)))
    throw new FigureCheckError('compare', `scale ${scale} is not a positive number`);
  const n = a.length;
  const logScale = Math.log(scale);
  const logs = new Float64Array(n);
  let greater = 0;
  let equal = 0;
  let sumA = 0;
  let sumB = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let d = 0; d < n; d++) {
    const x = a[d]!;
    const y = b[d]!;
    if (!(Number.isFinite(x) && Number.isFinite(y) && x >= 0 && y >= 0))
      throw new FigureCheckError('compare', `draw ${d} is not a finite non-negative number`);
    const r = logRatio(x, y, logScale);
    logs[d] = r;
    if (r > 0) greater++;
    else if (r === 0) equal++;
    sumA += x;
    sumB += y;
    if (x > 0 || y > 0) {
      if (r < min) min = r;
      if (r > max) max = r;
    }
  }
  logs.sort();
  const qLow = quantileWithInfinities(logs, QUANTILES.low);
  const qMedian = quantileWithInfinities(logs, QUANTILES.median);
  const qHigh = quantileWithInfinities(logs, QUANTILES.high);
  const verdict: Verdict = qLow > 0 ? 'a_larger' : qHigh < 0 ? 'b_larger' : 'not_distinguishable';
  const [ca, cb] = centrals;
  const central = ca !== null && cb !== null && cb > 0 ? ca / cb : null;
  const stats: RatioStats = {
    central: central === null ? null : finiteOrNull(central),
    low: finiteOrNull(Math.exp(qLow)),
    median: finiteOrNull(Math.exp(qMedian)),
    high: finiteOrNull(Math.exp(qHigh)),
    verdict,
    p_a_greater: greater / n,
    p_a_equal: equal / n,
  };
  checkRatio(stats, { ofMeans: sumB > 0 ? (sumA / sumB) * scale : null, min: Math.exp(min), max: Math.exp(max) });
  return stats;
}

const REL = 1e-9;

/**
 * Rule 4 for a ratio: what is served is ordered and finite, the verdict is what the interval says, and
 * the central value is what the draws give. A ratio of two means is a weighted mean of the per-draw
 * ratios (weights b's draws), so it lies between the smallest and largest of them; and it is the ratio
 * of the draws' own means, so a central value scaled twice (or once too few) cannot pass.
 */
export function checkRatio(r: RatioStats, bounds?: RatioBounds): void {
  const nums = [r.low, r.median, r.high].filter((x): x is number => x !== null);
  if (nums.some((x) => !Number.isFinite(x) || x < 0))
    throw new FigureCheckError('compare ratio', 'a quantile is negative or not finite');
  if (r.low !== null && r.median !== null && r.low > r.median)
    throw new FigureCheckError('compare ratio', 'low above median');
  if (r.median !== null && r.high !== null && r.median > r.high)
    throw new FigureCheckError('compare ratio', 'median above high');
  if (r.verdict === 'a_larger' && r.low !== null && !(r.low > 1))
    throw new FigureCheckError('compare ratio', 'a_larger without an interval above 1');
  if (r.verdict === 'b_larger' && (r.high === null || !(r.high < 1)))
    throw new FigureCheckError('compare ratio', 'b_larger without an interval below 1');
  if (!(r.p_a_greater >= 0 && r.p_a_greater <= 1))
    throw new FigureCheckError('compare ratio', 'p_a_greater outside 0–1');
  if (!(r.p_a_equal >= 0 && r.p_a_greater + r.p_a_equal <= 1 + 1e-12))
    throw new FigureCheckError('compare ratio', 'p_a_equal outside 0–1 or above 1 with p_a_greater');
  if (r.central === null) return;
  if (!Number.isFinite(r.central) || r.central < 0)
    throw new FigureCheckError('compare ratio', 'central negative or not finite');
  if (!bounds) return;
  const tol = (x: number) => REL * Math.max(Math.abs(x), Math.abs(r.central!)) + 1e-300;
  if (bounds.ofMeans === null || Math.abs(r.central - bounds.ofMeans) > tol(bounds.ofMeans)) {
    throw new FigureCheckError(
      'compare ratio',
      `central ${r.central} is not the ratio of the draws' means ${bounds.ofMeans}`,
    );
  }
  if (r.central < bounds.min - tol(bounds.min) || r.central > bounds.max + tol(bounds.max)) {
    throw new FigureCheckError(
      'compare ratio',
      `central ${r.central} outside the draws' ratios ${bounds.min}–${bounds.max}`,
    );
  }
}

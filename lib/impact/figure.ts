/**
 * How draws become a figure (methodology v1, "Reading an interval" and "Grades"):
 *  - low, median, high are the 5th, 50th and 95th percentiles of the draws, by linear interpolation
 *    between order statistics (h = (n − 1)·p, R's type 7);
 *  - central is the mean of the draws. The mean is linear, so every breakdown of a headline sums to it
 *    exactly (up to rounding), which the medians would not;
 *  - a grade says how far the figure can be read: ROBUST, MODERATE or INDICATIVE. An INDICATIVE figure
 *    has no central value: only its interval may be quoted.
 * Display follows rule 6 of the document: two significant figures, with the interval.
 */

export const QUANTILES = { low: 0.05, median: 0.5, high: 0.95 } as const;
export const QUANTILES_LABEL = 'p05,p50,p95';

export type Grade = 'ROBUST' | 'MODERATE' | 'INDICATIVE';
const ORDER: Grade[] = ['ROBUST', 'MODERATE', 'INDICATIVE'];

export interface Stats {
  low: number;
  median: number;
  high: number;
  mean: number;
}
export interface Figure extends Stats {
  central: number | null;
  grade: Grade;
}

/** Quantile of sorted values, linear interpolation (type 7). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Summarises draws; `scratch` (same length) avoids an allocation per call in the engine's hot loop.
 * The three quantiles come from selection (quickselect), not a full sort: the engine summarises
 * hundreds of thousands of breakdowns per run. The values are the same order statistics a sort gives.
 */
export function summarize(draws: Float64Array, scratch?: Float64Array): Stats {
  const n = draws.length;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = draws[i]!;
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const mean = sum / n;
  if (min === max) return { low: min, median: min, high: min, mean };
  const a = scratch && scratch.length === n ? scratch : new Float64Array(n);
  a.set(draws);
  // Each selection leaves everything smaller on its left, so the next one searches only the right.
  let from = 0;
  const q = (p: number) => {
    const h = (n - 1) * p;
    const lo = Math.floor(h);
    const x = select(a, lo, from);
    from = lo + 1;
    if (lo + 1 >= n || h === lo) return x;
    const next = select(a, lo + 1, lo + 1);
    return x + (h - lo) * (next - x);
  };
  return { low: q(QUANTILES.low), median: q(QUANTILES.median), high: q(QUANTILES.high), mean };
}

/**
 * Puts the k-th smallest value of a[from..] at a[k], smaller ones on its left and larger ones on its
 * right (quickselect with a median-of-three pivot, after Numerical Recipes' `select`).
 */
function select(a: Float64Array, k: number, from: number): number {
  let l = from;
  let ir = a.length - 1;
  for (;;) {
    if (ir <= l + 1) {
      if (ir === l + 1 && a[ir]! < a[l]!) swap(a, l, ir);
      return a[k]!;
    }
    const mid = (l + ir) >>> 1;
    swap(a, mid, l + 1);
    if (a[l]! > a[ir]!) swap(a, l, ir);
    if (a[l + 1]! > a[ir]!) swap(a, l + 1, ir);
    if (a[l]! > a[l + 1]!) swap(a, l, l + 1);
    let i = l + 1;
    let j = ir;
    const pivot = a[l + 1]!;
    for (;;) {
      do i++;
      while (a[i]! < pivot);
      do j--;
      while (a[j]! > pivot);
      if (j < i) break;
      swap(a, i, j);
    }
    a[l + 1] = a[j]!;
    a[j] = pivot;
    if (j >= k) ir = j - 1;
    if (j <= k) l = i;
  }
}

function swap(a: Float64Array, i: number, j: number) {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** The worse of two grades. */
export function worse(a: Grade, b: Grade): Grade {
  return ORDER[Math.max(ORDER.indexOf(a), ORDER.indexOf(b))]!;
}

/**
 * Grade from the interval's spread (high / low) and a cap set by the inputs:
 * ≤ 3 ROBUST, ≤ 10 MODERATE, wider (or low = 0 < high) INDICATIVE. A figure whose interval is 0–0
 * has spread 1: nothing was attributed, and that is exact under the method.
 */
export function gradeOf(s: Stats, cap: Grade = 'ROBUST'): Grade {
  let spread: number;
  if (s.high === 0) spread = 1;
  else if (s.low <= 0) spread = Infinity;
  else spread = s.high / s.low;
  const bySpread: Grade = spread <= 3 ? 'ROBUST' : spread <= 10 ? 'MODERATE' : 'INDICATIVE';
  return worse(bySpread, cap);
}

/** The cap a product's inputs put on its grade. Illustrative inputs are never better than MODERATE. */
export function productCap(p: { complete: boolean; bom_confidence: string | null }, illustrative: boolean): Grade {
  let cap: Grade = p.bom_confidence === 'high' ? 'ROBUST' : p.bom_confidence === 'medium' ? 'MODERATE' : 'INDICATIVE';
  if (!p.complete) cap = worse(cap, 'MODERATE');
  if (illustrative) cap = worse(cap, 'MODERATE');
  return cap;
}

export function toFigure(s: Stats, cap: Grade = 'ROBUST'): Figure {
  const grade = gradeOf(s, cap);
  return { ...s, central: grade === 'INDICATIVE' ? null : s.mean, grade };
}

/** Rounds to `digits` significant figures (half away from zero on the decimal string). */
export function roundSig(x: number, digits = 2): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  return Number(x.toPrecision(digits));
}

/**
 * The one number formatter of the impact API and explorer: `digits` significant figures as text,
 * trailing zeros kept (rule 6: 0.1 is "0.10", 0.05 is "0.050", so a reader sees the precision).
 * Plain between 0.01 and 1,000,000 ("120", "0.50"), else "5.0e-9".
 */
export function formatSig(x: number, digits = 2): string {
  if (x === 0) return '0';
  if (!Number.isFinite(x)) return String(x);
  const r = roundSig(x, digits);
  const abs = Math.abs(r);
  if (abs < 0.01 || abs >= 1e6) return r.toExponential(digits - 1).replace('e+', 'e');
  // At or above 10^digits toPrecision would switch to an exponent; the rounded integer is plain.
  return abs >= 10 ** digits ? String(r) : r.toPrecision(digits);
}

/** "1.2e-6 (4.5e-7–3.1e-6)", or "between 4.5e-7 and 3.1e-6" when INDICATIVE (no central value). */
export function displayFigure(f: { low: number; high: number; central: number | null }): string {
  if (f.central === null) return `between ${formatSig(f.low)} and ${formatSig(f.high)}`;
  return `${formatSig(f.central)} (${formatSig(f.low)}–${formatSig(f.high)})`;
}

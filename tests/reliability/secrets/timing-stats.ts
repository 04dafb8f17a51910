/**
 * Comparing two samples of response times (key-timing.test.ts): medians, trimmed means, the
 * Mann-Whitney rank-sum statistic as the probability that one is slower than the other, the
 * Hodges-Lehmann shift, and a seeded bootstrap interval. Distribution-free, because response times
 * on a shared machine are skewed and heavy-tailed.
 */
import { mulberry32 } from '../../../lib/mulberry32.ts';

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The mean of the middle values, `cut` trimmed off each end. */
export function trimmedMean(xs: number[], cut = 0.1): number {
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length * cut);
  const kept = s.slice(k, s.length - k);
  return kept.reduce((sum, x) => sum + x, 0) / kept.length;
}

/**
 * Mann-Whitney U of `b` against `a`: auc is P(b > a) + P(b = a)/2 (0.5 when the two cannot be told
 * apart), z its normal approximation (ties averaged).
 */
export function rankSum(a: number[], b: number[]): { auc: number; z: number } {
  const all = [...a.map((v) => ({ v, b: false })), ...b.map((v) => ({ v, b: true }))].sort((x, y) => x.v - y.v);
  let rankB = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const rank = (i + j + 1) / 2; // ranks i+1 … j, averaged
    for (let k = i; k < j; k++) if (all[k]!.b) rankB += rank;
    i = j;
  }
  const n1 = a.length;
  const n2 = b.length;
  const u = rankB - (n2 * (n2 + 1)) / 2;
  const sd = Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12);
  return { auc: u / (n1 * n2), z: (u - (n1 * n2) / 2) / sd };
}

/** The Hodges-Lehmann estimate of how much `b` is shifted from `a`: the median of all b - a. */
export function shift(a: number[], b: number[]): number {
  const d: number[] = [];
  for (const x of a) for (const y of b) d.push(y - x);
  return median(d);
}

/** A 95% percentile bootstrap interval of trimmedMean(b) - trimmedMean(a). */
export function bootstrapTrimmedDifference(a: number[], b: number[], rounds = 1000, seed = 8): [number, number] {
  const random = mulberry32(seed); // seeded, so a run's bootstrap can be repeated
  const resample = (xs: number[]) => xs.map(() => xs[Math.floor(random() * xs.length)]!);
  const diffs = Array.from({ length: rounds }, () => trimmedMean(resample(b)) - trimmedMean(resample(a))).sort(
    (x, y) => x - y,
  );
  return [diffs[Math.floor(rounds * 0.025)]!, diffs[Math.ceil(rounds * 0.975) - 1]!];
}

/**
 * The arithmetic that lets a reader see an explain stage add up to its headline: the sum of the parts'
 * central values (means of the draws, which are linear, so they add up exactly; methodology v1 §9)
 * beside the headline's own central value. Where the headline or a part is graded INDICATIVE the API
 * serves no central value, so there is nothing to add: the result says so, and how many parts lack one,
 * instead of summing medians or interval ends (which do not add up). Pure.
 */

export interface Central {
  central: number | null;
}

export type StageSum =
  | { kind: 'sums'; sum: number; headline: number; agrees: boolean; parts: number }
  | { kind: 'no_central'; headlineHasCentral: boolean; partsWithout: number; parts: number };

/** The API checks sums within 1e-9 relative (gate sums_to_headline); the page uses the same tolerance. */
export const SUM_TOLERANCE = 1e-9;

export function sumStage(headline: Central | null, parts: Central[]): StageSum {
  const without = parts.filter((p) => p.central === null).length;
  if (!headline || headline.central === null || without > 0) {
    return {
      kind: 'no_central',
      headlineHasCentral: Boolean(headline && headline.central !== null),
      partsWithout: without,
      parts: parts.length,
    };
  }
  const sum = parts.reduce((acc, p) => acc + (p.central as number), 0);
  const h = headline.central;
  const agrees = Math.abs(sum - h) <= SUM_TOLERANCE * Math.max(Math.abs(sum), Math.abs(h)) + 1e-300;
  return { kind: 'sums', sum, headline: h, agrees, parts: parts.length };
}

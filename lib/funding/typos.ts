/**
 * Typo tolerance as Meilisearch and Typesense apply it: a word of five letters or more matches a word
 * one edit away (insertion, deletion, substitution, or two letters swapped), two edits from nine
 * letters; words two edits away only when none is nearer. Pure: db/funding/typo-index.ts holds the
 * corpus's words and turns the near ones into index keys.
 */
import { TWO_TYPOS_LENGTH } from './search-expand.ts';

export const editsAllowed = (word: string): number => (word.length >= TWO_TYPOS_LENGTH ? 2 : 1);

/** The edits between a and b (optimal string alignment), or Infinity when more than `max`. */
export function editDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return Infinity;
  let prev2: number[] = [];
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return Infinity;
    prev2 = prev;
    prev = row;
  }
  return prev[m]! <= max ? prev[m]! : Infinity;
}

/** The words near `word` (folded), nearest first, at most `limit`; two edits away only when none is nearer. */
export function nearWords(word: string, words: Iterable<string>, limit = 8): string[] {
  const max = editsAllowed(word);
  const found: Array<[string, number]> = [];
  for (const w of words) {
    if (w === word) continue;
    const d = editDistance(w, word, max);
    if (d <= max) found.push([w, d]);
  }
  found.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const within = found[0]?.[1] ?? 0;
  return found
    .filter(([, d]) => d <= within)
    .slice(0, limit)
    .map(([w]) => w);
}

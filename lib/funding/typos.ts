/**
 * Typo tolerance as Meilisearch and Typesense apply it: a word of five letters or more matches a word
 * one edit away (insertion, deletion, substitution, or two letters swapped), two edits from nine
 * letters. Pure: db/funding/typo-index.ts holds the index's keys and asks this which are near.
 *
 * The index holds stems, not words ("discapacidad" is the key "discapac"), so a key is near a typed
 * word when it is within the edits of the word, or of the word less an ending a stemmer removes (up to
 * MAX_ENDING letters): "discapacidd" is "discapac" + "idd", "forestles" is "forestal" one edit away
 * from "forestl" + "es".
 */
import { TWO_TYPOS_LENGTH } from './search-expand.ts';

/** The most letters a stemmer removes from a word's end (Spanish -amientos is the longest common one). */
const MAX_ENDING = 4;
/** The shortest key a typo may find (shorter stems are too many words' beginnings). */
const MIN_KEY = 5;
/** A key at most this much shorter than the typed word (a stem is the word less its ending). */
const MAX_SHORTER = 3;

export const editsAllowed = (word: string): number => (word.length >= TWO_TYPOS_LENGTH ? 2 : 1);

/**
 * The fewest edits between `key` and a beginning of `word` at least word.length − MAX_ENDING long
 * (optimal string alignment: a swap of two letters is one edit), or Infinity when more than `max`.
 */
export function distanceToWord(key: string, word: string, max: number): number {
  const n = key.length;
  const m = word.length;
  if (n < MIN_KEY || n > m + max || n < m - MAX_SHORTER) return Infinity;
  // rows[i][j]: edits between key[0..i) and word[0..j).
  let prev2: number[] = [];
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= m; j++) {
      const cost = key[i - 1] === word[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && key[i - 1] === word[j - 2] && key[i - 2] === word[j - 1])
        d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return Infinity;
    prev2 = prev;
    prev = row;
  }
  let least = Infinity;
  for (let j = Math.max(0, m - MAX_ENDING); j <= m; j++) least = Math.min(least, prev[j]!);
  return least <= max ? least : Infinity;
}

/** The keys near `word` (folded), nearest first, at most `limit`; keys two edits away only when none is nearer. */
export function nearKeys(word: string, keys: Iterable<string>, limit = 16): string[] {
  const max = editsAllowed(word);
  const found: Array<[string, number]> = [];
  for (const k of keys) {
    const d = distanceToWord(k, word, max);
    if (d <= max) found.push([k, d]);
  }
  found.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  // Two edits only when nothing is nearer (forestles: forestal, not fomento).
  const within = Math.max(1, found[0]?.[1] ?? 0);
  return found
    .filter(([, d]) => d <= within)
    .slice(0, limit)
    .map(([k]) => k);
}

/**
 * The words a typo is corrected to (lib/funding/typos.ts): the words of the titles of the newest
 * TITLES calls, the words calls are found by, read when a word is first corrected and kept until the
 * next import, and the words of the vocabulary's labels in both languages (an English word with a typo
 * has no Spanish title word to be corrected to). A typo in a
 * word's first letter is not corrected (as Elasticsearch's prefix_length 1): words are kept by their
 * first letter, so a correction compares a few thousand words, not all. (The index's own vocabulary,
 * fts5vocab, reads every posting of every term: 8 s for the 50,000-call benchmark corpus.)
 */
import type { Db } from '../connection.ts';
import { fold } from '../../lib/funding/stem.ts';
import { nearWords } from '../../lib/funding/typos.ts';
import { statementsFor } from '../statements.ts';

/** How many of the newest calls' titles the words come from. */
const TITLES = 5_000;

const statements = statementsFor((db) => ({
  generation: db.prepare('SELECT coalesce(max(id), 0) FROM funding_imports').pluck(),
  titles: db
    .prepare(`SELECT title FROM funding_calls WHERE personal_data = 0 ORDER BY seq DESC LIMIT ${TITLES}`)
    .pluck(),
}));

export interface TypoIndex {
  /** The words near a folded word, nearest first (lib/funding/search-expand.ts searches their keys and labels). */
  near(word: string): string[];
  /** Words held and their characters (for BENCHMARKS.md's memory line). */
  size(): { words: number; chars: number };
}

/** Words by their first letter. */
function addByLetter(byLetter: Map<string, string[]>, w: string): void {
  const first = String.fromCodePoint(w.codePointAt(0)!);
  let list = byLetter.get(first);
  if (!list) byLetter.set(first, (list = []));
  list.push(w);
}

/** `labels`: the vocabulary's words (lib/funding/vocabulary.ts typoWords), kept beside the titles' for good. */
export function typoIndex(db: Db, labels: readonly string[] = []): TypoIndex {
  const { generation, titles } = statements(db);
  let byLetter = new Map<string, string[]>();
  let seen = -1;
  const load = () => {
    const current = generation.get() as number;
    if (current === seen) return;
    seen = current;
    const all = new Set<string>(labels);
    // Folded once per title, then split: words of letters only (numbers are never corrected).
    for (const title of titles.all() as string[])
      for (const w of fold(title).split(/[^\p{L}]+/u)) if (w.length >= 4) all.add(w);
    byLetter = new Map();
    for (const w of all) addByLetter(byLetter, w);
  };
  return {
    near(word) {
      load();
      const w = fold(word);
      return nearWords(w, byLetter.get(String.fromCodePoint(w.codePointAt(0)!)) ?? []);
    },
    size() {
      let count = 0;
      let chars = 0;
      for (const list of byLetter.values()) {
        count += list.length;
        for (const w of list) chars += w.length;
      }
      return { words: count, chars };
    },
  };
}

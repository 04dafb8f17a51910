/**
 * The index keys a typo is looked for in (lib/funding/typos.ts): the full-text index's own vocabulary
 * (fts5vocab), read one first letter at a time when a word of that letter is first corrected, and kept
 * until the next import changes the index. A typo in a word's first letter is not corrected (as with
 * Elasticsearch's prefix_length 1): it keeps the keys read per word few. Numbers and derived terms
 * (which start with a digit or `_`) are never read.
 */
import type { Db } from '../connection.ts';
import { fold } from '../../lib/funding/stem.ts';
import { nearKeys } from '../../lib/funding/typos.ts';
import { statementsFor } from '../statements.ts';

const statements = statementsFor((db) => {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.funding_vocab USING fts5vocab(main, funding_calls_fts, row)');
  return {
    generation: db.prepare('SELECT coalesce(max(id), 0) FROM funding_imports').pluck(),
    letter: db.prepare('SELECT term FROM temp.funding_vocab WHERE term >= @lo AND term < @hi').pluck(),
  };
});

export interface TypoIndex {
  /** The keys near a folded word, nearest first. */
  near(word: string): string[];
  /** Keys held and their characters (for BENCHMARKS.md's memory line). */
  size(): { keys: number; chars: number };
}

export function typoIndex(db: Db): TypoIndex {
  const { generation, letter } = statements(db);
  const byLetter = new Map<string, string[]>();
  let seen = -1;
  const keysOf = (first: string): string[] => {
    const current = generation.get() as number;
    if (current !== seen) {
      byLetter.clear();
      seen = current;
    }
    let keys = byLetter.get(first);
    if (!keys) {
      const hi = String.fromCodePoint(first.codePointAt(0)! + 1);
      keys = (letter.all({ lo: first, hi }) as string[]).filter((k) => /^\p{L}+$/u.test(k));
      byLetter.set(first, keys);
    }
    return keys;
  };
  return {
    near(word) {
      const w = fold(word);
      return /^\p{L}/u.test(w) ? nearKeys(w, keysOf(String.fromCodePoint(w.codePointAt(0)!))) : [];
    },
    size() {
      let keys = 0;
      let chars = 0;
      for (const list of byLetter.values()) {
        keys += list.length;
        for (const k of list) chars += k.length;
      }
      return { keys, chars };
    },
  };
}

/**
 * Long prefixes (`subvenc*`) expanded into an OR of the indexed terms that start with them.
 *
 * FTS5's prefix index covers 2- and 3-character prefixes; a longer one makes FTS5 merge the doclists of
 * every matching term up front (344 ms for `subvenc*` on a million calls). An OR of the terms, read
 * from the index's own vocabulary (fts5vocab), is merged lazily and took 9 ms. Expansions are cached
 * until the next import changes the vocabulary; a prefix with more than 64 terms stays a prefix.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

const MAX_TERMS = 64;

/** Folds a prefix the way `unicode61 remove_diacritics 2` folds tokens: lower case, no marks. */
export const foldToken = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const statements = statementsFor((db) => ({
  generation: db.prepare('SELECT coalesce(max(id), 0) FROM funding_imports').pluck(),
  terms: db
    .prepare('SELECT term FROM temp.funding_vocab WHERE term >= @lo AND term < @hi ORDER BY term LIMIT @limit')
    .pluck(),
}));

export function prefixExpander(db: Db) {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.funding_vocab USING fts5vocab(main, funding_calls_fts, row)');
  const { generation, terms } = statements(db);
  const cache = new Map<string, string>();
  let seen = -1;

  return (fts: string): string => {
    const current = generation.get() as number;
    if (current !== seen) {
      cache.clear();
      seen = current;
    }
    // A prefix inside a phrase ("energ"* + "renov") stays a prefix: an OR cannot stand in a phrase.
    return fts.replace(/(?<!\+\s*)"((?:[^"]|"")+)"\*(?!\s*\+)/g, (whole, raw: string) => {
      const prefix = foldToken(raw.replace(/""/g, '"'));
      // Short prefixes are served by the prefix index; a multi-word string with a prefix stays as typed.
      if (!/^[\p{L}\p{N}]{4,}$/u.test(prefix)) return whole;
      let expanded = cache.get(prefix);
      if (expanded === undefined) {
        const found = terms.all({ lo: prefix, hi: prefix + '\u{10FFFF}', limit: MAX_TERMS + 1 }) as string[];
        expanded =
          found.length === 0 || found.length > MAX_TERMS ? whole : `(${found.map((t) => `"${t}"`).join(' OR ')})`;
        cache.set(prefix, expanded);
      }
      return expanded;
    });
  };
}

/**
 * Terms derived from a call's indexed fields (the `derived` column of the full-text index, migration
 * 012), so that the two costliest things a search asks of FTS5 become single-term lookups
 * (BENCHMARKS.md "Issue 13, third pass"):
 *
 *  - a title match, `{ids title} : "k"`, reads the position list of every call holding k in any field
 *    to keep the few holding it in an identifier or the title (15.6 ms for two common words on a
 *    million calls); `"_tk"` is those calls exactly.
 *  - a phrase, `"a" + "b"`, reads the positions of every call holding both words (35 ms for
 *    "action support"); `"_qa_b"` is the calls where key b follows key a in one field, `"_pa_b"` the
 *    same within an identifier or the title. A longer phrase is a phrase of pair terms
 *    (`"_qa_b" + "_qb_c"`): the pairs of a field are written in order, one position each, and runs are
 *    separated by `_`, so consecutive pair terms mean consecutive words of one field.
 *
 * Every derived term starts with `_`, which no word key holds (keys are letters and digits), so a
 * derived term never meets a word; the index makes `_` a token character (tokenchars '_').
 * Only plain keys (ASCII letters and digits) get derived terms: FTS5's unicode61 tokenizer may split or
 * fold another character differently from lib/funding/stem.ts, so a query holding such a key keeps the
 * column-filtered form (lib/funding/search-query.ts), which FTS5 evaluates itself.
 */

/** The fields of the index, in column order; the first two are the relevance's first tier. */
export const TEXT_FIELDS = ['ids', 'title', 'summary', 'funder', 'programme', 'region', 'body'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
const PRIMARY_FIELDS: readonly TextField[] = ['ids', 'title'];

/** Separates runs of pairs, and stands where a pair holds a key that is not plain. */
const BREAK = '_';

/** A key FTS5 tokenizes exactly as written: one token, nothing to fold. */
export const isPlainKey = (key: string): boolean => /^[a-z0-9]+$/.test(key);

/** The term of a key found in an identifier or the title. */
export const titleTerm = (key: string): string => `_t${key}`;

/** The term of key `b` right after key `a`: anywhere (`all`), or in an identifier or the title (`primary`). */
export const pairTerm = (a: string, b: string, scope: 'all' | 'primary'): string =>
  `_${scope === 'primary' ? 'p' : 'q'}${a}_${b}`;

function pairRun(keys: string[], scope: 'all' | 'primary', out: string[]): void {
  for (let i = 0; i + 1 < keys.length; i++) {
    const a = keys[i]!;
    const b = keys[i + 1]!;
    out.push(isPlainKey(a) && isPlainKey(b) ? pairTerm(a, b, scope) : BREAK);
  }
  out.push(BREAK);
}

/**
 * The derived column's text for a call, from each field's indexed keys (what `indexText` gave the
 * field's own column: keys separated by single spaces).
 */
export function derivedText(keyed: Readonly<Record<TextField, string | null>>): string {
  const keys = Object.fromEntries(
    TEXT_FIELDS.map((f) => [f, keyed[f] ? keyed[f]!.split(' ').filter(Boolean) : []]),
  ) as Record<TextField, string[]>;
  const out: string[] = [];
  const titleKeys = new Set<string>();
  for (const f of PRIMARY_FIELDS) for (const k of keys[f]) if (isPlainKey(k)) titleKeys.add(k);
  for (const k of titleKeys) out.push(titleTerm(k));
  out.push(BREAK);
  for (const f of PRIMARY_FIELDS) pairRun(keys[f], 'primary', out);
  for (const f of TEXT_FIELDS) pairRun(keys[f], 'all', out);
  return out.join(' ');
}

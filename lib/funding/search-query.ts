/**
 * The funding search language: parsed here (pure), then compiled into safe FTS5 MATCH expressions over
 * the stemmed index (lib/funding/stem.ts). What users write:
 *
 *   solar wind            every word must match (`and`/`AND` may be written between them); function
 *                         words ("for", "de", "para": ./stop-words.ts) are not required
 *   solar or wind         either (`or`, `OR` or `|`, any case); binds tighter than and
 *   -vino, not vino       excludes calls matching the term (`not`/`NOT` in any case, or a leading -)
 *   "energía renovable"   a phrase; "energ* renovable" a prefix inside a phrase; "energía sol"* too
 *   subvenc*              a prefix
 *   HORIZON-MISS-2026-02-CANCER-05, eu:HORIZON-…, 912345   an identifier: its parts as a phrase
 *
 * Each word is compiled into the keys the index holds for it in Spanish and in English (the query's
 * language is not known). The path of a search is parse (here) → expand (./search-expand.ts: the
 * vocabulary's other forms, typos) → match tiers (./search-tiers.ts) → page (db/funding/search.ts).
 * Every key is emitted as a quoted FTS5 string, so no character a user types reaches FTS5's own syntax:
 * input is either compiled safely or refused with a QueryError naming the problem, never a 500.
 */
import { isStopWord } from './stop-words.ts';
import { isPlainKey, pairTerm, titleTerm } from './derived-terms.ts';
import { fold, STEM_LANGUAGES, stemKey, words, type StemLanguage } from './stem.ts';

export class QueryError extends Error {}

export const MAX_TERMS = 32;

/** One word of an atom; `prefix`: written with a trailing `*`. */
export interface QueryWord {
  text: string;
  prefix: boolean;
}
/** A word, an identifier or a phrase: a sequence of words that must appear in this order. */
export interface Atom {
  words: QueryWord[];
  phrase: boolean;
}
/** The parsed query: every group must match (a group matches when any of its atoms does); no excluded atom may. */
export interface ParsedQuery {
  groups: Atom[][];
  excluded: Atom[];
}

type Token = { kind: 'atom'; atom: Atom; negated: boolean } | { kind: 'or' } | { kind: 'and' } | { kind: 'not' };

const OPERATORS = new Map<string, Token['kind']>([
  ['or', 'or'],
  ['|', 'or'],
  ['and', 'and'],
  ['&', 'and'],
  ['not', 'not'],
]);

/** The words of a piece of text, each with its prefix flag (a `*` right after it). */
function queryWords(text: string): QueryWord[] {
  const out: QueryWord[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+(\*?)/gu)) {
    for (const w of words(m[0])) out.push({ text: w, prefix: false });
    if (m[1] && out.length) out[out.length - 1]!.prefix = true;
  }
  return out;
}

/** An English possessive ending: 's or ’s after a letter, at the end of a token. */
const POSSESSIVE = /(?<=\p{L})['’]s$/iu;

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (/[\s()]/u.test(ch)) {
      i++;
      continue;
    }
    let negated = false;
    if (ch === '-' && i + 1 < input.length && !/[\s-]/u.test(input[i + 1]!)) {
      negated = true;
      i++;
    }
    if (input[i] === '"') {
      const end = input.indexOf('"', i + 1);
      let inner = input.slice(i + 1, end === -1 ? undefined : end); // an unclosed quote runs to the end
      i = end === -1 ? input.length : end + 1;
      if (input[i] === '*') {
        inner += '*';
        i++;
      }
      const ws = queryWords(inner);
      if (ws.length) tokens.push({ kind: 'atom', atom: { words: ws, phrase: true }, negated });
      continue;
    }
    let end = i;
    while (end < input.length && !/[\s()"]/u.test(input[end]!)) end++;
    const raw = input.slice(i, end);
    i = end;
    const op = negated ? undefined : OPERATORS.get(raw.toLowerCase());
    if (op) {
      tokens.push({ kind: op } as Token);
      continue;
    }
    // An English possessive is the word ("women's associations" asks for women's associations, not a
    // phrase "women s"); a quoted phrase keeps it, as the index holds it.
    const ws = queryWords(raw.replace(POSSESSIVE, ''));
    if (ws.length) tokens.push({ kind: 'atom', atom: { words: ws, phrase: false }, negated });
  }
  return tokens;
}

/** Parses `q`, or throws QueryError with a message for the user. */
export function parseSearch(q: string): ParsedQuery {
  // Control characters separate words: a NUL inside a quoted FTS5 string ends it early in SQLite.
  const tokens = tokenize(q.normalize('NFC').replace(/\p{Cc}/gu, ' '));
  const groups: Atom[][] = [];
  const excluded: Atom[] = [];
  let pendingOr = false;
  let pendingNot = false;
  let lastWasPositive = false;
  for (const t of tokens) {
    if (t.kind === 'and') {
      if (pendingOr || pendingNot) throw new QueryError('AND must stand between two terms, e.g. solar AND wind.');
      continue;
    }
    if (t.kind === 'or') {
      if (!lastWasPositive || pendingOr || pendingNot)
        throw new QueryError('OR must stand between two terms, e.g. solar OR wind.');
      pendingOr = true;
      continue;
    }
    if (t.kind === 'not') {
      if (pendingOr) throw new QueryError('OR cannot join an excluded term: write solar OR wind -vino.');
      if (pendingNot) throw new QueryError('NOT must come before a term, e.g. ayudas NOT vino.');
      pendingNot = true;
      continue;
    }
    const negated = t.negated || pendingNot;
    pendingNot = false;
    if (negated) {
      if (pendingOr) throw new QueryError('OR cannot join an excluded term: write solar OR wind -vino.');
      excluded.push(t.atom);
      lastWasPositive = false;
      continue;
    }
    if (pendingOr) groups[groups.length - 1]!.push(t.atom);
    else groups.push([t.atom]);
    pendingOr = false;
    lastWasPositive = true;
  }
  if (pendingOr) throw new QueryError('OR must stand between two terms, e.g. solar OR wind.');
  if (pendingNot) throw new QueryError('NOT must come before a term, e.g. ayudas NOT vino.');
  // Function words ("for", "de", "para") are not required words, unless they are all the query has.
  const meaningful = groups.filter((g) => !(g.length === 1 && isBareStopWord(g[0]!)));
  if (meaningful.length > 0 && meaningful.length < groups.length) groups.splice(0, groups.length, ...meaningful);
  const termCount = groups.reduce((n, g) => n + g.length, 0) + excluded.length;
  if (termCount === 0) throw new QueryError('contains no searchable words.');
  if (termCount > MAX_TERMS) throw new QueryError(`has more than ${MAX_TERMS} terms.`);
  if (groups.length === 0) throw new QueryError('has only excluded terms: say what to search for, e.g. ayudas -vino.');
  return { groups, excluded };
}

/** A bare word (not quoted, not a prefix) that is a function word (./stop-words.ts). */
const isBareStopWord = (a: Atom) =>
  !a.phrase && a.words.length === 1 && !a.words[0]!.prefix && isStopWord(a.words[0]!.text);

// ---- compilation to FTS5 ----

const quote = (key: string) => `"${key.replace(/"/g, '""')}"`;

/** The keys a prefix stands for in a language: the stem when the typed prefix starts with it, else the typed prefix. */
function prefixKey(word: string, language: StemLanguage): string {
  const typed = fold(word);
  const stem = stemKey(word, language);
  return stem.length >= 2 && typed.startsWith(stem) ? stem : typed;
}

function keyOf(w: QueryWord, language: StemLanguage): string {
  return w.prefix ? `${quote(prefixKey(w.text, language))}*` : quote(stemKey(w.text, language));
}

const anyOf = (alternatives: Iterable<string>): string => {
  const list = [...new Set(alternatives)];
  return list.length === 1 ? list[0]! : `(${list.join(' OR ')})`;
};

/** Where an atom must be found: any text field, or an identifier or the title (relevance's first tier). */
export type Scope = 'all' | 'primary';

/** The fields whose match ranks a call first (docs/decisions.md "What a search matches"). */
const PRIMARY_COLUMNS = '{ids title}';
/** The fields text is searched in: every column but `facets` and `derived` (db/migrations/012_funding_derived_terms.sql). */
const TEXT_COLUMNS = '{ids title summary funder programme region body}';
const columnsOf = (scope: Scope) => (scope === 'primary' ? PRIMARY_COLUMNS : TEXT_COLUMNS);

/**
 * One language's keys of a word sequence in a scope. Plain keys use the index's derived terms
 * (lib/funding/derived-terms.ts): a phrase is a phrase of pair terms, a word in the title one term.
 * Anywhere else a word needs no column filter (only the text columns hold word keys; derived and
 * facet terms start with `_`); in the title, a prefix or a key FTS5 might tokenize differently keeps
 * FTS5's own column filter. `derived: false` is FTS5's phrases and column filters only.
 */
function keysIn(ws: QueryWord[], language: StemLanguage, scope: Scope, derived: boolean): string {
  const own = ws.map((w) => keyOf(w, language)).join(' + ');
  if (!derived) return `${columnsOf(scope)} : (${own})`;
  const keys = ws.map((w) => (w.prefix ? null : stemKey(w.text, language)));
  const plain = keys.every((k) => k !== null && isPlainKey(k)) ? (keys as string[]) : null;
  if (plain && plain.length > 1)
    return plain
      .slice(1)
      .map((k, i) => quote(pairTerm(plain[i]!, k, scope)))
      .join(' + ');
  if (scope === 'all') return own;
  return plain ? quote(titleTerm(plain[0]!)) : `${PRIMARY_COLUMNS} : (${own})`;
}

/**
 * One atom as an FTS5 expression in a scope: its keys in both languages (the query's language is not
 * known). The vocabulary's other forms are added by the expansion stage (./search-expand.ts).
 * `derived: false` compiles to FTS5's own phrases and column filters only (the reference the derived
 * terms are tested against).
 */
export function compileAtom(atom: Atom, scope: Scope = 'all', derived = true): string {
  return anyOf(STEM_LANGUAGES.map((l) => keysIn(atom.words, l, scope, derived)));
}

/**
 * Words (a label of the vocabulary) under both stemmers: anywhere, as if typed (every one: "igualdad de
 * género" finds what the query igualdad género finds); in an identifier or the title, as a phrase (a
 * title that holds the label ranks first, not one that holds its words apart).
 */
export function compileWords(ws: readonly string[], scope: Scope, derived = true): string {
  if (scope === 'primary')
    return compileAtom({ words: ws.map((text) => ({ text, prefix: false })), phrase: true }, scope, derived);
  const each = ws.map((text) => compileAtom({ words: [{ text, prefix: false }], phrase: false }, scope, derived));
  return each.length === 1 ? each[0]! : `(${each.join(' AND ')})`;
}

/** The region filter: a match of every word in the region field. Throws QueryError when it has no word. */
export function compileRegion(region: string): string {
  const ws = queryWords(region.normalize('NFC').replace(/\p{Cc}/gu, ' ')).map((w) => ({ ...w, prefix: false }));
  if (ws.length === 0) throw new QueryError('region contains no searchable words.');
  const inField = (w: QueryWord) => anyOf(STEM_LANGUAGES.map((l) => keyOf(w, l)));
  return `{region} : (${ws.map(inField).join(' AND ')})`;
}

export { anyOf, quote };

/** An index key (a typo's correction) in a scope. */
export function compileKey(key: string, scope: Scope): string {
  if (scope === 'all') return quote(key);
  return isPlainKey(key) ? quote(titleTerm(key)) : `${PRIMARY_COLUMNS} : (${quote(key)})`;
}

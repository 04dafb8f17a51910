/**
 * The match tiers of a search (parse → expand → match tiers → page): the expanded units
 * (./search-expand.ts) compiled into FTS5 expressions, in the order relevance reads them.
 *
 * Full matches (every unit) come first, in the tiers of docs/decisions.md "What a search matches":
 * the words as typed in an identifier or the title, then the title by another form, then every other
 * full match. Then, for sort=relevance, the partial matches: calls holding some units but not all, one
 * tier per set of units held, more units first, and among as many the rarer ones first (`weights`).
 * Each partial tier is exact (the calls holding that set and no other unit), so no call is in two
 * tiers and a cursor names one. A query of n units reads the sets of n−1 units down to half of them
 * (down to one for two or three units), at most MAX_PARTIAL_TIERS.
 */
import {
  anyOf,
  compileAtom,
  compileKey,
  compileRegion,
  compileWords,
  parseSearch,
  type Scope,
} from './search-query.ts';
import { expandQuery, type Corpus, type ExpandedQuery, type Unit } from './search-expand.ts';
import { shippedVocabulary, type Vocabulary } from './vocabulary.ts';

/** One tier: its expression and the units its calls lack (indexes into FtsQuery.units). */
export interface Tier {
  match: string;
  missing: number[];
}

export interface FtsQuery {
  /** Every full match of the text (and the region filter): what `total` counts. */
  all: string;
  /** Full matches in an identifier or the title. Null without text. */
  primary: string | null;
  /** The other full matches. Null without text. */
  secondary: string | null;
  /** The units' texts as typed. */
  units: string[];
  /** Relevance's tiers, in order (empty without text). */
  tiers: Tier[];
  /** The number of full-match tiers at the head of `tiers`. */
  fullTiers: number;
  /** Each unit anywhere (for its weight). */
  unitMatches: string[];
}

export const MAX_PARTIAL_TIERS = 20;
/** The most tiers a search reads: full (3) and partial; a cursor names one. */
export const MAX_TIERS = 3 + MAX_PARTIAL_TIERS;

/** A unit in a scope: as typed (and its typo corrections), or with its forms too; loose forms only anywhere. */
function unitIn(u: Unit, scope: Scope, expanded: boolean, derived: boolean): string {
  const typed = u.typed.map((g) => anyOf(g.map((a) => compileAtom(a, scope, derived))));
  const own = typed.length === 1 ? typed[0]! : `(${typed.join(' AND ')})`;
  const alternatives = [own, ...u.typos.map((k) => compileKey(k, scope))];
  if (expanded) for (const ws of u.forms) alternatives.push(compileWords(ws, scope, derived));
  if (expanded && scope === 'all') for (const ws of u.loose) alternatives.push(compileWords(ws, scope, derived));
  return anyOf(alternatives);
}

/** The sets of units partial tiers read, best first. */
function partialSets(n: number, weights: readonly number[]): number[][] {
  if (n < 2) return [];
  const least = n <= 3 ? 1 : Math.ceil(n / 2);
  const sets: number[][] = [];
  for (let mask = 1; mask < (1 << n) - 1; mask++) {
    const set = [...Array(n).keys()].filter((i) => mask & (1 << i));
    if (set.length >= least) sets.push(set);
  }
  const weight = (s: number[]) => s.reduce((t, i) => t + (weights[i] ?? 1), 0);
  sets.sort((a, b) => b.length - a.length || weight(b) - weight(a) || a[0]! - b[0]!);
  return sets.slice(0, MAX_PARTIAL_TIERS);
}

/**
 * The tiers of an expanded query. `weights`: each unit's weight (rarer: more), for the order of the
 * partial tiers; `partial: false` reads full matches only (another sort than relevance).
 */
export function compileTiers(
  q: ExpandedQuery,
  region: string | null,
  options: { derived?: boolean; weights?: readonly number[]; partial?: boolean } = {},
): FtsQuery {
  const derived = options.derived ?? true;
  const andRegion = region ? ` AND ${region}` : '';
  const excluded = q.excluded.length ? ` NOT ${anyOf(q.excluded.map((a) => compileAtom(a, 'all', derived)))}` : '';
  const each = (scope: Scope, expanded: boolean) => q.units.map((u) => unitIn(u, scope, expanded, derived));
  const unitMatches = each('all', true);
  const positive = unitMatches.join(' AND ');
  const primary = each('primary', true).join(' AND ');
  // An English "internships" first finds the offers titled so, then the Spanish "prácticas" it expands to.
  const own = each('primary', false).join(' AND ');
  const all = `(${positive})${andRegion}${excluded}`;
  const tiers: Tier[] = (
    own === primary
      ? [`(${primary})${andRegion}${excluded}`]
      : [`(${own})${andRegion}${excluded}`, `(${primary})${andRegion} NOT (${own})${excluded}`]
  ).map((match) => ({ match, missing: [] }));
  const secondary = `(${positive})${andRegion} NOT (${primary})${excluded}`;
  tiers.push({ match: secondary, missing: [] });
  const fullTiers = tiers.length;
  if (options.partial !== false)
    for (const set of partialSets(q.units.length, options.weights ?? [])) {
      const missing = q.units.map((_, i) => i).filter((i) => !set.includes(i));
      const held = set.map((i) => unitMatches[i]!).join(' AND ');
      tiers.push({
        match: `(${held})${andRegion} NOT (${missing.map((i) => unitMatches[i]!).join(' OR ')})${excluded}`,
        missing,
      });
    }
  return {
    all,
    primary: `(${primary})${andRegion}${excluded}`,
    secondary,
    units: q.units.map((u) => u.text),
    tiers,
    fullTiers,
    unitMatches,
  };
}

/** A region-only search: no tiers. */
const regionOnly = (region: string): FtsQuery => ({
  all: region,
  primary: null,
  secondary: null,
  units: [],
  tiers: [],
  fullTiers: 0,
  unitMatches: [],
});

/**
 * The FTS5 expressions for `q` and a `region` filter, or null when neither is given, expanded from
 * the shipped vocabulary alone (every form, no typos, partial tiers in the query's order): what the
 * tests compare with the index. Searches expand against the corpus (db/funding/search-expand.ts).
 * Throws QueryError for a `q` or region that cannot be searched.
 */
export function toFtsQuery(
  q: string | null | undefined,
  region?: string | null,
  derived = true,
  corpus: Corpus | null = null,
  vocabulary: Vocabulary = shippedVocabulary(),
): FtsQuery | null {
  const inRegion = region !== undefined && region !== null ? compileRegion(region) : null;
  if (q === undefined || q === null) return inRegion ? regionOnly(inRegion) : null;
  return compileTiers(expandQuery(parseSearch(q), vocabulary, corpus), inRegion, { derived });
}

/**
 * The expansion stage of a search (parse → expand → match tiers → page): a parsed query
 * (./search-query.ts) becomes units, each a thing the query asks for, with the other forms that find
 * it. ./search-tiers.ts compiles the units into relevance tiers. Pure: what the corpus holds comes
 * from `Corpus` (db/funding/search-expand.ts asks the full-text index).
 *
 * - Each group of the query (a word, a phrase, an identifier, words joined by OR) is a unit: what a
 *   partial match counts and names ("not matching: pymes").
 * - A run of plain words that is a label of the vocabulary (./vocabulary.ts), the longest first, finds
 *   the label's other forms, each of which stands for every word of the run: "gender equality" finds
 *   "igualdad de género", "pymes" finds "pequeñas y medianas empresas". A form is searched as if typed (its content words, anywhere in a call), and only when
 *   the corpus holds it.
 * - A quoted word is taken literally: no vocabulary, no typos.
 * - A plain word of five letters or more that the corpus does not hold and the vocabulary does not
 *   know is corrected to the words one edit away (two for nine letters or more) among the titles' and
 *   the vocabulary's labels' words: "discapacidd" finds discapacidad; "disabilty" is corrected to the
 *   label word "disability" and then expanded like it (to "discapacidad"), alone or in a run
 *   ("gender equallity"). Identifiers and numbers never are. A word the corpus holds is not
 *   corrected: its own matches rank first by construction.
 */
import { spanishCognates } from './cognates.ts';
import { compileWords, type Atom, type ParsedQuery } from './search-query.ts';
import { fold, STEM_LANGUAGES, stemKey } from './stem.ts';
import { conceptsOf, labelWords, type Vocabulary } from './vocabulary.ts';

/** One thing the query asks for: a group of the parsed query. */
export interface Unit {
  /** The group as typed (what a client shows as "not matching"). */
  text: string;
  /** The query's own group (one): it matches when one of its atoms does. */
  typed: Atom[][];
  /** Other forms found by the vocabulary (words, each searched as if typed): they rank with the typed words' title matches. */
  forms: string[][];
  /** Forms that are narrower or related terms (target-only labels): found, never in the title tiers. */
  loose: string[][];
  /** Index keys near a typed word the corpus does not hold. */
  typos: string[];
}

export interface ExpandedQuery {
  units: Unit[];
  excluded: Atom[];
}

/** What the expansion asks of the corpus; null expands from the vocabulary alone (no typos). */
export interface Corpus {
  /** Whether an FTS5 expression matches any call. */
  occurs(fts: string): boolean;
  /** The words near `word` (folded), nearest first, when the corpus does not hold it; empty otherwise. */
  typos(word: string): string[];
}

/** A group that is one plain word: it can be part of a label, or corrected. */
const plainWord = (g: Atom[]): string | null => {
  const ws = boundWords(g);
  return ws?.length === 1 ? ws[0]! : null;
};

/**
 * The words of a group that is one unquoted atom without a prefix: one word, or the words a hyphen
 * binds ("self-employed", "low-income"), which a label may hold ("self-employed worker").
 */
const boundWords = (g: Atom[]): string[] | null => {
  if (g.length !== 1) return null;
  const a = g[0]!;
  return !a.phrase && a.words.every((w) => !w.prefix) ? a.words.map((w) => w.text) : null;
};

/** The shortest word a typo is looked for in, and the length from which two edits are allowed. */
export const TYPO_MIN_LENGTH = 5;
export const TWO_TYPOS_LENGTH = 9;

const typoCandidate = (word: string) => word.length >= TYPO_MIN_LENGTH && !/\p{N}/u.test(word);

/** The text a user typed for a group (an OR group joined with " OR ", a phrase quoted). */
const groupText = (g: Atom[]) =>
  g
    .map((a) => {
      const ws = a.words.map((w) => w.text + (w.prefix ? '*' : '')).join(a.phrase ? ' ' : '-');
      return a.phrase ? `"${ws}"` : ws;
    })
    .join(' OR ');

/** A concept's label forms the corpus holds, but the one typed; `loose`: its target-only labels. */
function formsOf(
  concepts: number[],
  typed: string,
  vocabulary: Vocabulary,
  corpus: Corpus | null,
  into: Pick<Unit, 'forms' | 'loose'>,
): void {
  const seen = new Set([typed, ...[...into.forms, ...into.loose].map((ws) => ws.join(' '))]);
  const run = typed.split(' ');
  const runKeys = new Set(run.flatMap((w) => STEM_LANGUAGES.map((l) => stemKey(w, l))));
  for (const c of concepts) {
    const concept = vocabulary.concepts[c]!;
    const targetOnly = new Set(concept.target_only ?? []);
    for (const label of [...concept.en, ...concept.es]) {
      const ws = labelWords(label);
      const key = ws?.join(' ');
      if (!ws || seen.has(key!)) continue;
      seen.add(key!);
      // A label that is a piece of the run typed ("camps" of "summer camps") is no other form of it:
      // standing for every word of the run, it would let "summer" match any camp (or campo).
      if (
        run.length > 1 &&
        ws.length < run.length &&
        ws.every((w) => STEM_LANGUAGES.some((l) => runKeys.has(stemKey(w, l))))
      )
        continue;
      if (corpus && !corpus.occurs(compileWords(ws, 'all'))) continue;
      (targetOnly.has(label) ? into.loose : into.forms).push(ws);
    }
  }
}

/** The plain word of each atom of a group that has one (words joined by OR each have theirs). */
const plainAtoms = (g: Atom[]): string[] =>
  g.filter((a) => !a.phrase && a.words.length === 1 && !a.words[0]!.prefix).map((a) => a.words[0]!.text);

export function expandQuery(parsed: ParsedQuery, vocabulary: Vocabulary, corpus: Corpus | null): ExpandedQuery {
  const groups = parsed.groups;
  const units: Unit[] = groups.map((g) => ({ text: groupText(g), typed: [g], forms: [], loose: [], typos: [] }));
  // Each plain word's own labels ("movilidad" → mobility), then typos for a word with none the corpus
  // holds: each near word is searched as its keys, and expanded as a label when it is one.
  const corrected: Array<string | null> = groups.map(() => null);
  groups.forEach((g, i) => {
    const unit = units[i]!;
    for (const w of plainAtoms(g)) formsOf(conceptsOf(vocabulary, [w]), w, vocabulary, corpus, unit);
    const bound = boundWords(g);
    if (bound && bound.length > 1) formsOf(conceptsOf(vocabulary, bound), bound.join(' '), vocabulary, corpus, unit);
    const w = plainWord(g);
    if (w === null || !corpus || unit.forms.length > 0 || unit.loose.length > 0) return;
    // No label: its Spanish cognate by a learned suffix, where the corpus holds it (prevention →
    // prevención), whether or not an English call holds the word itself.
    const cognates = spanishCognates(w);
    // One probe for all the candidates; most words have none the corpus holds.
    if (cognates.length > 0 && corpus.occurs(cognates.map((c) => compileWords([c], 'all')).join(' OR ')))
      for (const c of cognates) if (corpus.occurs(compileWords([c], 'all'))) unit.forms.push([c]);
    if (unit.forms.length > 0) return;
    // A narrower or related term EuroVoc posts up ("beekeeping" under apiculture) is not looked up
    // where the corpus holds it (it has its own meaning there), but a word no call holds would find
    // nothing: then it finds its concept's labels.
    if (!corpus.occurs(compileWords([w], 'all'))) {
      formsOf(conceptsOf(vocabulary, [w], true), w, vocabulary, corpus, unit);
      if (unit.forms.length > 0 || unit.loose.length > 0) return;
    }
    if (!typoCandidate(w)) return;
    if (vocabulary.words.has(fold(w))) return; // a label's word ("gender" of "gender equality") is no typo
    const near = corpus.typos(w);
    unit.typos = [...new Set(near.flatMap((n) => STEM_LANGUAGES.map((l) => stemKey(n, l))))];
    for (const n of near) formsOf(conceptsOf(vocabulary, [n]), n, vocabulary, corpus, unit);
    corrected[i] = near[0] ?? null;
  });
  // Runs of two words or more that are a label, the longest first: their forms stand for every word.
  // A group's words are one word, or the words a hyphen binds ("self-employed workers").
  for (let i = 0; i < groups.length;) {
    const plain: string[][] = [];
    const fixed: string[][] = [];
    for (let j = i; j < groups.length && j - i < vocabulary.maxWords; j++) {
      const ws = boundWords(groups[j]!);
      if (ws === null) break;
      plain.push(ws);
      fixed.push(ws.length === 1 && corrected[j] ? [corrected[j]!] : ws);
    }
    let run = 1;
    for (let n = plain.length; n >= 2; n--) {
      // As typed, then with its typos corrected ("gender equallity" is the label "gender equality").
      const typed = plain.slice(0, n).flat();
      let concepts = typed.length <= vocabulary.maxWords ? conceptsOf(vocabulary, typed) : [];
      const right = fixed.slice(0, n).flat();
      if (concepts.length === 0 && right.some((w, k) => w !== typed[k])) concepts = conceptsOf(vocabulary, right);
      if (concepts.length === 0) continue;
      const found: Pick<Unit, 'forms' | 'loose'> = { forms: [], loose: [] };
      formsOf(concepts, typed.join(' '), vocabulary, corpus, found);
      for (let j = i; j < i + n; j++) {
        units[j]!.forms.push(...found.forms);
        units[j]!.loose.push(...found.loose);
      }
      run = n;
      break;
    }
    i += run;
  }
  return { units, excluded: parsed.excluded };
}

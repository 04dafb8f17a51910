/**
 * The bilingual vocabulary a search is expanded with (docs/decisions.md "Issue 34: the vocabulary"):
 * EuroVoc's English and Spanish labels (data/funding/eurovoc/, © European Union) and the hand-made
 * glossary's groups (./glossary.json) for the pairs people use that EuroVoc lacks (its Spanish for
 * energy efficiency is "rendimiento energético", calls say "eficiencia energética"; it has no Catalan).
 *
 * A concept is a set of labels in each language; a run of query words that is one of its labels
 * (compared on stemmed content words: "elderly people" is the label "elderly person", "igualdad de
 * género" is "igualdad género") finds the concept's other labels. Which labels a concept keeps:
 *
 * - Preferred labels, always.
 * - Alternative labels (EuroVoc's non-descriptors: abbreviations, spellings, former names, but also
 *   narrower and related terms posted up), except an opposite: a label that holds a negated word of
 *   its concept ("non-renewable energy" and "energía no renovable" under renewable energy,
 *   "desigualdad de género" under gender equality). The rest are kept; what a search looks for is
 *   further limited to labels that occur in the corpus (db/funding/search-expand.ts), and the words as
 *   typed rank before any label they found.
 * - A word that is a label of one concept in English and of another in Spanish is a false friend
 *   ("once", "actual", "éxito"…): it is not expanded, since the query's language is not known.
 *
 * Pure: the caller reads the shipped files and passes their text; the same text builds the same
 * vocabulary (tests/lib/funding/vocabulary.test.ts).
 */
import eurovocFile from '../../data/funding/eurovoc/vocabulary.json' with { type: 'json' };
import glossaryFile from './glossary.json' with { type: 'json' };
import { isStopWord, stopWords } from './stop-words.ts';
import { fold, STEM_LANGUAGES, stemKey, words, type StemLanguage } from './stem.ts';

/** A concept's labels in each language; Catalan glossary forms are searched with the Spanish ones. */
export interface Concept {
  id: string;
  en: readonly string[];
  es: readonly string[];
  /** Labels searched for but not looked up (typing one does not expand it): see `isTargetOnly`. */
  target_only?: readonly string[];
}

export interface GlossaryGroupData {
  en: readonly string[];
  es: readonly string[];
  ca: readonly string[];
}

export interface Vocabulary {
  concepts: readonly Concept[];
  /**
   * `lang:key key…` (a label's stemmed content words) → the concepts holding that label, with the
   * label's folded word when it is one word (a one-word run must be that word, up to a plural).
   */
  byKeys: ReadonlyMap<string, ReadonlyArray<{ concept: number; word: string | null; abbreviation: boolean }>>;
  /**
   * The same for the target-only labels (one word each): looked up only for a typed word the corpus
   * does not hold ("beekeeping", EuroVoc's non-descriptor of apiculture, over Spanish calls), where
   * the word alone would find nothing (lib/funding/search-expand.ts).
   */
  byTargetKeys: ReadonlyMap<string, ReadonlyArray<{ concept: number; word: string | null; abbreviation: boolean }>>;
  /** The most content words of a label. */
  maxWords: number;
  /** Words not expanded because each language's label means another thing. */
  falseFriends: ReadonlySet<string>;
  /**
   * The words of the labels typing finds (both languages; target-only labels are not looked up, so not
   * here), folded, of letters only, four or more, no function words: a word here is not a typo, and a
   * typo may be corrected to one (db/funding/typo-index.ts). An English word with a typo has no
   * Spanish title word to be corrected to; corrected to a label's word, it is expanded like the word.
   */
  words: ReadonlySet<string>;
}

/** Words that negate what follows, in either language. */
const NEGATIONS = new Set(['non', 'no', 'not', 'sin', 'without']);
/** Prefixes that make an opposite of a concept word ("desigualdad" of "igualdad", "inequality"). */
const NEGATING_PREFIXES = ['non', 'des', 'in', 'un', 'dis', 'anti', 'no'];

/**
 * An alternative label that says the opposite of its concept: it holds a negation word, or a concept
 * word with a negating prefix ("gender inequality" under gender equality).
 */
export function isOpposite(label: string, conceptWords: ReadonlySet<string>): boolean {
  const ws = words(label).flatMap((w) => fold(w).split('-'));
  for (const w of ws) {
    if (NEGATIONS.has(w)) return true;
    for (const p of NEGATING_PREFIXES) {
      const rest = w.startsWith(p) ? w.slice(p.length).replace(/^-/, '') : null;
      if (rest && rest.length >= 4 && conceptWords.has(rest)) return true;
    }
  }
  return false;
}

/** An abbreviation as EuroVoc writes one: PYME, SMEs, CEEI. */
const isAbbreviation = (label: string) => /^\p{Lu}{2,}s?$/u.test(label.trim());

/**
 * A one-word alternative label that is not an abbreviation and shares no word with its preferred
 * label is a narrower or related term posted up ("eficiencia" under productividad, "ganadero" under
 * agricultor, "anciano" under tercera edad): in the corpus such a word has its own meaning, so typing
 * it does not expand to the concept; the concept's other labels still find it.
 */
export function isTargetOnly(alt: string, pref: string, lang: StemLanguage): boolean {
  if (words(alt).length !== 1 || isAbbreviation(alt)) return false;
  const prefKeys = new Set(labelKey(pref, lang).split(' '));
  return !prefKeys.has(labelKey(alt, lang));
}

/**
 * English keys that name the same thing: a label says "elderly person", people type "elderly people".
 * (Stems; Snowball keeps "people" apart from "person".)
 */
const KEY_ALIASES: Readonly<Record<string, string>> = { peopl: 'person' };

/** A label's (or a query run's) key in a language: its content words stemmed, function words left out. */
export function labelKey(text: string | readonly string[], lang: StemLanguage): string {
  const ws = typeof text === 'string' ? words(text) : text;
  return ws
    .filter((w) => !isStopWord(w))
    .map((w) => {
      const k = stemKey(w, lang);
      return lang === 'en' ? (KEY_ALIASES[k] ?? k) : k;
    })
    .join(' ');
}

/** Keys of the function words: a label word with one of them ("parado", Spanish key "par", as "para") finds everything. */
const STOP_KEYS = new Set([...Array.from(stopWords())].flatMap((w) => STEM_LANGUAGES.map((l) => stemKey(w, l))));

/**
 * A label's words searched for, as if typed: its content words (every one must match, anywhere), or
 * null when one of them shares its key with a function word.
 */
export function labelWords(label: string): string[] | null {
  const content = words(label).filter((w) => !isStopWord(w));
  if (content.length === 0) return null;
  return content.some((w) => STEM_LANGUAGES.some((l) => STOP_KEYS.has(stemKey(w, l)))) ? null : content;
}

/** Rows of the shipped TSV (concept_id, lang, pref_label, alt_labels joined by " | "). */
function* rows(tsv: string): Generator<[id: string, lang: string, pref: string, alts: string[]]> {
  const lines = tsv.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) continue;
    const [id, lang, pref, alts] = line.split('\t');
    yield [id!, lang!, pref!, alts ? alts.split(' | ') : []];
  }
}

export interface DroppedLabel {
  concept: string;
  lang: StemLanguage;
  label: string;
  reason: 'opposite';
}

/**
 * EuroVoc's concepts with the labels the rule keeps, from the shipped TSV and its English supplement,
 * in the file's order; a concept without a label in both languages finds nothing across languages and
 * is left out.
 */
export function eurovocConcepts(eurovoc: string, supplement: string): { concepts: Concept[]; dropped: DroppedLabel[] } {
  const labels = new Map<string, { en: string[]; es: string[]; alts: { en: string[]; es: string[] } }>();
  for (const source of [eurovoc, supplement])
    for (const [id, lang, pref, alts] of rows(source)) {
      if (lang !== 'en' && lang !== 'es') continue;
      let e = labels.get(id);
      if (!e) labels.set(id, (e = { en: [], es: [], alts: { en: [], es: [] } }));
      if (e[lang].length === 0) e[lang].push(pref);
      e.alts[lang].push(...alts);
    }
  const concepts: Concept[] = [];
  const dropped: DroppedLabel[] = [];
  for (const [id, e] of labels) {
    if (e.en.length === 0 || e.es.length === 0) continue;
    const conceptWords = new Set([...e.en, ...e.es].flatMap((l) => words(l).map(fold)));
    const kept = { en: [...e.en], es: [...e.es] };
    const targetOnly: string[] = [];
    for (const lang of ['en', 'es'] as const)
      for (const alt of e.alts[lang]) {
        if (isOpposite(alt, conceptWords)) dropped.push({ concept: id, lang, label: alt, reason: 'opposite' });
        else if (!kept[lang].includes(alt)) {
          kept[lang].push(alt);
          if (isTargetOnly(alt, e[lang][0]!, lang)) targetOnly.push(alt);
        }
      }
    concepts.push(targetOnly.length > 0 ? { id, ...kept, target_only: targetOnly } : { id, ...kept });
  }
  return { concepts, dropped };
}

/**
 * The lookup of concepts (EuroVoc's that occur in the corpus, data/funding/eurovoc/vocabulary.json, and
 * the glossary's groups). A glossary form is never a false friend: its group was written by hand.
 */
export function buildVocabulary(eurovoc: readonly Concept[], glossary: readonly GlossaryGroupData[]): Vocabulary {
  const concepts: Concept[] = [
    ...eurovoc,
    ...glossary.map((g, i) => ({ id: `glossary:${i}`, en: g.en, es: [...g.es, ...g.ca] })),
  ];
  const glossaryForms = new Set(glossary.flatMap((g) => [...g.en, ...g.es, ...g.ca]).map(fold));
  const byKeys = new Map<string, Array<{ concept: number; word: string | null; abbreviation: boolean }>>();
  const byTargetKeys = new Map<string, Array<{ concept: number; word: string | null; abbreviation: boolean }>>();
  let maxWords = 1;
  const oneWord = new Map<string, { en: Set<number>; es: Set<number> }>();
  concepts.forEach((c, i) => {
    const targetOnly = new Set(c.target_only ?? []);
    for (const lang of ['en', 'es'] as const)
      for (const label of c[lang]) {
        const key = labelKey(label, lang);
        if (!key) continue;
        if (targetOnly.has(label)) {
          const list = byTargetKeys.get(`${lang}:${key}`) ?? [];
          const word = fold(words(label)[0]!);
          if (!list.some((e) => e.concept === i)) list.push({ concept: i, word, abbreviation: false });
          byTargetKeys.set(`${lang}:${key}`, list);
          continue;
        }
        maxWords = Math.max(maxWords, key.split(' ').length);
        const ws = words(label);
        const word = ws.length === 1 ? fold(ws[0]!) : null;
        const list = byKeys.get(`${lang}:${key}`) ?? [];
        // An abbreviation is matched as written ("aid" is not AIDS).
        if (!list.some((e) => e.concept === i && e.word === word))
          list.push({ concept: i, word, abbreviation: isAbbreviation(label) });
        byKeys.set(`${lang}:${key}`, list);
        if (ws.length === 1) {
          const w = fold(ws[0]!);
          let k = oneWord.get(w);
          if (!k) oneWord.set(w, (k = { en: new Set(), es: new Set() }));
          k[lang].add(i);
        }
      }
  });
  const falseFriends = new Set<string>();
  for (const [w, k] of oneWord)
    if (!glossaryForms.has(w) && k.en.size > 0 && k.es.size > 0 && ![...k.en].some((i) => k.es.has(i)))
      falseFriends.add(w);
  return {
    concepts,
    byKeys,
    byTargetKeys,
    maxWords: Math.min(maxWords, MAX_RUN),
    falseFriends,
    words: labelWordSet(concepts),
  };
}

/** The longest run of query words looked up as one label. */
const MAX_RUN = 6;

/** English plurals no ending rule gives (Snowball keeps each apart from its singular). */
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = {
  children: 'child',
  people: 'person',
  men: 'man',
  feet: 'foot',
  teeth: 'tooth',
  mice: 'mouse',
  geese: 'goose',
  oxen: 'ox',
  criteria: 'criterion',
  phenomena: 'phenomenon',
};

/**
 * A word's folded forms without a plural ending, regular and irregular, in either language (books →
 * book, companies → company, taxes → tax, women → woman, fishermen → fisherman, calves → calf or
 * calfe, lives → life, analyses → analysis, jóvenes → joven, arroces → arroz). Candidates, not
 * answers: a form counts only where it is a label ("archives" also gives "archif", which none is).
 */
export function singulars(word: string): string[] {
  const w = fold(word);
  const out = [w];
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular) out.push(irregular);
  // -men → -man from five letters (women, fishermen), so "omen" and "amen" stay themselves.
  if (w.length >= 5 && w.endsWith('men')) out.push(w.slice(0, -3) + 'man');
  if (w.endsWith('ves')) out.push(w.slice(0, -3) + 'f', w.slice(0, -3) + 'fe');
  if (w.endsWith('ses')) out.push(w.slice(0, -2) + 'is');
  if (w.endsWith('ces')) out.push(w.slice(0, -3) + 'z');
  if (w.endsWith('ies')) out.push(w.slice(0, -3) + 'y');
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  return [...new Set(out)];
}

/**
 * The forms of a word in a run of two or more looked up besides the word itself: its irregular
 * singulars only (Snowball already joins "farmers" and "farmer", but not "women" and "woman", "lives"
 * and "life", "skies" and "sky").
 */
function runForms(word: string): string[] {
  const w = fold(word);
  return singulars(w).filter((s) => s === w || !(w === s + 's' || w === s + 'es'));
}

/** Key combinations looked up for one run: bounded, since most words have one key. */
const MAX_RUN_KEYS = 32;

/** The keys a run of query words is looked up by in a language: each word's key, or one of its singulars'. */
function runKeys(run: readonly string[], lang: StemLanguage): string[] {
  let keys = [''];
  for (const w of run) {
    if (isStopWord(w)) continue;
    const own = new Set(
      runForms(w)
        .map((f) => labelKey([f], lang))
        .filter(Boolean),
    );
    keys = keys.flatMap((k) => [...own].map((o) => (k ? `${k} ${o}` : o))).slice(0, MAX_RUN_KEYS);
  }
  return keys.filter(Boolean);
}

/**
 * Whether a typed word is a one-word label: the same word up to a plural ending. Stems alone would
 * join words of another meaning that share one ("ayudas" and "ayudante", "water" and "watering").
 */
const sameWord = (typed: string, label: { word: string; abbreviation: boolean }): boolean =>
  singulars(typed).includes(label.word) || (!label.abbreviation && singulars(label.word).includes(fold(typed)));

/**
 * The concepts a run of query words is a label of, looked up in each language by its keys; none for a
 * false friend (a single word labelled differently in each language).
 */
export function conceptsOf(vocabulary: Vocabulary, run: readonly string[], targetOnly = false): number[] {
  if (run.length === 1 && vocabulary.falseFriends.has(fold(run[0]!))) return [];
  if (targetOnly && run.length !== 1) return [];
  const index = targetOnly ? vocabulary.byTargetKeys : vocabulary.byKeys;
  const found = new Set<number>();
  // One word: its singular's key too (Snowball leaves "pymes" apart from "pyme").
  const runs = run.length === 1 ? singulars(run[0]!).map((w) => [w]) : [run];
  for (const lang of ['en', 'es'] as const)
    for (const key of new Set(run.length === 1 ? runs.map((r) => labelKey(r, lang)) : runKeys(run, lang)))
      if (key)
        for (const e of index.get(`${lang}:${key}`) ?? [])
          if (e.word === null || run.length > 1 || sameWord(run[0]!, { word: e.word, abbreviation: e.abbreviation }))
            found.add(e.concept);
  return [...found];
}

/** Vocabulary.words: the words of the looked-up labels. */
function labelWordSet(concepts: readonly Concept[]): Set<string> {
  const out = new Set<string>();
  for (const c of concepts) {
    const targetOnly = new Set(c.target_only ?? []);
    for (const label of [...c.en, ...c.es])
      if (!targetOnly.has(label))
        for (const w of words(label)) if (w.length >= 4 && !isStopWord(w) && /^\p{L}+$/u.test(w)) out.add(fold(w));
  }
  return out;
}

/** The words a typo may be corrected to besides the corpus's titles' (Vocabulary.words), sorted. */
export const typoWords = (vocabulary: Vocabulary): string[] => [...vocabulary.words].sort();

let shipped: Vocabulary | undefined;

/**
 * The vocabulary searches use: the shipped EuroVoc concepts found in the corpus and the glossary's
 * groups, built on first use (about 1,100 concepts: tens of milliseconds).
 */
export function shippedVocabulary(): Vocabulary {
  return (shipped ??= buildVocabulary(eurovocFile.concepts, glossaryFile.groups));
}

/**
 * Words to index keys: the one normalisation the funding index and the query compiler share, so a word
 * is found whatever form of it was written on either side.
 *
 * - Words are runs of letters and digits (what FTS5's unicode61 tokenizer calls a token), so the key
 *   stream FTS5 re-tokenizes has one key per word and phrases keep their positions.
 * - Stemming is Snowball (the `@orama/stemmers` build of the Snowball Spanish and English algorithms),
 *   then the key is folded like `unicode61 remove_diacritics 2`: lower case, no marks.
 * - Spanish: Snowball's Spanish rules are written on accented suffixes (-ción, -ía), so an unaccented
 *   spelling ("INVESTIGACION" in an upper-case BDNS title, "energia" typed by a user) would stem
 *   differently from the accented one. An unaccented word first gets the accent its ending always
 *   carries in Spanish (RESTORED_ACCENTS), on both sides, so both spellings meet.
 * - English keys are stemmed from the folded word (English has no accents to lose).
 * - A text in neither language is indexed under both stemmers (two key streams, one after the other);
 *   a query is compiled into both, so it finds such a text either way (docs/decisions.md).
 */
import { stemmer as stemEnglish } from '@orama/stemmers/english';
import { stemmer as stemSpanish } from '@orama/stemmers/spanish';

export type StemLanguage = 'es' | 'en';
export const STEM_LANGUAGES: readonly StemLanguage[] = ['es', 'en'];

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MARKS = /\p{M}/gu;

/** Folds like `unicode61 remove_diacritics 2`: lower case, marks removed. */
export const fold = (s: string): string => s.normalize('NFD').replace(MARKS, '').toLowerCase();

/** The words of a text, lower-cased (NFC), in order. */
export function words(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(WORD) ?? [];
}

/** Endings that are always accented in Spanish, restored when a word was written without accents. */
const RESTORED_ACCENTS: ReadonlyArray<[RegExp, string]> = [
  [/cion$/, 'ción'],
  [/sion$/, 'sión'],
  [/xion$/, 'xión'],
  [/ia$/, 'ía'],
  [/ias$/, 'ías'],
];

const hasMarks = (w: string) => w !== fold(w);

function spanishKey(word: string): string {
  let w = word;
  if (!hasMarks(w))
    for (const [ending, accented] of RESTORED_ACCENTS)
      if (ending.test(w)) {
        w = w.replace(ending, accented);
        break;
      }
  return fold(stemSpanish(w));
}

const englishKey = (word: string): string => fold(stemEnglish(fold(word)));

// Stemming is the index's hot path; corpora repeat words, so keys are memoised (bounded).
const MEMO_LIMIT = 200_000;
const memo: Record<StemLanguage, Map<string, string>> = { es: new Map(), en: new Map() };

/** The index key of one lower-cased word in a language. */
export function stemKey(word: string, language: StemLanguage): string {
  const m = memo[language];
  let key = m.get(word);
  if (key === undefined) {
    // Digits and short words are left as they are (folded): stemmers are for words.
    key = word.length < 3 || /\p{N}/u.test(word) ? fold(word) : language === 'es' ? spanishKey(word) : englishKey(word);
    if (key === '') key = fold(word);
    if (m.size >= MEMO_LIMIT) m.clear();
    m.set(word, key);
  }
  return key;
}

/** The stemmer(s) a record's language is indexed under: its own, or both when it is neither. */
export function indexLanguages(language: string | null | undefined): readonly StemLanguage[] {
  const l = (language ?? '').toLowerCase().slice(0, 2);
  return l === 'es' || l === 'en' ? [l] : STEM_LANGUAGES;
}

/** The text FTS5 indexes for a field: its words' keys, under each of the record's languages. */
export function indexText(text: string | null | undefined, language: string | null | undefined): string {
  if (!text) return '';
  const ws = words(text);
  return indexLanguages(language)
    .map((l) => ws.map((w) => stemKey(w, l)).join(' '))
    .join(' ');
}

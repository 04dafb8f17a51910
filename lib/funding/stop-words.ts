/**
 * Function words a grant seeker types between the words that matter ("housing for young people",
 * "ayudas para el alquiler de vivienda"). Every word of a query must match (AND), and an English
 * "for" or "the" never appears in a Spanish record, so an English query finds no Spanish call while
 * they count. They are left out of a query's required words (lib/funding/search-query.ts); inside a
 * quoted phrase they stay, where their position matters. Only articles, prepositions and conjunctions:
 * no word here carries a funding meaning in either language.
 */
import { fold } from './stem.ts';

const STOP_WORDS = new Set(
  [
    // English
    'a',
    'an',
    'the',
    'of',
    'for',
    'to',
    'in',
    'on',
    'at',
    'by',
    'with',
    'from',
    'and',
    'into',
    'about',
    // Spanish
    'el',
    'la',
    'los',
    'las',
    'un',
    'una',
    'unos',
    'unas',
    'de',
    'del',
    'al',
    'y',
    'e',
    'en',
    'con',
    'para',
    'por',
    'sobre',
    'entre',
    // Catalan (BDNS titles from Catalonia)
    'els',
    'les',
    'dels',
    'per',
    'amb',
    'i',
  ].map(fold),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(fold(word));
}

/** Every function word (lower case, unaccented). */
export const stopWords = (): Iterable<string> => STOP_WORDS;

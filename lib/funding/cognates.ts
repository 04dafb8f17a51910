/**
 * Spanish cognates of an English word by its learned suffix (docs/decisions.md "Issue 34, helper
 * branch issue-34d"): prevention → prevención, promotions → promociones, commission → comisión,
 * community → comunidad, autism → autismo, public → público, cooperative → cooperativo, voluntary →
 * voluntario. English and Spanish share these Latin endings regularly, and the words a grant seeker
 * types (a sector, an activity, a quality) are often of this kind where no thesaurus pair exists.
 *
 * Candidates, not answers: the expansion (./search-expand.ts) searches one only where the corpus holds
 * it, and only for a word the vocabulary found no label for. Pure.
 */
import { fold } from './stem.ts';

/** English ending → Spanish endings, longest first (a word takes the first that fits). */
const SUFFIXES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['tions', ['ciones']],
  ['tion', ['cion']],
  ['sions', ['siones']],
  ['sion', ['sion']],
  ['ities', ['idades']],
  ['ity', ['idad']],
  ['isms', ['ismos']],
  ['ism', ['ismo']],
  ['ical', ['ico', 'ica']],
  ['ic', ['ico', 'ica']],
  ['ives', ['ivos', 'ivas']],
  ['ive', ['ivo', 'iva']],
  ['aries', ['arios', 'arias']],
  ['ary', ['ario', 'aria']],
  ['ous', ['oso', 'osa']],
  ['ments', ['mentos']],
  ['ment', ['mento']],
];

/** Shortest word a cognate is looked for (shorter words are too often another word: "tic", "sion"). */
export const COGNATE_MIN_LENGTH = 6;

/** English doubles Spanish writes single (commission, community, collective, support). */
const undouble = (w: string) =>
  w.replace(/([bcdfglmnprstz])\1/g, (m, c: string) => (c === 'c' || c === 'r' || c === 'l' ? m : c));

/**
 * The Spanish words an English word may be the cognate of, folded (accents left out: the index folds
 * them too). Empty for a word with no learned suffix, a short word, or one with digits.
 */
export function spanishCognates(word: string): string[] {
  const w = fold(word);
  if (w.length < COGNATE_MIN_LENGTH || !/^[a-z]+$/.test(w)) return [];
  for (const [en, es] of SUFFIXES) {
    if (!w.endsWith(en)) continue;
    const stem = w.slice(0, -en.length);
    if (stem.length < 3) return [];
    // As it is, with the doubles Spanish writes single (mission → misión), and with "ll" single too
    // (installation → instalación; "cc" stays: producción, acción).
    const out = es.flatMap((e) => [stem + e, undouble(stem + e), undouble(stem + e).replace(/ll/g, 'l')]);
    return [...new Set(out)].filter((c) => c !== w);
  }
  return [];
}

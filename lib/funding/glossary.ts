/**
 * The bilingual glossary of funding terms, applied as query expansion: a query word that is one of a
 * group's forms also finds the group's other forms (`hidrógeno` finds the hydrogen call, `sport` the
 * clubs' grants). The groups are data, lib/funding/glossary.json, with where they come from: the real
 * corpus's most frequent funding terms, and how many demo calls hold each side (`found`). Matching is
 * on the folded form, so accents and case do not matter, and the expansion is stemmed like every query
 * word. Catalan forms (BDNS titles from Catalonia) search with the Spanish ones.
 *
 * A form that is also a common word with another meaning would widen searches wrongly: such forms
 * are left out ("building", the Catalan "dona" and "fires"). Add a group by adding an entry;
 * tests/lib/funding/glossary.test.ts checks every group is well formed and recounts `found`.
 */
import data from './glossary.json' with { type: 'json' };
import { fold } from './stem.ts';

export interface GlossaryGroup {
  en: readonly string[];
  /** Spanish forms, and the Catalan ones searched with them. */
  es: readonly string[];
}

interface GlossaryEntry {
  en: string[];
  es: string[];
  ca: string[];
  found: { en: number; es: number };
}

/** The groups as the data file holds them (with their Catalan forms apart and their counts). */
export const GLOSSARY_DATA: readonly GlossaryEntry[] = data.groups;

export const GLOSSARY: readonly GlossaryGroup[] = GLOSSARY_DATA.map((g) => ({ en: g.en, es: [...g.es, ...g.ca] }));

/** folded form → the group it belongs to. */
const byForm = new Map<string, GlossaryGroup>();
for (const group of GLOSSARY) for (const form of [...group.en, ...group.es]) byForm.set(fold(form), group);

/** The glossary group a query word belongs to, if any (matched on its folded form). */
export function glossaryGroup(word: string): GlossaryGroup | undefined {
  return byForm.get(fold(word));
}

/**
 * A small bilingual glossary of funding terms, applied as query expansion: a query word that is one of
 * a group's forms also finds the group's other terms (`hidrógeno` finds the hydrogen call). Each group
 * lists English and Spanish forms as written (singular and plural where they differ); matching is on the
 * folded form, so accents and case do not matter, and the expansion is stemmed like every query word.
 *
 * Kept deliberately small: a form that is also a common word with another meaning would widen
 * searches wrongly. ("call" is in, as the funding sense is the only one these sources use.)
 * Add a group by adding a line; tests/lib/funding/glossary.test.ts checks every group is well formed.
 */
import { fold } from './stem.ts';

export interface GlossaryGroup {
  en: readonly string[];
  es: readonly string[];
}

export const GLOSSARY: readonly GlossaryGroup[] = [
  { en: ['hydrogen'], es: ['hidrógeno'] },
  { en: ['energy', 'energies'], es: ['energía', 'energías'] },
  { en: ['grant', 'grants'], es: ['ayuda', 'ayudas', 'subvención', 'subvenciones'] },
  { en: ['sme', 'smes'], es: ['pyme', 'pymes'] },
  { en: ['research'], es: ['investigación', 'investigaciones'] },
  { en: ['innovation', 'innovations'], es: ['innovación', 'innovaciones'] },
  { en: ['call', 'calls'], es: ['convocatoria', 'convocatorias'] },
  { en: ['renewable', 'renewables'], es: ['renovable', 'renovables'] },
  { en: ['fellowship', 'fellowships', 'scholarship', 'scholarships'], es: ['beca', 'becas'] },
  { en: ['health'], es: ['salud', 'sanidad'] },
  { en: ['climate'], es: ['clima', 'climático', 'climática'] },
  { en: ['agriculture', 'agricultural'], es: ['agricultura', 'agrícola', 'agrarias', 'agrario'] },
  { en: ['employment', 'jobs'], es: ['empleo'] },
  { en: ['training'], es: ['formación'] },
  { en: ['housing'], es: ['vivienda', 'viviendas'] },
  { en: ['tourism'], es: ['turismo'] },
  { en: ['water'], es: ['agua', 'aguas'] },
  { en: ['culture', 'cultural'], es: ['cultura', 'cultural'] },
  { en: ['digitalisation', 'digitalization'], es: ['digitalización'] },
  { en: ['startup', 'startups'], es: ['emprendimiento', 'emprendedores'] },
  { en: ['biodiversity'], es: ['biodiversidad'] },
  { en: ['mobility'], es: ['movilidad'] },
  { en: ['cancer'], es: ['cáncer'] },
];

/** folded form → the group it belongs to. */
const byForm = new Map<string, GlossaryGroup>();
for (const group of GLOSSARY) for (const form of [...group.en, ...group.es]) byForm.set(fold(form), group);

/** The glossary group a query word belongs to, if any (matched on its folded form). */
export function glossaryGroup(word: string): GlossaryGroup | undefined {
  return byForm.get(fold(word));
}

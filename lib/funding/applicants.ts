/**
 * Who may apply: one vocabulary of applicant types for every source, and how each source's own values
 * map to it (docs/funding-applicants.md says why each mapping is what it is). Pure.
 *
 * The sources say it differently:
 *  - BDNS details list `tiposBeneficiarios`, four categories of the Spanish state-aid classification
 *    (every value the real details carry is in BDNS_TERMS; the table test reads them from data/funding).
 *    "PERSONAS JURÍDICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA" covers associations and foundations,
 *    public bodies and universities alike (BDNS does not tell them apart): it maps to all three.
 *  - EU topics state a type of action (bulk file `topicActions`, SEDIA `typesOfAction`), and who may
 *    apply follows from it (the programme's rules): Horizon Europe and most programmes' actions are
 *    open to any legal entity (companies of any size, non-profits, public bodies, universities and
 *    research organisations); a few are for one kind (ECHE: higher education institutions).
 *  - BOE sumarios, BDNS list entries, CORDIS and SEDIA cascade offers state nothing: no types, and a
 *    filter on types leaves them out (`unstated` asks for them).
 *
 * A value no table knows maps to nothing (the call reads as stating nothing) and is reported by
 * `unmappedTerms`, so a test over the real records fails naming it.
 */

/** The vocabulary, in bit order: bit i of a call's mask is APPLICANT_TYPES[i] (migration 017). */
export const APPLICANT_TYPES = [
  'individual',
  'self_employed',
  'sme',
  'large_company',
  'non_profit',
  'public_body',
  'research',
] as const;

export type ApplicantType = (typeof APPLICANT_TYPES)[number];

/** What each type means, in English and Spanish (contract, explorer, docs). */
export const APPLICANT_LABELS: Record<ApplicantType, { en: string; es: string }> = {
  individual: { en: 'Individuals (not as a business)', es: 'Particulares' },
  self_employed: { en: 'Self-employed people', es: 'Autónomos' },
  sme: { en: 'Small and medium-sized enterprises', es: 'Pymes' },
  large_company: { en: 'Large companies', es: 'Grandes empresas' },
  non_profit: { en: 'Non-profit organisations (associations, foundations, NGOs)', es: 'Entidades sin ánimo de lucro' },
  public_body: {
    en: 'Public bodies (administrations, local authorities)',
    es: 'Administraciones y entidades públicas',
  },
  research: { en: 'Universities and research organisations', es: 'Universidades y centros de investigación' },
};

const LEGAL_ENTITIES: ApplicantType[] = ['sme', 'large_company', 'non_profit', 'public_body', 'research'];

/** BDNS tiposBeneficiarios[].descripcion, as the API writes them (compared trimmed and in upper case). */
export const BDNS_TERMS: Record<string, ApplicantType[]> = {
  'PERSONAS FÍSICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA': ['individual'],
  'PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA': ['sme', 'self_employed'],
  'GRAN EMPRESA': ['large_company'],
  'PERSONAS JURÍDICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA': ['non_profit', 'public_body', 'research'],
};

/**
 * EU types of action, by the code the bulk file gives (`topicActions[].abbreviation`) and by the words
 * SEDIA gives (`typesOfAction`, Horizon 2020 and Horizon Europe wording); compared in lower case.
 */
export const EU_ACTION_TERMS: Record<string, ApplicantType[]> = {
  // Horizon Europe and Horizon 2020 research, innovation and support actions: any legal entity.
  'horizon-ria': LEGAL_ENTITIES,
  'horizon-ia': LEGAL_ENTITIES,
  'horizon-csa': LEGAL_ENTITIES,
  'research and innovation action': LEGAL_ENTITIES,
  'innovation action': LEGAL_ENTITIES,
  'coordination and support action': LEGAL_ENTITIES,
  'horizon research and innovation actions': LEGAL_ENTITIES,
  'horizon innovation actions': LEGAL_ENTITIES,
  'horizon coordination and support actions': LEGAL_ENTITIES,
  'horizon ju innovation actions': LEGAL_ENTITIES,
  'horizon ju research and innovation actions': LEGAL_ENTITIES,
  // Digital Europe and the European Defence Fund: public or private legal entities.
  'digital-simple': LEGAL_ENTITIES,
  'edf-ls': LEGAL_ENTITIES,
  // Promotion of agricultural products, multi programmes: trade and interbranch organisations of the
  // sector (associations) and public bodies with a promotion remit.
  'agrip-multi-pjg': ['non_profit', 'public_body'],
  // Erasmus Charter for Higher Education: higher education institutions.
  'erasmus-cert': ['research'],
  // European Solidarity Corps quality label: public or private, non-profit or for-profit organisations.
  'esc-cert': LEGAL_ENTITIES,
};

export type ApplicantSource = 'bdns' | 'eu';

const key = (source: ApplicantSource, term: string) =>
  source === 'bdns' ? term.trim().replace(/\s+/g, ' ').toUpperCase() : term.trim().replace(/\s+/g, ' ').toLowerCase();

const table = (source: ApplicantSource) => (source === 'bdns' ? BDNS_TERMS : EU_ACTION_TERMS);

/** The types a source's own value maps to; undefined when no table knows it. */
export function typesOfTerm(source: ApplicantSource, term: string): ApplicantType[] | undefined {
  return table(source)[key(source, term)];
}

/** The source's values no table knows (a new BDNS category, a new EU type of action). */
export function unmappedTerms(source: ApplicantSource, terms: readonly string[]): string[] {
  return terms.filter((t) => typesOfTerm(source, t) === undefined);
}

/** The mask of the types a call's terms map to (0: none stated, or none known). */
export function applicantMask(source: string, terms: readonly string[]): number {
  if (source !== 'bdns' && source !== 'eu') return 0;
  let mask = 0;
  for (const t of terms) for (const type of typesOfTerm(source, t) ?? []) mask |= 1 << APPLICANT_TYPES.indexOf(type);
  return mask;
}

/** The types of a mask, in vocabulary order. */
export function typesOfMask(mask: number): ApplicantType[] {
  return APPLICANT_TYPES.filter((_, i) => (mask & (1 << i)) !== 0);
}

/** The mask a list of types asks for (a filter: any of them). */
export function maskOfTypes(types: readonly ApplicantType[]): number {
  return types.reduce((m, t) => m | (1 << APPLICANT_TYPES.indexOf(t)), 0);
}

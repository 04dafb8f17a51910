/**
 * The personal-data rule: which records are about a natural person and are therefore withheld
 * (docs/services/funding.txt, rule 1). Pure; db/funding/import.ts applies it to every record of every source on
 * the one write path, and `funding reapply-rules` re-applies it to stored rows.
 *
 * Two kinds of evidence:
 *  1. Tax identifiers (never hashed or stored on their own: the IGAE terms allow personal data only
 *     dissociated). Prefix rule (bdns-fetch privacy notes): a DNI starts with a digit, a NIE with
 *     X/Y/Z, and K/L/M are other natural-person NIFs; A B C D F G H J N P Q R S U V W are companies and
 *     public bodies. Comunidades de bienes (E…) and anything unrecognised, including masked ids, count
 *     as persons: withholding a company by mistake costs little, publishing a person does not.
 *  2. A named individual in the text: an honorific (D., Dña., Dª, Don, Doña, Sr., Sra.) before a
 *     person-shaped name (two or more capitalised words), or, in a direct or nominative grant and
 *     after "a favor de", a name that starts with a common given name.
 *
 * False-positive guards (each one has a fixture in tests/lib/funding/personal-data.test.ts):
 *  - an honorific inside an organisation's or a work's name: "Fundación Doña Juana", "Premio Don
 *    Quijote", "Colegio Sra. de …", "Calle Don Pelayo" (an organisation or place word just before);
 *  - a place named after a person: "Ayuntamiento de Don Benito", "vecinos de Doña Mencía" ("de"
 *    before the honorific, except in "a favor de"), and a short list of such names;
 *  - an office, not a person: "Sr. Alcalde-Presidente";
 *  - a bare "Don"/"Doña" before one word only ("Don Benito", "Doña Mencía"): a name needs a surname;
 *  - "PERSONAS FÍSICAS" in tiposBeneficiarios says who may apply: it is not about a person.
 */

export type TaxIdKind = 'natural' | 'legal';

const LEGAL = /^[ABCDFGHJNPQRSUVW]\d{7}[0-9A-J]$/;

/** Upper-case, drop separators and a leading ES VAT prefix (ESB12345678 → B12345678). */
export function normaliseTaxId(raw: string): string {
  const s = raw.toUpperCase().replace(/[\s.\-/]/g, '');
  return /^ES[0-9A-Z]\d{7}[0-9A-Z]$/.test(s) ? s.slice(2) : s;
}

export function classifyTaxId(raw: string): TaxIdKind {
  return LEGAL.test(normaliseTaxId(raw)) ? 'legal' : 'natural';
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** DNI/NIE/K-L-M control letter check: keeps product codes such as "12345678A" from withholding a call. */
function validPersonalId(id: string): boolean {
  const nie = /^([XYZ])(\d{7})([A-Z])$/.exec(id);
  const klm = /^[KLM](\d{7})[A-Z]$/.exec(id);
  const digits = nie ? `${'XYZ'.indexOf(nie[1]!)}${nie[2]}` : klm ? klm[1] : /^\d{8}/.exec(id)?.[0];
  if (!digits) return false;
  return DNI_LETTERS[Number(digits) % 23] === id.at(-1);
}

// A DNI, NIE or K/L/M NIF (checked), a comunidad de bienes CIF, or a BDNS-masked NIF such as ***1234**.
const ID_IN_TEXT = /(?<![0-9A-Z])(?:\d{8}[A-Z]|[XYZKLM]\d{7}[A-Z]|E\d{7}[0-9A-J])(?![0-9A-Z])|\*{2,4}\d{3,5}\*{1,4}/g;

/** The first natural-person identifier named in free text (a call title naming a person), or null. */
export function findPersonalId(text: string | null | undefined): string | null {
  if (!text) return null;
  for (const m of text.toUpperCase().matchAll(ID_IN_TEXT)) {
    const id = m[0].replace(/\s/g, '');
    if (id.startsWith('*') || id.startsWith('E') || validPersonalId(id)) return id;
  }
  return null;
}

// ---- named individuals ----

const UPPER = 'A-ZÁÉÍÓÚÑÜÀÈÒÇÏ';
const WORD = `[${UPPER}][${UPPER}a-záéíóúñüàèòçï'’-]+`;
const PARTICLE = '(?:de|del|de la|de los|de las|y|i|DE|DEL|DE LA|DE LOS|Y)';
/** Two or more capitalised words, particles allowed between them: "María López", "Juan de la Cruz Ruiz". */
const NAME = new RegExp(`^\\s*(${WORD}(?:\\s+(?:${PARTICLE}\\s+)?${WORD})+)`, 'u');
const ONE_WORD = new RegExp(`^\\s*(${WORD})`, 'u');

// Abbreviated honorifics (always an address) and the full words (also parts of names of places and works).
// Not after a letter, digit, "." or "+": "R.D. 691/2021", "Ph.D. Programme", "I+D. Programa" are no address.
const HONORIFIC =
  /(?<![\p{L}\p{N}.+])(D\.ª|Dª\.?|Dña\.?|DÑA\.?|D\.|Sra?\.(?:\s+(?:D\.|Dña\.?|Dª))?|SRA?\.|Don|Doña|DON|DOÑA)(?=\s)/gu;

// Words that, just before an honorific, make it part of an organisation's, a place's or a work's name.
const GUARD_BEFORE =
  /(?:fundaci[oó]n|asociaci[oó]n|premios?|certamen|concurso|c[aá]tedra|colegio|instituto|i\.?e\.?s\.?|c\.?e\.?i\.?p\.?|escuela|centro|residencia|hospital|museo|teatro|festival|calle|c\/|plaza|avenida|avda\.?|paseo|parque|barrio|puente|castillo|palacio|casa|hermandad|cofrad[ií]a|pe[ñn]a|club|obra|programa|proyecto|edificio|biblioteca|archivo|monumento)\s*$/iu;
const DE_BEFORE = /(?<!\bfavor\s)\bde\s*$/iu;
// Places and works named after a person; a name that begins with one of these is not an individual.
const NAMED_PLACES = [
  'don benito',
  'doña mencía',
  'don álvaro',
  'doña blanca',
  'don quijote',
  'don juan tenorio',
  // towns whose names start with a given name ("Concesión directa a Santiago de Compostela…")
  'santiago de compostela',
  'santiago del teide',
  'pedro muñoz',
  'pedro abad',
  'pedro bernardo',
  'pedro martínez',
  'pedro rodríguez',
  'martín muñoz',
  'miguel esteban',
  'juan de la cosa',
];
// An office after an honorific is a post, not a named person ("Sr. Alcalde-Presidente").
const OFFICE =
  /^(?:alcalde|alcaldesa|presidente|presidenta|director|directora|consejero|consejera|rector|rectora|secretario|secretaria|ministro|ministra|delegado|delegada|gerente|concejal|concejala|decano|decana)/iu;

// Common Spanish given names (INE, most frequent among residents): a name after "a favor de" or in a
// direct grant that starts with one of these is taken as a person. Organisations do not start so.
const GIVEN_NAMES = new Set(
  `antonio manuel jose josé francisco david juan javier daniel carlos jesus jesús alejandro miguel
  rafael pedro pablo angel ángel sergio fernando luis jorge alberto alvaro álvaro diego adrian adrián raul raúl enrique ramon
  ramón vicente ivan iván ruben rubén oscar óscar andres andrés joaquin joaquín santiago eduardo victor víctor roberto jaime
  mario ignacio marcos alfonso salvador ricardo emilio julian julián tomas tomás agustin agustín lorenzo gonzalo hugo
  maria maría carmen ana isabel laura cristina marta dolores lucia lucía pilar elena sara paula mercedes raquel rosa
  manuela concepcion concepción juana teresa montserrat rocio rocío beatriz silvia alba patricia irene julia nuria andrea
  encarnacion encarnación monica mónica rosario sonia sandra angeles ángeles marina susana yolanda natalia inmaculada
  eva margarita claudia esther amparo noelia veronica verónica carolina sofia sofía lorena inés ines alicia victoria`.split(
    /\s+/,
  ),
);

export type PersonalRule = 'id_number' | 'honorific' | 'named_beneficiary';
export interface PersonalFinding {
  rule: PersonalRule;
  field: string;
}

function isPlaceOrWork(name: string): boolean {
  const lower = name.toLowerCase();
  return NAMED_PLACES.some((p) => lower.startsWith(p));
}

/** True when the text addresses a named individual with an honorific (guards in the header). */
export function namesIndividual(text: string | null | undefined): boolean {
  if (!text) return false;
  for (const m of text.matchAll(HONORIFIC)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const after = text.slice(m.index + m[0].length);
    if (GUARD_BEFORE.test(before) || DE_BEFORE.test(before)) continue;
    // A bare Don/Doña needs a name and a surname; an abbreviation is an address even before one word.
    const bare = /^(?:don|doña)$/i.test(m[0]);
    const name = NAME.exec(after)?.[1] ?? (bare ? null : (ONE_WORD.exec(after)?.[1] ?? null));
    if (!name || OFFICE.test(name) || isPlaceOrWork(`${m[0]} ${name}`)) continue;
    return true;
  }
  return false;
}

const DIRECT = /concesi[oó]n directa|subvenci[oó]n directa|directamente|nominativa/i;
const BENEFICIARY = new RegExp(
  `(?:\\ba favor de|\\ben favor de|\\ba)\\s+(${WORD}(?:\\s+(?:${PARTICLE}\\s+)?${WORD})+)`,
  'gu',
);
const FAVOUR = /\b[ae]n? favor de\s*$/i;

/** A person-shaped name led by a given name after "a favor de" (anywhere) or "a" (in a direct grant). */
export function namesBeneficiary(text: string | null | undefined, direct: boolean): boolean {
  if (!text) return false;
  for (const m of text.matchAll(BENEFICIARY)) {
    const viaFavour = /favor/i.test(m[0]) || FAVOUR.test(text.slice(0, m.index + m[0].length - m[1]!.length));
    if (!viaFavour && !direct) continue;
    const first = m[1]!.split(/\s+/)[0]!.toLowerCase();
    if (GIVEN_NAMES.has(first) && !isPlaceOrWork(m[1]!)) return true;
  }
  return false;
}

export interface PersonalTexts {
  title: string;
  summary?: string | null;
  body?: string | null;
}

/**
 * Why a record is about a natural person, or null. Reads the title, the summary and the searchable
 * body (which carries BDNS descripcionLeng, tipoConvocatoria and the bases' description), so the same
 * record reads the same whether it came from a BDNS list page, a detail, the BOE or the EU portal.
 */
export function personalDataFinding(rec: PersonalTexts): PersonalFinding | null {
  const fields: Array<[string, string | null | undefined]> = [
    ['title', rec.title],
    ['summary', rec.summary],
    ['body', rec.body],
  ];
  for (const [field, text] of fields) if (findPersonalId(text) !== null) return { rule: 'id_number', field };
  for (const [field, text] of fields) if (namesIndividual(text)) return { rule: 'honorific', field };
  const direct = fields.some(([, t]) => !!t && DIRECT.test(t));
  for (const [field, text] of fields) if (namesBeneficiary(text, direct)) return { rule: 'named_beneficiary', field };
  return null;
}

export function isAboutPerson(rec: PersonalTexts): boolean {
  return personalDataFinding(rec) !== null;
}

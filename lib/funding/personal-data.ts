/**
 * Who is a natural person, decided from Spanish tax identifiers only (never from a name, and never
 * by hashing or storing the identifier: the IGAE terms allow personal data only dissociated).
 *
 * Prefix rule (bdns-fetch privacy notes): a DNI starts with a digit, a NIE with X/Y/Z, and K/L/M
 * are other natural-person NIFs; A B C D F G H J N P Q R S U V W are companies and public bodies.
 * Comunidades de bienes (E…) and anything unrecognised, including masked ids, count as persons:
 * withholding a company by mistake costs little, publishing a person does not.
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

/** DNI/NIE control letter check: keeps product codes such as "12345678A" from withholding a call. */
function validPersonalId(id: string): boolean {
  const nie = /^([XYZ])(\d{7})([A-Z])$/.exec(id);
  const digits = nie ? `${'XYZ'.indexOf(nie[1]!)}${nie[2]}` : /^\d{8}/.exec(id)?.[0];
  if (!digits) return false;
  return DNI_LETTERS[Number(digits) % 23] === id.at(-1);
}

// A DNI or NIE (checked), a comunidad de bienes CIF, or a BDNS-masked NIF such as ***1234**.
const ID_IN_TEXT = /(?<![0-9A-Z])(?:\d{8}[A-Z]|[XYZ]\d{7}[A-Z]|E\d{7}[0-9A-J])(?![0-9A-Z])|\*{2,4}\d{3,5}\*{1,4}/g;

/** The first natural-person identifier named in free text (a call title naming a person), or null. */
export function findPersonalId(text: string | null | undefined): string | null {
  if (!text) return null;
  for (const m of text.toUpperCase().matchAll(ID_IN_TEXT)) {
    const id = m[0].replace(/\s/g, '');
    if (id.startsWith('*') || id.startsWith('E') || validPersonalId(id)) return id;
  }
  return null;
}

// "a D. Juan Pérez", "a favor de Dña. María López": an honorific before two capitalised words.
// Bare "Don"/"Doña" are left out: they are also place names (Don Benito, Doña Mencía).
const HONORIFIC = /(?:^|[\s,(])(?:D\.|Dña\.|Dª\.?)\s+[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+\s+[A-ZÁÉÍÓÚÑ][a-záéíóúñ]+/u;

/** True when the text addresses a named individual; used only for direct grants (see parse-bdns). */
export function namesIndividual(text: string | null | undefined): boolean {
  return !!text && HONORIFIC.test(text);
}

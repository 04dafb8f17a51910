/**
 * What an official-bulletin item about grants is: a call, or a notice that is not one (bases
 * reguladoras, a correction, a modification, an award resolution). Only calls are served as calls;
 * the others are kept as notices and linked to the call they refer to (by BDNS id, by a BOE id in
 * the text, or by naming the same disposition: see dispositionKey). Pure; table-driven tests over
 * real BOE and BDNS titles in tests/lib/funding/notice-kind.test.ts.
 *
 * Order matters: a correction of a call's resolution names the call ("Corrección de errores de la
 * Resolución … por la que se convocan …") and is a correction; an order that sets bases AND convenes
 * ("por la que se aprueban las bases reguladoras y se convocan…") is a call.
 */

export const NOTICE_KINDS = ['call', 'bases', 'correction', 'modification', 'award', 'other'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const CORRECTION =
  /^\s*(?:extracto de (?:la )?)?correccion(?:es)? de (?:errores|errata)|\bse corrigen? (?:los )?errores\b/;
const MODIFICATION =
  /\bpor (?:la|el) que se (?:modifica|amplia|incrementa|prorroga|suspende|deja sin efecto|rectifica)|^\s*extracto de (?:la )?(?:modificacion|ampliacion)|\b(?:modificacion|ampliacion) (?:del? (?:la )?)?(?:plazo|credito|cuantia|importe|extracto|convocatoria)\b|\bse (?:amplia|modifica) el (?:plazo|credito|importe)\b/;
const AWARD =
  /\bpor (?:la|el) que se (?:conceden|concede|resuelven?|adjudican?|publica(?:n)? la (?:concesion|resolucion|relacion)|hace(?:n)? publica la (?:concesion|resolucion|relacion))|^\s*resolucion de concesion\b|\bresolucion definitiva de (?:la )?concesion\b/;
const CONVENES = /\bconvoca(?:n|toria|torias|r)?\b|\bse convocan?\b/;
const BASES = /\bbases reguladoras\b/;

/** The kind of a bulletin item from its title (and its text, when there is any). */
export function noticeKind(title: string): NoticeKind {
  const t = fold(title);
  if (CORRECTION.test(t)) return 'correction';
  if (MODIFICATION.test(t)) return 'modification';
  if (AWARD.test(t)) return 'award';
  if (CONVENES.test(t)) return 'call';
  if (BASES.test(t)) return 'bases';
  return 'other';
}

const MONTHS = 'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre';
// "Orden CNU/1230/2025" names itself; "Resolución de 27 de octubre de 2025" is named by type and date.
const NUMBERED = /\b(orden|real decreto|decreto|acuerdo|resolucion)\s+([a-z]{2,5}\/\d{1,5}\/\d{4}|\d{1,5}\/\d{4})\b/;
const DATED = new RegExp(
  `\\b(orden|real decreto|decreto|acuerdo|resolucion)\\s+de\\s+(\\d{1,2})\\s+de\\s+(${MONTHS})\\s+de\\s+(\\d{4})\\b`,
);

/**
 * The disposition a title is about, in a form that two titles naming it share: "orden cnu/1230/2025"
 * or "resolucion 2025-10-27". A call's key is its own disposition (the first named); a notice's key
 * is the disposition it corrects, modifies or resolves (the one named after "de la"/"del").
 */
export function dispositionKey(title: string, role: 'own' | 'referred'): string | null {
  let t = fold(title);
  if (role === 'referred') {
    // Skip the notice's own disposition ("Resolución de 3 de diciembre …, por la que se modifica la
    // Resolución de 27 de octubre …"): the referred one follows "se modifica/corrige/… la|el".
    const after = /\bpor (?:la|el) que se \w+(?: \w+)? (?:la|el|los|las)\s/.exec(t);
    const correction =
      /^\s*(?:extracto de (?:la )?)?correccion(?:es)? de (?:errores|errata)s? (?:de|del|en) (?:la |el )?/.exec(t);
    if (correction) t = t.slice(correction[0].length);
    else if (after) t = t.slice(after.index + after[0].length);
    else return null;
  }
  const numbered = NUMBERED.exec(t);
  const dated = DATED.exec(t);
  // The first named disposition wins.
  if (numbered && (!dated || numbered.index <= dated.index)) return `${numbered[1]} ${numbered[2]}`;
  if (dated) {
    const month = MONTHS.split('|').indexOf(dated[3]!);
    const m = month <= 8 ? month + 1 : month; // septiembre and setiembre are both 9
    return `${dated[1]} ${dated[4]}-${String(m).padStart(2, '0')}-${dated[2]!.padStart(2, '0')}`;
  }
  return null;
}

const BOE_ID = /\bBOE-[AB]-\d{4}-\d{1,6}\b/g;

/** "BDNS (Identif.): 742455" in a title, "BDNS(Identif.):742455" in an extract's first paragraph. */
export const BDNS_ID = /\bBDNS\b[^0-9]{0,20}?(\d{5,7})/;

/** BOE identifiers a text names explicitly ("BOE-A-2025-22110"). */
export function boeIdsIn(text: string): string[] {
  return [...new Set(text.match(BOE_ID) ?? [])];
}

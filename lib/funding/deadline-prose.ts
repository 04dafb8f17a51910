/**
 * What Spanish and Catalan prose about an application period states outright: a day and an hour.
 * BDNS details carry the period twice, as dates (fechaInicioSolicitud / fechaFinSolicitud, ISO days
 * without a time) and as free text (textInicio / textFin); BOE extracts state it in a sentence
 * ("Quinto. Plazo de presentación de solicitudes: … finalizará a las 14:00 horas del 25 de abril de
 * 2024"). Forms seen in the real records (data/funding/bdns/SOURCE.md):
 *
 *   "hasta las 12:00 horas, hora peninsular, del día 10 de febrero de 2026"   day and hour
 *   "El día 26 de febrero de 2026 a las 14:00 horas (13:00 horas en … Canarias)"   the first hour is
 *                                                       the peninsular one, the zone these calls use
 *   " el 14 de enero 2026 a las 12:00 horas peninsular"  no "de" before the year
 *   "Hasta el 15 de setiembre de 2026", "Desde el 1 de Octubre de 2026"
 *   "9:00 horas 02/04/2026", "31/03/26"                 numeric days, two-digit years (20YY)
 *   "… se iniciará el 14 de enero 2026 … y finalizará a las 12:00 … del día 19 de febrero de 2026"
 *                                                       (a BOE extract): the day and hour after the end word
 *   "15 Dies Hàbils", "01 Mesos", "45 días hábiles a contar desde …"   relative: no day here
 *                                                       (./relative-deadline.ts reads those)
 *   "Sin plazo de solicitud"                            no application period at all
 *
 * Pure; the table-driven tests over every textInicio/textFin of the real details are in
 * tests/lib/funding/deadline-prose.test.ts.
 */
import { isIsoDate } from './zoned-time.ts';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

// Spanish and Catalan month names, folded (setiembre is an accepted Spanish spelling of septiembre).
const MONTHS: Record<string, number> = {
  enero: 1,
  gener: 1,
  febrero: 2,
  febrer: 2,
  marzo: 3,
  marc: 3,
  abril: 4,
  mayo: 5,
  maig: 5,
  junio: 6,
  juny: 6,
  julio: 7,
  juliol: 7,
  agosto: 8,
  agost: 8,
  septiembre: 9,
  setiembre: 9,
  setembre: 9,
  octubre: 10,
  noviembre: 11,
  novembre: 11,
  diciembre: 12,
  desembre: 12,
};
const MONTH = Object.keys(MONTHS).join('|');
// "25 de abril de 2024", "14 de enero 2026", "1 d'octubre de 2026" (Catalan elides de before a vowel).
const WORD_DATE = new RegExp(`\\b(\\d{1,2})\\s+(?:de\\s+|d['’]\\s*)(${MONTH})\\s+(?:de\\s+|del\\s+)?(\\d{4})\\b`);
const NUMERIC_DATE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})\b/;
// "12:00 horas", "a las 9:00 h", "14.00 hores"; a bare "12:00" counts too (it is a time of day in these texts).
const TIME = /\b(\d{1,2})[:.](\d{2})(?!\d)(?:\s*(?:h\b|horas?|hores|hrs?\b))?/;
const HOURS_ONLY = /\ba\s+las\s+(\d{1,2})\s+(?:horas|h\b)/;
const NO_PERIOD = /\bsin plazo de (?:solicitud|presentacion)\b|\bsense termini\b/;

const iso = (y: number, m: number, d: number): string | null => {
  const s = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return isIsoDate(s) ? s : null;
};

/** The days a text states, in the order it states them. */
function statedDays(text: string): string[] {
  const t = fold(text);
  const found: Array<[number, string | null]> = [];
  for (const m of t.matchAll(new RegExp(WORD_DATE, 'g')))
    found.push([m.index, iso(Number(m[3]), MONTHS[m[2]!]!, Number(m[1]))]);
  for (const m of t.matchAll(new RegExp(NUMERIC_DATE, 'g'))) {
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    found.push([m.index, iso(y, Number(m[2]), Number(m[1]))]);
  }
  return found
    .sort((a, b) => a[0] - b[0])
    .map(([, d]) => d)
    .filter((d): d is string => d !== null);
}

/** The first day the text states ("25 de abril de 2024", "02/04/2026", "31/03/26"), or null. */
export function statedDay(text: string | null | undefined): string | null {
  return text ? (statedDays(text)[0] ?? null) : null;
}

// Where a sentence about the period says when it ends: "hasta", "finalizará", "concluirá", "fins al".
const END = /\b(?:hasta|finaliza\w*|termina\w*|conclui\w*|concluye\w*|acaba\w*|fins|fin del plazo|ultimo dia)\b/;

/** The part of a text that speaks of the period's end: from its end word on, else the whole text. */
function closingClause(text: string): string {
  const at = END.exec(fold(text));
  return at ? text.slice(at.index) : text;
}

/**
 * The closing day a text states. A sentence may state the opening day too ("se iniciará el 14 de enero
 * 2026 … y finalizará … del día 19 de febrero de 2026", the real BOE-B-2025-47490): the day after its
 * end word, else the last day it states.
 */
export function closingDay(text: string | null | undefined): string | null {
  if (!text) return null;
  return statedDay(closingClause(text)) ?? statedDays(text).at(-1) ?? null;
}

/** The first time of day the text states ("12:00 horas", "a las 9 horas"), as HH:MM; null without one. */
export function statedTime(text: string | null | undefined): string | null {
  if (!text) return null;
  const t = fold(text);
  const m = TIME.exec(t);
  if (m && Number(m[1]) < 24 && Number(m[2]) < 60) return `${m[1]!.padStart(2, '0')}:${m[2]}`;
  const h = HOURS_ONLY.exec(t);
  if (h && Number(h[1]) < 24) return `${h[1]!.padStart(2, '0')}:00`;
  return null;
}

/** The text says there is no application period ("Sin plazo de solicitud"). */
export function statesNoPeriod(text: string | null | undefined): boolean {
  return !!text && NO_PERIOD.test(fold(text));
}

/**
 * The closing hour of a stated closing day, read from the prose beside it: only when the prose names
 * no day or the same day (a prose about another day is not about this date, and its hour is not taken).
 */
export function closingTime(day: string, prose: string | null | undefined): string | null {
  if (!prose) return null;
  const said = closingDay(prose);
  return said === null || said === day ? statedTime(closingClause(prose)) : null;
}

/**
 * Relative deadlines in Spanish official texts ("treinta días naturales desde el día siguiente al de
 * la publicación de este extracto en el BOE", "15 días hábiles a contar desde…", "un mes…") turned
 * into a closing day, and the record of how (deadline_source). Pure: the publications the text may
 * refer to are passed in by the importer.
 *
 * Counting (Ley 39/2015, art. 30):
 *  - periods start the day after the publication (30.3/30.4);
 *  - "días" without a qualifier are hábiles (30.2); hábiles exclude Saturdays, Sundays and national
 *    holidays (./holidays.ts, from the BOE resolutions listed in holidays-es.json);
 *  - "días naturales" count every day;
 *  - months run date to date: they end on the same day number as the publication, or on the last
 *    day of the month when that month has no such day (30.4);
 *  - a period whose last day is inhábil runs on to the next día hábil (30.5), for every kind.
 * Regional and local holidays are not in the data: a regional call can close a day later than
 * computed; calls whose text refers to a regional bulletin are not computed at all (we do not have
 * that publication, so we do not know its date).
 */
import {
  addBusinessDays,
  calendarSource,
  nextBusinessDay,
  SPAIN_NATIONAL_HOLIDAYS,
  UnknownYearError,
  type HolidayCalendar,
} from './holidays.ts';
import { addDays } from './zoned-time.ts';
import { bulletinKey, earliest, inBulletin } from './bulletins.ts';
import type { Publication } from './records.ts';
import { statesNoPeriod } from './deadline-prose.ts';

export type DeadlineSource =
  | { kind: 'stated' }
  | { kind: 'computed'; rule: string; from: string; publication: string; text: string; calendar: string[] }
  | { kind: 'uncomputed'; reason: string; text: string };

export type PeriodUnit = 'días naturales' | 'días hábiles' | 'meses';
export type Reference = 'this' | 'boe' | 'extract' | 'regional' | 'other' | 'act' | 'unspecified';

export interface RelativePeriod {
  count: number;
  unit: PeriodUnit;
  refersTo: Reference;
  bulletin: string | null;
  phrase: string;
}

const WORDS: Record<string, number> = {
  un: 1,
  uno: 1,
  una: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  once: 11,
  doce: 12,
  trece: 13,
  catorce: 14,
  quince: 15,
  dieciseis: 16,
  diecisiete: 17,
  dieciocho: 18,
  diecinueve: 19,
  veinte: 20,
  veintiun: 21,
  veintiuno: 21,
  veintidos: 22,
  veintitres: 23,
  veinticuatro: 24,
  veinticinco: 25,
  veintiseis: 26,
  veintisiete: 27,
  veintiocho: 28,
  veintinueve: 29,
  treinta: 30,
  'treinta y un': 31,
  'treinta y uno': 31,
  cuarenta: 40,
  'cuarenta y cinco': 45,
  cincuenta: 50,
  sesenta: 60,
  noventa: 90,
  // Catalan (the Generalitat's BDNS entries): "quinze dies hàbils", "deu dies", "vint dies".
  deu: 10,
  quinze: 15,
  vint: 20,
  trenta: 30,
};
const NUMBER = `(\\d{1,3}|${Object.keys(WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})(?:\\s*\\(\\d{1,3}\\))?`;
// Spanish and Catalan units: "días hábiles", "dies hàbils", "meses", "mesos" (BDNS's terse "01 Mesos").
const PERIOD = new RegExp(
  `\\b${NUMBER}\\s+(dias?|dies|dia|mes(?:es|os)?)(?:\\s+(habiles|habils|naturales|naturals))?\\b`,
  'g',
);
// The start: "desde / a contar desde / a partir de / contados desde … el día siguiente … publicación".
// "… días siguientes a la publicación" says the same without "desde"; BDNS also writes "a partir día
// siguiente publicación", "tras la publicación", and in Catalan "des de l'endemà de la publicació".
const START =
  /^[^.;]{0,80}?\b(?:desde|des de|a partir(?: de| del)?|a comptar|contados? (?:desde|a partir)|computados? (?:desde|a partir)|siguientes? al?|tras|endema de)\b[^.;]{0,60}?\bpublicacio(?:n)?\b/;
const REGIONAL =
  /\b(dogc|docv|dogv|dog|bocm|bop[a-z]{0,3}|boja|borm|boa|bopv|docm|boib|boc|bon|bor|bocyl|bopa|doe|bocce|bome|bo\.?\s?p\.?|diari oficial|diario oficial de (?:la generalitat|la junta|galicia|extremadura|castilla|la comunitat|la comunidad)|boletin oficial de (?:la provincia|la comunidad|la region|aragon|canarias|cantabria|castilla|navarra|la rioja|las illes|les illes|extremadura|galicia|madrid|del principado|del pais vasco|la junta|las islas|ceuta|melilla)|butlleti oficial)\b/;
const BOE = /\b(boe|boletin oficial del estado)\b/;
const OTHER = /\b(doue|diario oficial de la union europea|official journal)\b/;
const THIS =
  /\b(?:de |en )?(?:esta|este|la presente|el presente|del presente) (?:publicacion|resolucion|orden|extracto|anuncio|convocatoria)\b|\bal de esta\b/;
const EXTRACT = /\bextracto\b/;

/** How a bulletin is named in a reason: an acronym in capitals (DOGC), a name as the text writes it. */
const bulletinName = (folded: string, original: string) =>
  folded.length <= 6 ? folded.replace(/[.\s]/g, '').toUpperCase() : original.split(/,/)[0]!.trim().slice(0, 80);

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

// Counted from another act of the procedure, not from the call's publication ("desde la publicación
// del acuerdo del órgano instructor"): its date is not in any record.
const OTHER_ACT =
  /^\s*(?:de |del )?(?:la |el |los |las )?(?:acuerdo del organo|acuerdo de la comision|resolucion (?:provisional|de concesion)|propuesta|lista|listado|relacion|requerimiento)\b/;

interface Referent {
  refersTo: Reference;
  bulletin: string | null;
}

/** Which publication the words after "publicación" name (`tail`, folded; `original`, as written). */
function referent(tail: string, startPhrase: string, original: string): Referent {
  const regional = REGIONAL.exec(tail);
  if (regional) return { refersTo: 'regional', bulletin: bulletinName(regional[1]!, original.slice(regional.index)) };
  if (OTHER.test(tail)) return { refersTo: 'other', bulletin: OTHER.exec(tail)![1]! };
  if (OTHER_ACT.test(tail)) return { refersTo: 'act', bulletin: original.trim().slice(0, 80) };
  if (BOE.test(tail)) return { refersTo: 'boe', bulletin: 'BOE' };
  if (THIS.test(tail) || THIS.test(startPhrase)) return { refersTo: 'this', bulletin: null };
  if (EXTRACT.test(tail)) return { refersTo: 'extract', bulletin: null };
  return { refersTo: 'unspecified', bulletin: null };
}

/** The start phrase of a text and what follows it up to the end of its sentence. */
function startIn(folded: string, original: string, at = 0) {
  const start = START.exec(folded.slice(at));
  if (!start) return null;
  const tailAt = at + start.index + start[0].length;
  const tail = folded.slice(tailAt).split(/[.;]/)[0]!.slice(0, 200);
  return { start: start[0], end: tailAt + tail.length, tail, original: original.slice(tailAt, tailAt + tail.length) };
}

/**
 * The first relative period in a text and the publication it runs from, or null when there is none.
 * `startText` is the source's separate words on when the period starts (BDNS textInicio): a bare
 * period ("15 Dies Hàbils") counts from what they name ("Des de l'endemà de la publicació en el diari
 * oficial"), and a period that names no publication ("2 meses a partir día siguiente publicación")
 * takes the publication they name ("Día siguiente a su publicación en BOE").
 */
export function readRelativePeriod(
  text: string | null | undefined,
  startText: string | null = null,
): RelativePeriod | null {
  if (!text) return null;
  const folded = fold(text);
  const startFolded = startText ? fold(startText) : '';
  const fromStartText = startText ? startIn(startFolded, startText) : null;
  for (const m of folded.matchAll(PERIOD)) {
    const after = m.index + m[0].length;
    const own = startIn(folded, text, after);
    // A bare period (nothing but it in the text) counts from the start text's publication.
    const bare = !own && fromStartText && !/\p{L}/u.test(folded.slice(after));
    if (!own && !bare) continue;
    const raw = m[1]!;
    const count = /^\d+$/.test(raw) ? Number(raw) : WORDS[raw]!;
    if (!count) continue;
    const unit: PeriodUnit = m[2]!.startsWith('mes')
      ? 'meses'
      : m[3] === 'naturales' || m[3] === 'naturals'
        ? 'días naturales'
        : 'días hábiles';
    let ref: Referent = own
      ? referent(own.tail, own.start, own.original)
      : referent(fromStartText!.tail, fromStartText!.start, fromStartText!.original);
    if (own && ref.refersTo === 'unspecified' && fromStartText)
      ref = referent(fromStartText.tail, fromStartText.start, fromStartText.original);
    const phrase = own ? text.slice(m.index, own.end).trim() : `${text.slice(m.index).trim()} (${startText!.trim()})`;
    return { count, unit, ...ref, phrase };
  }
  return null;
}

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The closing day of a period published on `from` (rules in the header). Throws UnknownYearError. */
export function periodEnd(
  from: string,
  count: number,
  unit: PeriodUnit,
  cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS,
): string {
  if (unit === 'días hábiles') return addBusinessDays(from, count, cal);
  if (unit === 'días naturales') return nextBusinessDay(addDays(from, count), cal);
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  const months = y * 12 + (m - 1) + count;
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const day = Math.min(d, lastDayOfMonth(year, month));
  return nextBusinessDay(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`, cal);
}

/** What the text's publication is, given the record it came with. */
export interface DeadlineContext {
  /** The record is itself this publication (a BOE item: its text's "esta publicación" is it). */
  self: Publication | null;
  /** The BOE extract announcing the same BDNS call, when the corpus has one. */
  boeExtract: Publication | null;
  /** The bulletin publications the record names (a BDNS detail's anuncios: BOE, DOGC, BOP…). */
  publications?: Publication[];
  /** The source's words on when the period starts (BDNS textInicio), read with the period. */
  start?: string | null;
}

const yearsBetween = (a: string, b: string) => {
  const out: string[] = [];
  for (let y = Number(a.slice(0, 4)); y <= Number(b.slice(0, 4)); y++) out.push(String(y));
  return out;
};

/**
 * The deadline from a relative period in `text`: the date and how it was obtained, or an uncomputed
 * record saying why not. Only for texts in Spanish official bulletins (Europe/Madrid days).
 */
export function deadlineFromText(
  text: string,
  ctx: DeadlineContext,
  cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS,
): { date: string | null; source: DeadlineSource } {
  if (statesNoPeriod(text) || statesNoPeriod(ctx.start))
    return {
      date: null,
      source: { kind: 'uncomputed', reason: 'the source states that there is no application period', text },
    };
  const period = readRelativePeriod(text, ctx.start ?? null);
  if (!period)
    return {
      date: null,
      source: { kind: 'uncomputed', reason: 'the text states no period counted from a publication', text },
    };
  const publications = ctx.publications ?? [];
  let from: Publication | null = null;
  let missing: string;
  switch (period.refersTo) {
    case 'regional':
      from = inBulletin(period.bulletin!, publications);
      missing = `it counts from the publication in ${period.bulletin}, and the record names no such publication`;
      break;
    case 'other':
      missing = `it counts from the publication in ${period.bulletin}, which this service does not import`;
      break;
    case 'act':
      missing = `it counts from the publication of another act of the procedure (${period.bulletin}), whose date no record gives`;
      break;
    case 'boe':
      from =
        ctx.self ?? ctx.boeExtract ?? earliest(publications.filter((p) => bulletinKey(p.bulletin ?? '') === 'boe'));
      missing =
        'it counts from the publication of the extract in the BOE, and no BOE extract of this call is in the corpus';
      break;
    default:
      from = ctx.self ?? ctx.boeExtract ?? earliest(publications);
      missing = 'it counts from a publication the text does not name, and no BOE extract of this call is in the corpus';
  }
  if (!from) return { date: null, source: { kind: 'uncomputed', reason: missing, text: period.phrase } };
  try {
    const date = periodEnd(from.date, period.count, period.unit, cal);
    // A regional or provincial bulletin's días hábiles also skip that community's holidays, which
    // the data does not hold: the call may close a day or two later than computed.
    const regional = from.bulletin && bulletinKey(from.bulletin) !== 'boe';
    return {
      date,
      source: {
        kind: 'computed',
        rule: `${period.count} ${period.count === 1 && period.unit === 'meses' ? 'mes' : period.unit} desde el día siguiente a la publicación (Ley 39/2015, art. 30)${regional ? '; regional and local holidays not counted' : ''}`,
        from: from.date,
        publication: from.id,
        text: period.phrase,
        calendar: calendarSource(yearsBetween(from.date, date), cal),
      },
    };
  } catch (e) {
    if (e instanceof UnknownYearError) {
      return {
        date: null,
        source: { kind: 'uncomputed', reason: `${e.message}: días hábiles there are unknown`, text: period.phrase },
      };
    }
    throw e;
  }
}

/** Small pure helpers the four funding parsers share: JSON reading, plain text, dates, cut-offs. */
import { ImportFormatError, type Cutoff } from './records.ts';
import { isIsoDate } from './zoned-time.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON.parse that reports a broken file as an ImportFormatError (with the parser's position). */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new ImportFormatError(what, `not valid JSON (${(e as Error).message})`);
  }
}

/** Sources give one thing or a list of them (BOE JSON, BDNS detail files): always a list. */
export function asList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Trimmed text with runs of white space collapsed; null for nothing. Numbers are read as text. */
export function text(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const s = v.replace(/\s+/g, ' ').trim();
  return s === '' ? null : s;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  euro: '€',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** HTML fragment → plain searchable text: tags dropped (block ends become spaces), entities decoded. */
export function stripHtml(html: string | null): string | null {
  if (!html) return null;
  const noTags = html.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return text(decodeEntities(noTags).replace(/\s+([.,;:!?])/g, '$1'));
}

/** A short summary: the text up to `max` characters, cut at a word boundary. */
export function excerpt(s: string | null, max = 300): string | null {
  if (!s || s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, '')}…`;
}

/**
 * A day written YYYY-MM-DD, DD/MM/YYYY (BDNS uses both), YYYYMMDD (BOE) or as the date part of an
 * ISO date-time. Returns null for no value, undefined for a value that is not a real day.
 */
export function parseDay(v: unknown): string | null | undefined {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  let iso: string | undefined;
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s))) iso = m[1];
  else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s)))
    iso = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  else if ((m = /^(\d{4})(\d{2})(\d{2})$/.exec(s))) iso = `${m[1]}-${m[2]}-${m[3]}`;
  return iso && isIsoDate(iso) ? iso : undefined;
}

/** parseDay that names the record and field when the value is not a date. */
export function dayField(v: unknown, record: string, field: string): string | null {
  const d = parseDay(v);
  if (d === undefined) throw new ImportFormatError(record, `${field} is not a date (${JSON.stringify(v)})`);
  return d;
}

/** A non-negative amount; numbers may arrive as text with a decimal comma (CORDIS "1875432,5"). */
export function amount(v: unknown, record: string, field: string): number | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(?:[.,]\d+)?$/.test(v.trim())) return Number(v.trim().replace(',', '.'));
  throw new ImportFormatError(record, `${field} is not a number (${JSON.stringify(v)})`);
}

/** Cut-offs ascending by day then time (a day without a time closes last), duplicates dropped. */
export function sortCutoffs(cutoffs: Cutoff[]): Cutoff[] {
  const key = (c: Cutoff) => `${c.date} ${c.time ?? '24:00'}`;
  const unique = new Map(cutoffs.map((c) => [key(c), c]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/** Non-empty pieces joined: builds searchable bodies from several source fields. */
export function joinText(parts: Array<string | null | undefined>, sep = ' · '): string | null {
  const kept = parts.map((p) => text(p)).filter((p): p is string => p !== null);
  return kept.length > 0 ? [...new Set(kept)].join(sep) : null;
}

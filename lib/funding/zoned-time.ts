/**
 * Wall-clock arithmetic in an IANA zone, with Intl only (no dependency, no clock: instants are
 * passed in). Sources publish a closing DAY in their own zone (Brussels, Madrid); these helpers turn
 * that day into the UTC instant it ends at, across DST changes, and turn UTC instants from the EU
 * API back into the local day they name.
 */
import type { Cutoff } from './records.ts';

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone, hourCycle: 'h23',
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

interface Wall { year: number; month: number; day: number; hour: number; minute: number; second: number }

function wallAt(ms: number, zone: string): Wall {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? NaN, month: parts.month ?? NaN, day: parts.day ?? NaN,
    hour: (parts.hour ?? NaN) % 24, minute: parts.minute ?? NaN, second: parts.second ?? NaN,
  };
}

/** Offset of the zone from UTC at an instant, in ms (Brussels winter: +3,600,000). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const floored = Math.floor(ms / 1000) * 1000;
  const w = wallAt(floored, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - floored;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The local day (YYYY-MM-DD) and time (HH:MM) of a UTC instant in a zone. */
export function toLocal(ms: number, zone: string): { date: string; time: string } {
  const w = wallAt(ms, zone);
  return { date: `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`, time: `${pad(w.hour)}:${pad(w.minute)}` };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True for a real calendar day written YYYY-MM-DD (rejects 2025-02-30). */
export function isIsoDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Calendar arithmetic on YYYY-MM-DD, zone-free. */
export function addDays(date: string, days: number): string {
  if (!isIsoDate(date)) throw new RangeError(`not a date: ${date}`);
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * UTC ms of a local wall-clock time in a zone. A time that occurs twice (autumn fall-back) resolves
 * to the earlier instant; a time skipped by the spring-forward gap resolves to the instant it would
 * have been with the pre-gap offset (02:30 → 03:30 local), the same rule as Temporal's 'compatible'.
 */
export function localToUtc(date: string, time: string | null, zone: string): number {
  if (!isIsoDate(date)) throw new RangeError(`not a date: ${date}`);
  const t = TIME_RE.exec(time ?? '00:00');
  if (!t) throw new RangeError(`not a time: ${time}`);
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, mo - 1, d, Number(t[1]), Number(t[2]));
  // Offsets in force a day either side cover any transition near this wall time.
  const before = zoneOffsetMs(wall - DAY_MS, zone);
  const after = zoneOffsetMs(wall + DAY_MS, zone);
  const valid = [...new Set([before, after])].map((o) => wall - o).filter((c) => zoneOffsetMs(c, zone) === wall - c);
  if (valid.length > 0) return Math.min(...valid);
  return wall - before; // in the gap
}

/** Start of a local day: when a call opening that day opens. */
export function opensAt(date: string, zone: string): number {
  return localToUtc(date, null, zone);
}

/** When a cut-off closes: at its stated time, else at the end of its day (next local midnight). */
export function closesAt(cutoff: Cutoff, zone: string): number {
  return cutoff.time ? localToUtc(cutoff.date, cutoff.time, zone) : localToUtc(addDays(cutoff.date, 1), null, zone);
}

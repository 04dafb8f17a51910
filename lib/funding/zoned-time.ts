/**
 * Wall-clock arithmetic in an IANA zone with the Temporal polyfill (the standard API's semantics, no
 * clock: instants are passed in; it replaced hand-written Intl arithmetic, docs/decisions.md). Sources
 * publish a closing DAY in their own zone (Brussels, Madrid); these helpers turn that day into the UTC
 * instant it ends at, across DST changes, and turn UTC instants from the EU API back into the local day
 * they name.
 */
import { Temporal } from 'temporal-polyfill';
import type { Cutoff } from './records.ts';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function zoned(ms: number, zone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
}

/** Offset of the zone from UTC at an instant, in ms (Brussels winter: +3,600,000). */
export function zoneOffsetMs(ms: number, zone: string): number {
  return zoned(Math.floor(ms / 1000) * 1000, zone).offsetNanoseconds / 1e6;
}

/** The local day (YYYY-MM-DD) and time (HH:MM) of a UTC instant in a zone. */
export function toLocal(ms: number, zone: string): { date: string; time: string } {
  const z = zoned(ms, zone);
  return { date: `${pad(z.year, 4)}-${pad(z.month)}-${pad(z.day)}`, time: `${pad(z.hour)}:${pad(z.minute)}` };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

function plainDate(s: string): Temporal.PlainDate | null {
  const m = DATE_RE.exec(s);
  // Years 0000–0099 stay refused, as they were before Temporal (no source or client means them).
  if (!m || Number(m[1]) < 100) return null;
  try {
    return Temporal.PlainDate.from(
      { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) },
      { overflow: 'reject' },
    );
  } catch {
    return null;
  }
}

/** True for a real calendar day written YYYY-MM-DD (rejects 2025-02-30). */
export function isIsoDate(s: string): boolean {
  return plainDate(s) !== null;
}

/** Calendar arithmetic on YYYY-MM-DD, zone-free. */
export function addDays(date: string, days: number): string {
  const d = plainDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  return d.add({ days }).toString();
}

/**
 * UTC ms of a local wall-clock time in a zone. A time that occurs twice (autumn fall-back) resolves
 * to the earlier instant; a time skipped by the spring-forward gap resolves to the instant it would
 * have been with the pre-gap offset (02:30 → 03:30 local): Temporal's 'compatible' disambiguation.
 */
export function localToUtc(date: string, time: string | null, zone: string): number {
  const d = plainDate(date);
  if (!d) throw new RangeError(`not a date: ${date}`);
  const t = TIME_RE.exec(time ?? '00:00');
  if (!t) throw new RangeError(`not a time: ${time}`);
  const wall = d.toPlainDateTime({ hour: Number(t[1]), minute: Number(t[2]) });
  return wall.toZonedDateTime(zone, { disambiguation: 'compatible' }).epochMilliseconds;
}

/** Start of a local day: when a call opening that day opens. */
export function opensAt(date: string, zone: string): number {
  return localToUtc(date, null, zone);
}

/** When a cut-off closes: at its stated time, else at the end of its day (next local midnight). */
export function closesAt(cutoff: Cutoff, zone: string): number {
  return cutoff.time ? localToUtc(cutoff.date, cutoff.time, zone) : localToUtc(addDays(cutoff.date, 1), null, zone);
}

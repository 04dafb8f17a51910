/**
 * The Spanish national holiday calendar (lib/funding/holidays-es.json, with the BOE resolution each
 * year comes from) and the días hábiles of Ley 39/2015 art. 30.2: Saturdays, Sundays and national
 * holidays are inhábiles. Pure: the data is a module import, not a file read at run time.
 * A year the data does not cover is unknown, never guessed: callers leave such deadlines uncomputed.
 */
import calendar from './holidays-es.json' with { type: 'json' };
import { addDays } from './zoned-time.ts';

export interface HolidayYear {
  source: string;
  url: string | null;
  checked: string;
  days: string[];
}
export interface HolidayCalendar {
  years: Record<string, HolidayYear>;
}

export const SPAIN_NATIONAL_HOLIDAYS: HolidayCalendar = calendar as HolidayCalendar;

export class UnknownYearError extends Error {
  constructor(readonly year: string) {
    super(`no national holiday calendar for ${year}`);
  }
}

/** Day of the week of a YYYY-MM-DD date, 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function isHoliday(date: string, cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS): boolean {
  const year = cal.years[date.slice(0, 4)];
  if (!year) throw new UnknownYearError(date.slice(0, 4));
  return year.days.includes(date);
}

/** Ley 39/2015 art. 30.2: a día hábil is neither a Saturday, a Sunday nor a holiday. */
export function isBusinessDay(date: string, cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS): boolean {
  const d = weekday(date);
  return d !== 0 && d !== 6 && !isHoliday(date, cal);
}

/** The date itself when hábil, else the next hábil day (art. 30.5: a period ending on an inhábil day runs on). */
export function nextBusinessDay(date: string, cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS): string {
  let d = date;
  while (!isBusinessDay(d, cal)) d = addDays(d, 1);
  return d;
}

/** The n-th día hábil after `date` (counting starts the day after, art. 30.3). */
export function addBusinessDays(date: string, n: number, cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS): string {
  let d = date;
  for (let left = n; left > 0;) {
    d = addDays(d, 1);
    if (isBusinessDay(d, cal)) left--;
  }
  return d;
}

/** The sources of the years a computation used, for deadline_source. */
export function calendarSource(years: string[], cal: HolidayCalendar = SPAIN_NATIONAL_HOLIDAYS): string[] {
  return [...new Set(years)].sort().map((y) => cal.years[y]?.source ?? `no calendar for ${y}`);
}

/**
 * Who can take a live task now, and how long a live order waits for someone to accept it. Pure: the
 * people on duty are read by db/human/workers.ts (onDutyNow) and passed in.
 *
 * A verified person counts for a city and a capability while they are on duty (they say so in the
 * console; an operator's `worker verify --on-duty`), until their on-duty end if they gave one, when
 * one of their areas covers the city (a city, or the whole country) and they are verified for the
 * capability (all of them unless the operator named some). People are not verified per SLA, so every
 * SLA of a city and capability shows the same people; what differs is the acceptance bound below.
 *
 * Published as a band, not a count: in a small city, an exact count that moves from 1 to 0 tells
 * anyone when one person stops working. The band still answers the question a client has (is there
 * anyone, and is there some choice).
 */

export interface OnDuty {
  account_id: number;
  country_iso: string;
  /** '*' for the whole country. */
  city_slug: string;
  /** Space-separated capability ids, or null for every capability. */
  capabilities: string | null;
}

export const PEOPLE_BANDS = ['0', '1-2', '3-5', '6+'] as const;
export type PeopleBand = (typeof PEOPLE_BANDS)[number];

export function band(count: number): PeopleBand {
  if (count <= 0) return '0';
  if (count <= 2) return '1-2';
  if (count <= 5) return '3-5';
  return '6+';
}

/** A live task must be accepted within a quarter of its SLA, at most two hours (express 4 h: 1 h; standard 24 h: 2 h). */
export const ACCEPT_MAX_MS = 2 * 3_600_000;
export function acceptWithinMs(slaHours: number): number {
  return Math.min(ACCEPT_MAX_MS, Math.floor((slaHours * 3_600_000) / 4));
}

/** How many people could take a task of `capability` in a city now, optionally not counting one account (the client's own). */
export type AvailableCount = (
  country_iso: string,
  city_slug: string,
  capability: string,
  exceptAccount?: number,
) => number;

export function availabilityIndex(rows: readonly OnDuty[]): AvailableCount {
  return (country, city, capability, except) => {
    const people = new Set<number>();
    for (const r of rows) {
      if (r.account_id === except || r.country_iso !== country) continue;
      if (r.city_slug !== '*' && r.city_slug !== city) continue;
      if (r.capabilities !== null && !r.capabilities.split(' ').includes(capability)) continue;
      people.add(r.account_id);
    }
    return people.size;
  };
}

/** What coverage and quotes say of one city, capability and SLA. */
export function availabilityView(count: number, slaHours: number) {
  return {
    available_now: count > 0,
    people: band(count),
    accept_within_s: Math.round(acceptWithinMs(slaHours) / 1000),
  };
}
export type AvailabilityJson = ReturnType<typeof availabilityView>;

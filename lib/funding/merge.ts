/**
 * How a freshly parsed record combines with the one already stored under the same id, and the
 * columns derived from it. Pure: db/funding/import.ts reads and writes, this decides.
 *
 * The rule behind every field: a read that knows less never erases what an earlier read knew.
 *  - A null field keeps the stored value (a BDNS list item carries no deadline, budget or region and
 *    must not wipe what a detail read filled; a SEDIA hit carries no programme name).
 *  - No cut-offs keeps the stored cut-offs (the BDNS period block vanishes from some reads). New
 *    cut-offs replace the old ones, but a cut-off without a time keeps the time a previous read
 *    stated for the same day (the bulk EU file is date-only; SEDIA states 17:00).
 *  - deadline_text and opening_text follow the source: new words replace old; a new date without
 *    words clears them.
 *  - No publications keeps the stored ones (a read without anuncios[] knows less, not that there are none);
 *    no applicant terms likewise (a BDNS list entry or a bulk EU record after a SEDIA read).
 *  - summary/body: a text contained in the stored one is a poorer read of it and keeps the stored; so
 *    does a body whose every piece (" · ") the stored one contains, in any case (a BOE sumario item,
 *    "section · DEPARTMENT · epigraph", read after its own document, whose text holds all three).
 *  - personal_data is sticky: once a record was seen to be about a person it stays withheld.
 */
import type { CallRecord, Cutoff, NoticeRecord, ProjectRecord } from './records.ts';
import { closesAt, opensAt } from './zoned-time.ts';

const lower = (s: string) => s.toLocaleLowerCase('es');

const richer = (stored: string | null, incoming: string | null): string | null => {
  if (incoming === null) return stored;
  if (stored === null) return incoming;
  const s = lower(stored);
  return incoming.split(' · ').every((piece) => s.includes(lower(piece))) ? stored : incoming;
};

function fillTimes(incoming: Cutoff[], stored: Cutoff[]): Cutoff[] {
  return incoming.map((c) =>
    c.time !== null ? c : { date: c.date, time: stored.find((s) => s.date === c.date && s.time)?.time ?? null },
  );
}

export function mergeCall(stored: CallRecord, incoming: CallRecord): CallRecord {
  const merged = { ...incoming };
  for (const key of Object.keys(incoming) as Array<keyof CallRecord>) {
    if (incoming[key] === null) (merged as Record<string, unknown>)[key] = stored[key];
  }
  merged.summary = richer(stored.summary, incoming.summary);
  merged.body = richer(stored.body, incoming.body);
  merged.cutoffs = incoming.cutoffs.length > 0 ? fillTimes(incoming.cutoffs, stored.cutoffs) : stored.cutoffs;
  merged.deadline_text = incoming.deadline_text ?? (incoming.cutoffs.length > 0 ? null : stored.deadline_text);
  merged.opening_text = incoming.opening_text ?? (incoming.opening_on !== null ? null : (stored.opening_text ?? null));
  merged.publications = incoming.publications.length > 0 ? incoming.publications : (stored.publications ?? []);
  merged.applicant_terms =
    incoming.applicant_terms.length > 0 ? incoming.applicant_terms : (stored.applicant_terms ?? []);
  merged.personal_data = stored.personal_data || incoming.personal_data;
  return merged;
}

/**
 * A thinner read of a stored call (a BDNS list entry after its detail): it only fills what the stored
 * record lacks. A list entry's region is the issuing community ("CATALUÑA"); the detail's is its
 * NUTS regions ("ES511 - Barcelona; …"), which the entry must not replace.
 */
export function fillCall(stored: CallRecord, incoming: CallRecord): CallRecord {
  const merged = { ...stored };
  for (const key of Object.keys(incoming) as Array<keyof CallRecord>) {
    const s = stored[key];
    const empty = s === null || s === undefined || (Array.isArray(s) && s.length === 0);
    if (empty) (merged as Record<string, unknown>)[key] = incoming[key];
  }
  merged.personal_data = stored.personal_data || incoming.personal_data;
  return merged;
}

/** A notice read again: what the new read does not know (a null BDNS id, section) keeps the stored. */
export function mergeNotice(stored: NoticeRecord, incoming: NoticeRecord): NoticeRecord {
  const merged = { ...incoming };
  for (const key of Object.keys(incoming) as Array<keyof NoticeRecord>) {
    if (incoming[key] === null) (merged as Record<string, unknown>)[key] = stored[key];
  }
  merged.personal_data = stored.personal_data || incoming.personal_data;
  return merged;
}

/** Coordinator fields are replaced only by an import that read organization.csv (null = withheld). */
export function mergeProject(
  stored: ProjectRecord,
  incoming: ProjectRecord,
  coordinatorsKnown: boolean,
): ProjectRecord {
  const merged = { ...incoming };
  for (const key of Object.keys(incoming) as Array<keyof ProjectRecord>) {
    if (incoming[key] === null) (merged as Record<string, unknown>)[key] = stored[key];
  }
  if (coordinatorsKnown) {
    merged.coordinator = incoming.coordinator;
    merged.coordinator_country = incoming.coordinator_country;
  }
  merged.personal_data = stored.personal_data || incoming.personal_data;
  return merged;
}

/** JSON with object keys sorted: equal records hash equally whatever order fields were built in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

export interface DerivedDates {
  deadline: string | null;
  deadline_time: string | null;
  opens_at: number | null;
  closes_at: number | null;
}

/**
 * deadline = the next cut-off still open at `now`, else the last one; closes_at = when the LAST
 * cut-off closes (its stated time, else the end of its day in the call's zone); opens_at = the start
 * of the opening day in that zone.
 */
export function deriveDates(call: Pick<CallRecord, 'cutoffs' | 'opening_on' | 'time_zone'>, now: number): DerivedDates {
  const zone = call.time_zone;
  const next = call.cutoffs.find((c) => closesAt(c, zone) > now) ?? call.cutoffs.at(-1) ?? null;
  const last = call.cutoffs.at(-1);
  return {
    deadline: next?.date ?? null,
    deadline_time: next?.time ?? null,
    opens_at: call.opening_on ? opensAt(call.opening_on, zone) : null,
    closes_at: last ? closesAt(last, zone) : null,
  };
}

/**
 * A stored call as the API shows it: status and the current cut-off computed at `now`, in the
 * source's time zone. Pure, so the same function serves /search, /calls/{id} and /export.
 */
import { typesOfMask } from './applicants.ts';
import type { Cutoff, SourceStatus } from './records.ts';
import { callStatus, currentCutoff } from './status.ts';
import type { DeadlineSource } from './relative-deadline.ts';
import { closesAt } from './zoned-time.ts';

export interface StoredCall {
  id: string;
  source: string;
  source_id: string;
  title: string;
  summary: string | null;
  funder: string | null;
  programme: string | null;
  country: string;
  region: string | null;
  url: string | null;
  published_on: string | null;
  opening_on: string | null;
  deadline: string | null;
  deadline_time: string | null;
  deadline_text: string | null;
  cutoffs: string;
  time_zone: string;
  opens_at: number | null;
  closes_at: number | null;
  budget: number | null;
  award_ceiling: number | null;
  currency: string | null;
  applicant_terms: string; // JSON list of the source's own words
  applicant_mask: number; // lib/funding/applicants.ts
  changed_at: number | null;
  language: string;
  source_status: SourceStatus | null;
  bdns_id: string | null;
  deadline_source: string | null; // JSON DeadlineSource; null on rows not yet re-ruled (see deadlineSource)
}

/** How the deadline was obtained. A row stored before the rules recorded it: stated when it has a date. */
function deadlineSource(row: StoredCall): DeadlineSource | null {
  if (row.deadline_source) return JSON.parse(row.deadline_source) as DeadlineSource;
  return row.deadline !== null ? { kind: 'stated' } : null;
}

export function presentCall(row: StoredCall, now: number) {
  const cutoffs = JSON.parse(row.cutoffs) as Cutoff[];
  // With several cut-offs the one to show moves with time; with one, it is what was stored.
  const current = cutoffs.length > 1 ? currentCutoff(cutoffs, now, (c) => closesAt(c, row.time_zone)) : null;
  return {
    id: row.id,
    source: row.source,
    source_id: row.source_id,
    title: row.title,
    summary: row.summary,
    funder: row.funder,
    programme: row.programme,
    country: row.country,
    region: row.region,
    url: row.url,
    published_on: row.published_on,
    opening_on: row.opening_on,
    deadline: current ? current.date : row.deadline,
    deadline_time: current ? current.time : row.deadline_time,
    deadline_text: row.deadline_text,
    deadline_source: deadlineSource(row),
    cutoffs,
    time_zone: row.time_zone,
    budget: row.budget,
    award_ceiling: row.award_ceiling,
    currency: row.currency,
    applicant_types: typesOfMask(row.applicant_mask),
    applicants_stated: JSON.parse(row.applicant_terms) as string[],
    changed_at: row.changed_at === null ? null : new Date(row.changed_at).toISOString(),
    language: row.language,
    source_status: row.source_status,
    status: callStatus(row, now),
    bdns_id: row.bdns_id,
  };
}

export type PublicCall = ReturnType<typeof presentCall>;

export const CSV_COLUMNS = [
  'id',
  'source',
  'source_id',
  'title',
  'funder',
  'programme',
  'country',
  'region',
  'url',
  'published_on',
  'opening_on',
  'deadline',
  'deadline_time',
  'deadline_text',
  'time_zone',
  'budget',
  'award_ceiling',
  'currency',
  'applicant_types',
  'changed_at',
  'language',
  'source_status',
  'status',
  'bdns_id',
  'deadline_source',
] as const;

/**
 * A CSV cell: deadline_source is written as its kind (stated, computed, uncomputed), applicant_types
 * as its codes separated by spaces; the rest as served.
 */
export function csvValue(call: PublicCall, column: (typeof CSV_COLUMNS)[number]): unknown {
  if (column === 'deadline_source') return call.deadline_source?.kind ?? null;
  if (column === 'applicant_types') return call.applicant_types.join(' ');
  return call[column];
}

/** RFC 4180 lines: one writer for every CSV the server sends (lib/csv.ts). */
export { csvLine } from '../csv.ts';

/**
 * When the way a call is shown next changes by itself: with several cut-offs, the shown deadline moves
 * on when the current one closes. (Status changes are the corpus epoch's business.)
 */
export function presentationChangesAt(row: Pick<StoredCall, 'cutoffs' | 'time_zone'>, now: number): number {
  if (!row.cutoffs.includes('},{')) return Infinity;
  const cutoffs = JSON.parse(row.cutoffs) as Cutoff[];
  const current = currentCutoff(cutoffs, now, (c) => closesAt(c, row.time_zone));
  const at = current ? closesAt(current, row.time_zone) : Infinity;
  return at > now ? at : Infinity;
}

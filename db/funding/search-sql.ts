/**
 * The SQL pieces a funding search is built from (./search.ts): the filters as WHERE terms, the orders
 * and their keys, the columns a page reads. The status rules are those of lib/funding/status.ts, in SQL.
 */
import { undatedHorizon } from '../../lib/funding/status.ts';
import type { SearchFilters, Sort } from '../../lib/funding/search-filters.ts';

export type { SearchFilters, Sort } from '../../lib/funding/search-filters.ts';
export { hasFilters } from '../../lib/funding/search-filters.ts';

/** The closing instant used to sort calls without a deadline last (9999-12-31T23:59:59.999Z). */
export const NO_DEADLINE = 253402300799999;
export const DAY_MS = 86_400_000;

// The status rules of lib/funding/status.ts, in SQL (the end-to-end tests hold the two to each other).
const CLOSED = `(coalesce(c.source_status, '') = 'closed' OR coalesce(c.closes_at, ${NO_DEADLINE}) <= @now
  OR (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon))`;
// NOT(CLOSED) with the negation pushed inside, its first term a range on the deadline indexes (the
// served deadline is after now exactly when the last one is: see served-deadline.ts). `range: false`
// prefixes it with `+`, which keeps the planner on another index (publication order, where open calls,
// being recent, are found at once).
export const notClosed = (range: boolean) => `${range ? '' : '+'}coalesce(c.served_closes_at, ${NO_DEADLINE}) > @now
  AND coalesce(c.closes_at, ${NO_DEADLINE}) > @now
  AND coalesce(c.source_status, '') <> 'closed'
  AND NOT (c.closes_at IS NULL AND c.source_status IS NULL AND c.published_on < @undatedHorizon)`;
export const FORTHCOMING = `(coalesce(c.opens_at, CASE WHEN c.source_status = 'forthcoming' THEN ${NO_DEADLINE} ELSE 0 END) > @now)`;

function statusSql(status: NonNullable<SearchFilters['status']>, range: boolean): string {
  if (status === 'closed') return CLOSED;
  return `(${notClosed(range)} AND ${status === 'open' ? 'NOT ' : ''}${FORTHCOMING})`;
}

export function where(f: SearchFilters, range: boolean): string {
  const parts = ['c.personal_data = 0'];
  if (f.country) parts.push('c.country = @country');
  if (f.source) parts.push('c.source = @source');
  if (f.status) parts.push(statusSql(f.status, range));
  // The day is checked exactly; the instant range around it (a local day lies within UTC-3h..+1d+1h
  // for the sources' zones) lets the deadline index find the window.
  if (f.deadlineFrom)
    parts.push(`c.deadline >= @deadlineFrom AND coalesce(c.served_closes_at, ${NO_DEADLINE}) >= @deadlineFromMs`);
  if (f.deadlineTo)
    parts.push(`c.deadline <= @deadlineTo AND coalesce(c.served_closes_at, ${NO_DEADLINE}) < @deadlineToMs`);
  // Issue 27's filters: every column they read is in the order indexes (migration 017), so a walk tests
  // them from the index entry.
  if (f.applicants) {
    const any = f.applicants.mask ? '(c.applicant_mask & @applicantMask) <> 0' : null;
    const none = f.applicants.unstated ? 'c.applicant_mask = 0' : null;
    parts.push(any && none ? `(${any} OR ${none})` : (any ?? none!));
  }
  if (f.budget) {
    const range = [
      f.budget.min !== null ? 'c.budget >= @budgetMin' : null,
      f.budget.max !== null ? 'c.budget <= @budgetMax' : null,
    ].filter(Boolean);
    if (range.length === 0) parts.push('c.budget IS NOT NULL');
    else parts.push(f.budget.unstated ? `(c.budget IS NULL OR (${range.join(' AND ')}))` : range.join(' AND '));
  }
  if (f.changedSince !== null) parts.push('c.changed_at >= @changedSince');
  return parts.join(' AND ');
}

/** The parameters every search statement binds (a statement uses those its SQL names). */
export function searchParams(f: SearchFilters) {
  return {
    country: f.country,
    source: f.source,
    now: f.now,
    undatedHorizon: undatedHorizon(f.now),
    deadlineFrom: f.deadlineFrom,
    deadlineTo: f.deadlineTo,
    deadlineFromMs: f.deadlineFrom ? Date.parse(`${f.deadlineFrom}T00:00:00Z`) - 3 * 3_600_000 : null,
    deadlineToMs: f.deadlineTo ? Date.parse(`${f.deadlineTo}T00:00:00Z`) + DAY_MS + 3_600_000 : null,
    applicantMask: f.applicants?.mask ?? null,
    budgetMin: f.budget?.min ?? null,
    budgetMax: f.budget?.max ?? null,
    changedSince: f.changedSince,
  };
}

export const COLUMNS = `c.seq, c.id, c.source, c.source_id, c.title, c.summary, c.funder, c.programme, c.country, c.region, c.url,
  c.published_on, c.opening_on, c.deadline, c.deadline_time, c.deadline_text, c.cutoffs, c.time_zone, c.opens_at,
  c.closes_at, c.budget, c.award_ceiling, c.currency, c.applicant_terms, c.applicant_mask, c.changed_at, c.language,
  c.source_status, c.bdns_id, c.deadline_source, c.imported_at`;

/** Order key, its direction, and whether the deadline index should drive the filters. */
export const ORDERS: Record<Exclude<Sort, 'relevance'>, { key: string; dir: 'ASC' | 'DESC'; range: boolean }> = {
  deadline: { key: `coalesce(c.served_closes_at, ${NO_DEADLINE})`, dir: 'ASC', range: true },
  '-deadline': { key: 'coalesce(c.served_closes_at, 0)', dir: 'DESC', range: true },
  published: { key: "coalesce(c.published_on, '')", dir: 'DESC', range: false },
};

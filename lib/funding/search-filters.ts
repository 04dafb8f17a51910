/**
 * What a funding search asks for, as the search runs it (db/funding/search.ts): the validated /search
 * parameters turned into filters. Shared by /search, /search.atom, /export and saved searches (whose
 * stored parameters are turned into filters again each time they are matched), so they can never
 * disagree on what a query means. Pure; a parameter that cannot be searched is a 400 naming it.
 */
import { badRequest } from '../http/errors.ts';
import { maskOfTypes, type ApplicantType } from './applicants.ts';
import { compileRegion, parseSearch, QueryError, type ParsedQuery } from './search-query.ts';
import { isIsoDate } from './zoned-time.ts';

export type Sort = 'relevance' | 'deadline' | '-deadline' | 'published';

/** `applicant_type` also takes `unstated`: calls whose source does not say who may apply. */
export const UNSTATED = 'unstated';

/** A search's text as parsed (q) and its region filter compiled; expanded and matched by db/funding/search-expand.ts. */
export interface SearchText {
  q: string | null;
  parsed: ParsedQuery | null;
  /** The region filter's FTS5 expression. */
  region: string | null;
}

export interface SearchFilters {
  /** The text (q) and region filter; null when neither is given. */
  text: SearchText | null;
  country: string | null;
  status: 'open' | 'forthcoming' | 'closed' | null;
  source: string | null;
  /** Served deadline day window, inclusive (YYYY-MM-DD in the call's zone); calls without a deadline are outside any window. */
  deadlineFrom: string | null;
  deadlineTo: string | null;
  /** Who may apply: any of the types in `mask`, or (with `unstated`) a call that states none. */
  applicants: { mask: number; unstated: boolean } | null;
  /**
   * The budget in [min, max] (either bound may be open); calls that state no budget are kept when
   * `unstated` (the default) and left out otherwise; never read as 0.
   */
  budget: { min: number | null; max: number | null; unstated: boolean } | null;
  /** Only calls an import or sync saw change (deadline, status, budget, title…) at or after this UTC instant. */
  changedSince: number | null;
  sort: Sort;
  now: number;
}

export interface FilterParams {
  q?: string | undefined;
  country?: string | undefined;
  region?: string | undefined;
  status?: 'open' | 'forthcoming' | 'closed' | undefined;
  source?: string | undefined;
  deadline_from?: string | undefined;
  deadline_to?: string | undefined;
  applicant_type?: string | undefined;
  budget_min?: number | undefined;
  budget_max?: number | undefined;
  budget_unstated?: 'include' | 'exclude' | undefined;
  changed_since?: string | undefined;
  sort?: Sort | undefined;
}

function day(name: 'deadline_from' | 'deadline_to' | 'changed_since', value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isIsoDate(value))
    throw badRequest(`Invalid query parameter '${name}': '${value}' is not a calendar date (YYYY-MM-DD).`, name);
  return value;
}

/** `applicant_type=sme,non_profit` (the schema has checked each name) → the filter. */
function applicants(list: string | undefined): SearchFilters['applicants'] {
  if (list === undefined) return null;
  const names = list.split(',');
  const types = names.filter((n) => n !== UNSTATED) as ApplicantType[];
  return { mask: maskOfTypes(types), unstated: names.includes(UNSTATED) };
}

function budget(p: FilterParams): SearchFilters['budget'] {
  const min = p.budget_min ?? null;
  const max = p.budget_max ?? null;
  if (min !== null && max !== null && min > max)
    throw badRequest(`Invalid query parameter 'budget_max': ${max} is below budget_min ${min}.`, 'budget_max');
  const unstated = p.budget_unstated !== 'exclude';
  // Only budget_unstated=exclude: the calls that state a budget. Only include: no filter at all.
  if (min === null && max === null && unstated) return null;
  return { min, max, unstated };
}

export function toFilters(params: FilterParams, now: number): SearchFilters {
  let text: SearchFilters['text'];
  try {
    const parsed = params.q === undefined ? null : parseSearch(params.q);
    const region = params.region === undefined ? null : compileRegion(params.region);
    text = parsed || region ? { q: params.q ?? null, parsed, region } : null;
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    const name = params.q !== undefined && !err.message.startsWith('region') ? 'q' : 'region';
    throw badRequest(`Invalid query parameter '${name}': ${err.message.replace(/^region /, '')}`, name);
  }
  const deadlineFrom = day('deadline_from', params.deadline_from);
  const deadlineTo = day('deadline_to', params.deadline_to);
  if (deadlineFrom && deadlineTo && deadlineFrom > deadlineTo) {
    throw badRequest(
      `Invalid query parameter 'deadline_to': ${deadlineTo} is before deadline_from ${deadlineFrom}.`,
      'deadline_to',
    );
  }
  const changed = day('changed_since', params.changed_since);
  return {
    text,
    country: params.country?.toUpperCase() ?? null,
    status: params.status ?? null,
    source: params.source ?? null,
    deadlineFrom,
    deadlineTo,
    applicants: applicants(params.applicant_type),
    budget: budget(params),
    changedSince: changed === null ? null : Date.parse(`${changed}T00:00:00Z`),
    sort: params.sort ?? (params.q !== undefined ? 'relevance' : 'published'),
    now,
  };
}

/** Whether a search has a filter beyond the text (a filtered count is then budgeted). */
export const hasFilters = (f: SearchFilters) =>
  Boolean(
    f.country || f.source || f.status || f.deadlineFrom || f.deadlineTo || f.applicants || f.budget || f.changedSince,
  );

/** Whether it uses one of issue 27's filters (who may apply, budget, recently changed). */
export const hasNewFilters = (f: SearchFilters) =>
  f.applicants !== null || f.budget !== null || f.changedSince !== null;

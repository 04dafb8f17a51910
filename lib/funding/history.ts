/**
 * What counts as a meaningful change in a call, and how it reads (issue 27). Pure: db/funding/import.ts
 * compares what was stored with what it is about to write, db/funding/history.ts keeps the changes.
 *
 *  - deadline: the call's cut-offs (the stated ones, or the day computed from a relative period) moved,
 *    appeared or went; extended / brought forward by the last cut-off, the closing time, the cut-offs;
 *  - opening: the opening day moved;
 *  - status: the source's own status changed; `withdrawn` when it now says closed while its deadline is
 *    still ahead (or it has none): the source ended it early;
 *  - budget, award_ceiling: an amount stated, raised or cut;
 *  - title: the title's words changed (not its spacing).
 * Only a stated value that changes is a change: a value first stated (a BDNS list entry's detail
 * bringing the deadline and budget, a relative deadline computed once its BOE extract arrives) is a
 * fuller read of the call, not news about it. A call's deadline moving on to its next cut-off as time
 * passes is not a change: the cut-offs are the same. A read that knows less never erases what was
 * known (lib/funding/merge.ts), so a vanished period block is no change either.
 */
import type { Cutoff, SourceStatus } from './records.ts';

export const CHANGE_FIELDS = [
  'deadline',
  'opening',
  'status',
  'withdrawn',
  'budget',
  'award_ceiling',
  'title',
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

/** What a change compares: the fields of a call as stored, or about to be. */
export interface CallState {
  title: string;
  /** The cut-offs the call serves: the stated ones, or the computed deadline as one cut-off. */
  cutoffs: Cutoff[];
  opening_on: string | null;
  source_status: SourceStatus | null;
  budget: number | null;
  award_ceiling: number | null;
  currency: string | null;
  /** When the last cut-off closes (UTC ms); null without one. */
  closes_at: number | null;
}

export interface CallChange {
  field: ChangeField;
  before: unknown;
  after: unknown;
}

const sameCutoffs = (a: Cutoff[], b: Cutoff[]) =>
  a.length === b.length && a.every((c, i) => c.date === b[i]!.date && c.time === b[i]!.time);
const words = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The meaningful changes from `before` to `after`, seen at `now`. */
export function callChanges(before: CallState, after: CallState, now: number): CallChange[] {
  const changes: CallChange[] = [];
  if (before.cutoffs.length > 0 && after.cutoffs.length > 0 && !sameCutoffs(before.cutoffs, after.cutoffs))
    changes.push({ field: 'deadline', before: before.cutoffs, after: after.cutoffs });
  if (before.opening_on !== null && after.opening_on !== null && before.opening_on !== after.opening_on)
    changes.push({ field: 'opening', before: before.opening_on, after: after.opening_on });
  if (before.source_status !== null && after.source_status !== null && before.source_status !== after.source_status) {
    const early = after.source_status === 'closed' && (after.closes_at === null || after.closes_at > now);
    changes.push({ field: early ? 'withdrawn' : 'status', before: before.source_status, after: after.source_status });
  }
  for (const field of ['budget', 'award_ceiling'] as const) {
    if (before[field] !== null && after[field] !== null && before[field] !== after[field])
      changes.push({
        field,
        before: { amount: before[field], currency: before.currency },
        after: { amount: after[field], currency: after.currency },
      });
  }
  if (words(before.title) !== words(after.title))
    changes.push({ field: 'title', before: before.title, after: after.title });
  return changes;
}

// ---- in words ----

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 2026-02-26 → "26 February 2026"; with `year: false`, "26 February". */
export function dayWords(iso: string, year = true): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m! - 1]}${year ? ` ${y}` : ''}`;
}

/** "from 15 January to 26 February 2026", the first year left out when both are in the same one. */
function fromTo(a: string, b: string): string {
  return `from ${dayWords(a, a.slice(0, 4) !== b.slice(0, 4))} to ${dayWords(b)}`;
}

const cutoffWords = (c: Cutoff) => `${dayWords(c.date)}${c.time ? ` at ${c.time}` : ''}`;

function amountWords(v: unknown): string {
  const { amount, currency } = v as { amount: number; currency: string | null };
  if (!currency) return amount.toLocaleString('en-GB');
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount.toLocaleString('en-GB')} ${currency}`;
  }
}

function deadlineWords(before: Cutoff[], after: Cutoff[]): string {
  const a = before.at(-1)!;
  const b = after.at(-1)!;
  if (a.date !== b.date) {
    const verb = b.date > a.date ? 'extended' : 'brought forward';
    const more =
      before.length > 1 || after.length > 1 ? ` (last cut-off; now ${after.map(cutoffWords).join(', ')})` : '';
    return `deadline ${verb} ${fromTo(a.date, b.date)}${more}`;
  }
  if (a.time !== b.time && before.length === after.length)
    return `closing time on ${dayWords(b.date)} changed from ${a.time ?? 'end of the day'} to ${b.time ?? 'end of the day'}`;
  return `cut-offs changed: now ${after.map(cutoffWords).join(', ')} (were ${before.map(cutoffWords).join(', ')})`;
}

/** One change as a sentence: "deadline extended from 15 January to 26 February 2026". */
export function changeWords(change: CallChange): string {
  const { field, before, after } = change;
  switch (field) {
    case 'deadline':
      return deadlineWords(before as Cutoff[], after as Cutoff[]);
    case 'opening':
      return `opening day moved ${fromTo(before as string, after as string)}`;
    case 'status':
      return `the source's status changed from ${before as string} to ${after as string}`;
    case 'withdrawn':
      return 'withdrawn: the source closed it before its deadline';
    case 'budget':
    case 'award_ceiling': {
      const what = field === 'budget' ? 'budget' : 'award ceiling (per grant)';
      const up = (after as { amount: number }).amount > (before as { amount: number }).amount;
      return `${what} ${up ? 'raised' : 'cut'} from ${amountWords(before)} to ${amountWords(after)}`;
    }
    case 'title':
      return `title changed from “${before as string}” to “${after as string}”`;
  }
}

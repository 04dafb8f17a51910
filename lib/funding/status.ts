/**
 * A call's status as it reads now (document rule 4): computed on every request from the instants the
 * importer derived in the source's own time zone, never taken from the source's flag alone. The same
 * rules are written in SQL in db/funding/search.ts for filtering; tests/lib/funding/status.test.ts and
 * the end-to-end tests hold the two to each other.
 */
import type { Cutoff, SourceStatus } from './records.ts';

export interface StatusInputs {
  source_status: SourceStatus | null;
  opens_at: number | null;
  closes_at: number | null;
  published_on: string | null;
}

/**
 * A call whose source states neither a deadline nor a status, and whose words give no deadline this
 * service can compute (lib/funding/relative-deadline.ts: e.g. a period counted from a regional
 * bulletin, or no period at all), is taken as open for this many days after
 * publication, then closed. Such windows run a few weeks; 90 days is a generous bound that keeps a
 * years-old notice from reading "open" for ever without inventing a deadline (docs/decisions.md).
 */
export const UNDATED_OPEN_DAYS = 90;

/** The publication day before which an undated call without a source status reads closed. */
export function undatedHorizon(now: number): string {
  return new Date(now - UNDATED_OPEN_DAYS * 86_400_000).toISOString().slice(0, 10);
}

export function callStatus(call: StatusInputs, now: number): SourceStatus {
  // A source that says closed is believed (calls are withdrawn early); one that says open is not,
  // once its stated deadline has passed.
  if (call.source_status === 'closed') return 'closed';
  if (call.closes_at !== null && now >= call.closes_at) return 'closed';
  if (
    call.closes_at === null &&
    call.source_status === null &&
    call.published_on !== null &&
    call.published_on < undatedHorizon(now)
  ) {
    return 'closed';
  }
  if (call.opens_at !== null && now < call.opens_at) return 'forthcoming';
  if (call.opens_at === null && call.source_status === 'forthcoming') return 'forthcoming';
  return 'open';
}

/**
 * The deadline to show: of several cut-offs, the next one still open at `now`, else the last.
 * `closesAt` maps a cut-off to the instant it closes (lib/funding/zoned-time.ts).
 */
export function currentCutoff(cutoffs: Cutoff[], now: number, closesAt: (c: Cutoff) => number): Cutoff | null {
  if (cutoffs.length === 0) return null;
  return cutoffs.find((c) => closesAt(c) > now) ?? cutoffs[cutoffs.length - 1]!;
}

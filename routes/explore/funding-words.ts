/**
 * How the funding pages put the API's fields into words: status (as it reads now, and when the source
 * says otherwise), deadlines (the day, the time only when the source stated one, the source's time
 * zone), amounts, and the tier's remaining allowance from the accounting headers of the very answer
 * the page shows. Pure: every function takes what the API returned.
 */
import { html, type Html } from '../../lib/html.ts';
import type { PublicCall } from '../../lib/funding/present.ts';
import { APPLICANT_LABELS, APPLICANT_TYPES } from '../../lib/funding/applicants.ts';
import type { ApiAnswer } from './api.ts';

/** A call as the API serves it (the presenter's own type: the page reads exactly what the API writes). */
export type CallJson = PublicCall;

/** Labels for the source codes the search takes (the codes themselves come from the API's schema). */
export const SOURCE_LABELS: Record<string, string> = {
  eu: 'EU Funding & Tenders Portal',
  bdns: 'BDNS, Spanish national grants database',
  boe: 'BOE, Spanish official gazette',
  cordis: 'CORDIS, EU research results',
};

export const sourceWords = (code: string) => `${SOURCE_LABELS[code] ?? code} (${code})`;

const STATUS_LABELS: Record<string, string> = {
  open: 'Open',
  forthcoming: 'Forthcoming (not open yet)',
  closed: 'Closed',
};

/** "Open", "Closed (the source still says open: its deadline has passed)". */
export function statusWords(call: Pick<CallJson, 'status' | 'source_status' | 'opening_on'>): string {
  let words = STATUS_LABELS[call.status] ?? call.status;
  if (call.status === 'forthcoming' && call.opening_on) words += `; opens ${dayWords(call.opening_on)}`;
  if (call.source_status && call.source_status !== call.status) {
    words += ` (the source still says ${call.source_status}; this is the status as it reads now, from the deadline)`;
  }
  return words;
}

const DAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** 2027-01-15 → "Fri 15 January 2027" (a calendar day: no time zone conversion). */
export function dayWords(isoDate: string): string {
  const ms = Date.parse(`${isoDate}T00:00:00Z`);
  return Number.isNaN(ms) ? isoDate : DAY.format(ms);
}

/** One cut-off: the day, the time only when stated, and whose clock it is. */
export function cutoffWords(date: string, time: string | null, timeZone: string): Html {
  return time
    ? html`<time datetime="${date}T${time}">${dayWords(date)} at ${time}</time> (${timeZone} time)`
    : html`<time datetime="${date}">${dayWords(date)}</time>, end of the day (${timeZone} time; the source stated no time)`;
}

export function deadlineWords(
  call: Pick<CallJson, 'deadline' | 'deadline_time' | 'deadline_text' | 'time_zone' | 'language'>,
): Html {
  if (call.deadline) return cutoffWords(call.deadline, call.deadline_time, call.time_zone);
  if (call.deadline_text) return html`No date; the source says: <q lang="${call.language}">${call.deadline_text}</q>`;
  return html`No deadline stated by the source`;
}

/** How the deadline was obtained, for a call page: only when the service computed it or could not. */
export function deadlineSourceWords(call: Pick<CallJson, 'deadline_source' | 'language'>): Html {
  const s = call.deadline_source;
  if (!s || s.kind === 'stated') return html``;
  if (s.kind === 'computed') {
    return html`<br><span class="muted">Computed by this service: ${s.rule}, counted from ${s.publication} published ${dayWords(s.from)}. The source says: <q lang="${call.language}">${s.text}</q></span>`;
  }
  return html`<br><span class="muted">Not computed: ${s.reason}.</span>`;
}

export function amountWords(amount: number | null, currency: string | null): string {
  if (amount === null) return 'not stated by the source';
  if (!currency) return amount.toLocaleString('en-GB');
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount.toLocaleString('en-GB')} ${currency}`;
  }
}

const TIER_NAMES: Record<string, string> = { anonymous: 'Anonymous tier', basic: 'Basic tier', pro: 'Pro tier' };

const seconds = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
    : s >= 120
      ? `${Math.floor(s / 60)} min ${s % 60} s`
      : `${s} s`;

/**
 * The tier and what is left of its allowance, read from the accounting headers of the answer shown
 * (X-API-Tier, X-RateLimit-*, X-Quota-*): this page's own call is counted in them.
 */
export function quotaWords(answer: ApiAnswer): Html {
  const h = answer.headers;
  const tier = h['x-api-tier'];
  if (!tier) return html``;
  const minute =
    h['x-ratelimit-limit'] === undefined
      ? ''
      : `${h['x-ratelimit-remaining']} of ${h['x-ratelimit-limit']} calls left this minute (all back in ${seconds(Number(h['x-ratelimit-reset']))})`;
  const day =
    h['x-quota-limit'] === undefined
      ? 'no daily quota for anonymous use'
      : `${h['x-quota-remaining']} of ${h['x-quota-limit']} calls left today; resets at 00:00 UTC (in ${seconds(Number(h['x-quota-reset']))})`;
  const counted =
    tier === 'anonymous'
      ? html`counted against your address like any anonymous client; <a href="/console/sign-in">sign in</a> to search under your account's tier`
      : html`counted against your account's allowance, as your keys' calls are`;
  return html`<p class="quota" data-tier="${tier}"><strong>${TIER_NAMES[tier] ?? tier}:</strong> ${[minute, day].filter(Boolean).join('; ')}. Every page here is one call to the API, ${counted}.</p>`;
}

/** The explorer's labels of applicant_type's values (the vocabulary's, and "not stated"). */
export const APPLICANT_FILTER_LABELS: Record<string, string> = {
  ...Object.fromEntries(APPLICANT_TYPES.map((t) => [t, APPLICANT_LABELS[t].en])),
  unstated: 'Not stated by the source',
};

/** Who may apply, in words, with the source's own words when they differ. */
export function applicantWords(call: Pick<CallJson, 'applicant_types' | 'applicants_stated' | 'language'>): Html {
  if (call.applicant_types.length === 0) return html`not stated by the source`;
  const ours = call.applicant_types.map((t) => APPLICANT_LABELS[t].en).join('; ');
  return html`${ours}${call.applicants_stated.length ? html` <span class="muted">(the source says: <q lang="${call.language === 'en' ? 'en' : 'es'}">${call.applicants_stated.join('; ')}</q>)</span>` : ''}`;
}

/** The budget and, when stated, the most one grant may receive. */
export function amountsWords(call: Pick<CallJson, 'budget' | 'award_ceiling' | 'currency'>): string {
  const total = amountWords(call.budget, call.currency);
  return call.award_ceiling === null
    ? total
    : `${total}; up to ${amountWords(call.award_ceiling, call.currency)} per grant`;
}

/**
 * EU Funding & Tenders Portal → CallRecord[], from either of its two real shapes:
 *  (a) the bulk reference file grantsTenders.json: {fundingData:{GrantTenderObj:[…]}} (a bare array
 *      of the same records is accepted too); dates are epoch ms of date-only values whose UTC date
 *      IS the deadline day, with no time;
 *  (b) a SEDIA search API response: {results:[{language, metadata:{…}}]}, where every metadata value
 *      is an array of strings and there is one hit per translation.
 * Programme names come from the bulk file's frameworkProgramme; SEDIA only carries an opaque id, so
 * SEDIA records leave programme null (the store keeps a name an earlier bulk import gave).
 *
 * Who may apply follows from the type of action (bulk `topicActions`, SEDIA `typesOfAction`), kept as
 * `applicant_terms` (./applicants.ts maps them). Amounts: the budget from budgetOverview (SEDIA) or a
 * cascade offer's `budget`; the per-grant ceiling from budgetOverview's `maxContribution`.
 *
 * Cascade funding (SEDIA type 8, "competitive calls" that EU-funded projects publish): each offer
 * carries its PARENT topic's identifier and title; its own name is in callTitle and its own number in
 * `reference` ("11143COMPETITIVE_CALLen"). Two offers of one project share the identifier (the real
 * SUSA sample: METU's and Gnomon's internships), so an offer is keyed by its reference number, not by
 * the identifier, and is a call of its own: `<parent identifier>-CS<number>`, titled by its callTitle,
 * the parent topic's title and identifier in its text.
 */
import { blankCall, ImportFormatError, type CallRecord, type Cutoff, type SourceStatus } from './records.ts';
import { amount, excerpt, isObj, joinText, parseJson, sortCutoffs, stripHtml, text, type Obj } from './parse-util.ts';
import { isIsoDate, toLocal } from './zoned-time.ts';

const ZONE = 'Europe/Brussels';
const TOPIC_URL = 'https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/opportunities/topic-details/';
const STATUS_CODES: Record<string, SourceStatus> = {
  '31094501': 'forthcoming',
  '31094502': 'open',
  '31094503': 'closed',
};

export interface EuParse {
  format: 'grantsTenders' | 'sedia';
  calls: CallRecord[];
  skipped: number;
}

export function parseEu(fileText: string): EuParse {
  const data = parseJson(fileText, 'file');
  if (isObj(data) && Array.isArray(data.results)) return parseSedia(data.results);
  const bulk = isObj(data) && isObj(data.fundingData) ? data.fundingData.GrantTenderObj : data;
  if (Array.isArray(bulk) && bulk.every((r) => isObj(r) && !('metadata' in r))) {
    const prefix = Array.isArray(data) ? '' : 'fundingData.GrantTenderObj';
    return parseBulk(bulk as Obj[], prefix);
  }
  throw new ImportFormatError('file', 'neither a grantsTenders.json reference file nor a SEDIA search response');
}

function baseCall(identifier: string, title: string): CallRecord {
  return {
    ...blankCall({ source: 'eu', source_id: identifier, title, country: 'EU', time_zone: ZONE, language: 'en' }),
    funder: 'European Commission',
    url: TOPIC_URL + encodeURIComponent(identifier),
  };
}

// ---- (a) bulk reference file ----

/** Epoch ms of a date-only value: the UTC date is the day (AGRIP-MULTI-2021-IM: 2021-05-11T00:00Z). */
function epochDay(v: unknown, record: string, field: string): string | null {
  if (v === null || v === undefined) return null;
  const ms = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15)
    throw new ImportFormatError(record, `${field} is not a date (${JSON.stringify(v)})`);
  return new Date(ms).toISOString().slice(0, 10);
}

function bulkStatus(s: unknown): SourceStatus | null {
  if (!isObj(s)) return null;
  const byId = STATUS_CODES[String(s.id)];
  if (byId) return byId;
  const abbr = text(s.abbreviation)?.toLowerCase();
  return abbr === 'open' || abbr === 'forthcoming' || abbr === 'closed' ? abbr : null;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The bulk file's topicActions: [{id, abbreviation: 'HORIZON-IA', description}] → the codes. */
function actionCodes(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [];
  return [...new Set(list.map((a) => (isObj(a) ? text(a.abbreviation) : null)).filter((a): a is string => a !== null))];
}

function parseBulk(records: Obj[], prefix: string): EuParse {
  const calls: CallRecord[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  records.forEach((r, i) => {
    const at = `${prefix}[${i}]`;
    const identifier = text(r.identifier);
    if (!identifier) throw new ImportFormatError(at, 'identifier is missing');
    const record = `${at} (identifier ${identifier})`;
    if (String(r.type) === '0') {
      skipped++;
      return;
    } // a tender, not a grant
    if (seen.has(identifier)) return;
    seen.add(identifier);
    const title = text(r.title) ?? text(r.callTitle);
    if (!title) throw new ImportFormatError(record, 'title is missing');
    const deadlines = r.deadlineDatesLong ?? [];
    if (!Array.isArray(deadlines)) throw new ImportFormatError(record, 'deadlineDatesLong is not a list');
    const fp = isObj(r.frameworkProgramme) ? r.frameworkProgramme : {};
    const call = baseCall(identifier, title);
    // The same pieces, in the same order, as a SEDIA body starts with: re-reading this file after a
    // SEDIA import then leaves the richer SEDIA text in place (see mergeCall in the store).
    call.body = joinText([text(r.callTitle), strings(r.keywords).join(', '), strings(r.tags).join(', ')]);
    call.programme = text(fp.description) ?? text(fp.abbreviation);
    call.published_on = epochDay(r.publicationDateLong, record, 'publicationDateLong');
    call.opening_on = epochDay(r.plannedOpeningDateLong, record, 'plannedOpeningDateLong');
    call.cutoffs = sortCutoffs(
      deadlines
        .map((d, k) => ({ date: epochDay(d, record, `deadlineDatesLong[${k}]`) ?? '', time: null }))
        .filter((c) => c.date),
    );
    call.source_status = bulkStatus(r.status);
    call.applicant_terms = actionCodes(r.topicActions);
    calls.push(call);
  });
  return { format: 'grantsTenders', calls, skipped };
}

// ---- (b) SEDIA search response ----

/** metadata values are arrays of strings; a bare string is tolerated. */
function meta(m: Obj, key: string): string[] {
  const v = m[key];
  return typeof v === 'string' ? [v] : strings(v);
}
const first = (m: Obj, key: string): string | null => text(meta(m, key)[0]);

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * A SEDIA instant → the Brussels day it names, and a time only when one is stated: a local
 * midnight (…T23:00:00.000+0000 in winter) means "that day, no time"; a UTC midnight is the
 * date-only encoding the bulk file uses (it is 01:00/02:00 in Brussels, never a real deadline).
 */
export function brusselsCutoff(v: string, record: string, field: string): Cutoff {
  const s = v.trim();
  // Date.parse would roll 2026-02-30 over into March: the calendar day is checked first.
  const ms = INSTANT.test(s) && isIsoDate(s.slice(0, 10)) ? Date.parse(s.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : NaN;
  if (!Number.isFinite(ms)) throw new ImportFormatError(record, `${field} is not a date (${JSON.stringify(v)})`);
  const local = toLocal(ms, ZONE);
  const dateOnly = local.time === '00:00' || ms % 86_400_000 === 0;
  return { date: local.date, time: dateOnly ? null : local.time };
}

// "All deadlines are at 17.00.00 Brussels local time" (and the Spanish and French wording).
const STATED_TIME =
  /(\d{1,2})[.:h](\d{2})(?:[.:]\d{2})?\s*(?:h\s*)?\(?\s*(?:Brussels(?: local)? time|hora local de Bruselas|heure (?:locale )?de Bruxelles)/i;

export function statedTime(texts: Array<string | null>): string | null {
  for (const t of texts) {
    const m = t ? STATED_TIME.exec(t) : null;
    if (m && Number(m[1]) < 24) return `${m[1]!.padStart(2, '0')}:${m[2]}`;
  }
  return null;
}

/**
 * budgetOverview is JSON inside a string: the budget is the sum of every budgetYearMap amount; the
 * per-grant ceiling the largest `maxContribution` an action states (Horizon Europe topics state one
 * per action: "EU contribution per project" up to it). Nulls when unreadable or not stated.
 */
function budgetOf(json: string | null): { total: number | null; ceiling: number | null } {
  const none = { total: null, ceiling: null };
  if (!json) return none;
  try {
    const o = JSON.parse(json) as {
      budgetTopicActionMap?: Record<
        string,
        Array<{ budgetYearMap?: Record<string, unknown>; maxContribution?: unknown }>
      >;
    };
    let sum = 0;
    let ceiling = 0;
    for (const actions of Object.values(o.budgetTopicActionMap ?? {})) {
      for (const a of actions ?? []) {
        for (const v of Object.values(a.budgetYearMap ?? {})) if (typeof v === 'number') sum += v;
        if (typeof a.maxContribution === 'number' && a.maxContribution > ceiling) ceiling = a.maxContribution;
      }
    }
    return { total: sum > 0 ? sum : null, ceiling: ceiling > 0 ? ceiling : null };
  } catch {
    return none;
  }
}

/**
 * The language of a hit's text: its metadata's. The result's own `language` is the translation entry
 * the hit came from, which can differ: the real subvenia page has three `bg` hits whose metadata,
 * title and text are English.
 */
function languageOf(r: Obj, m: Obj): string {
  return (first(m, 'language') ?? text(r.language) ?? 'en').toLowerCase();
}

const CASCADE_REFERENCE = /^(\d+)COMPETITIVE_CALL/i;

/** A result's own key: the topic identifier, or a cascade offer's reference number (see the header). */
function resultKey(r: Obj, m: Obj, identifier: string): { key: string; cascade: string | null } {
  const n = first(m, 'type') === '8' ? CASCADE_REFERENCE.exec(text(r.reference) ?? '')?.[1] : undefined;
  return n ? { key: `${identifier}-CS${n}`, cascade: n } : { key: identifier, cascade: null };
}

/** The source_id a SEDIA result is stored under (its translations share it); null when it has none. */
export function sediaSourceId(r: unknown): string | null {
  if (!isObj(r) || !isObj(r.metadata)) return null;
  const identifier = first(r.metadata, 'identifier');
  return identifier ? resultKey(r, r.metadata, identifier).key : null;
}

function parseSedia(results: unknown[]): EuParse {
  // One hit per translation: keep, per key, the English hit, else the first one.
  const chosen = new Map<string, { i: number; r: Obj; m: Obj; identifier: string; cascade: string | null }>();
  results.forEach((r, i) => {
    if (!isObj(r) || !isObj(r.metadata)) throw new ImportFormatError(`results[${i}]`, 'metadata is missing');
    const identifier = first(r.metadata, 'identifier');
    if (!identifier) throw new ImportFormatError(`results[${i}]`, 'metadata.identifier is missing');
    const { key, cascade } = resultKey(r, r.metadata, identifier);
    const prev = chosen.get(key);
    if (!prev || (languageOf(prev.r, prev.m) !== 'en' && languageOf(r, r.metadata) === 'en'))
      chosen.set(key, { i, r, m: r.metadata, identifier, cascade });
  });
  const calls: CallRecord[] = [];
  let skipped = 0;
  for (const [key, { i, r, m, identifier, cascade }] of chosen) {
    const record = `results[${i}] (identifier ${identifier}${cascade ? `, reference ${text(r.reference)}` : ''})`;
    if (first(m, 'type') === '0') {
      skipped++;
      continue;
    }
    const topicTitle = first(m, 'title') ?? text(r.title);
    const title = cascade ? (first(m, 'callTitle') ?? text(r.summary) ?? topicTitle) : (topicTitle ?? text(r.summary));
    if (!title) throw new ImportFormatError(record, 'title is missing');
    const description = stripHtml(first(m, 'descriptionByte') ?? (cascade ? first(m, 'description') : null));
    const time = statedTime([
      ...meta(m, 'descriptionByte'),
      ...meta(m, 'additionalInfos'),
      ...meta(m, 'topicConditions'),
    ]);
    const call = baseCall(key, title);
    call.language = languageOf(r, m);
    call.summary = excerpt(description);
    call.body = joinText(
      cascade
        ? [identifier, topicTitle, first(m, 'projectAcronym'), first(m, 'projectName'), description]
        : [first(m, 'callTitle'), meta(m, 'keywords').join(', '), meta(m, 'tags').join(', '), description],
    );
    if (cascade) call.url = text(r.url) ?? call.url;
    const start = first(m, 'startDate');
    call.opening_on = start ? brusselsCutoff(start, record, 'startDate').date : null;
    call.cutoffs = sortCutoffs(
      meta(m, 'deadlineDate').map((d) => {
        const c = brusselsCutoff(d, record, 'deadlineDate');
        return c.time === null && time ? { date: c.date, time } : c;
      }),
    );
    call.source_status = STATUS_CODES[first(m, 'status') ?? ''] ?? null;
    const budget = cascade
      ? { total: amount(first(m, 'budget'), record, 'budget'), ceiling: null }
      : budgetOf(first(m, 'budgetOverview'));
    call.budget = budget.total;
    call.award_ceiling = budget.ceiling;
    call.currency = call.budget === null && call.award_ceiling === null ? null : 'EUR';
    call.applicant_terms = [
      ...new Set(
        meta(m, 'typesOfAction')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    calls.push(call);
  }
  return { format: 'sedia', calls, skipped };
}

/**
 * The normalised records the four funding importers produce. Parsers (lib/funding/parse-*.ts) are
 * pure: file text in, records out; db/funding/import.ts stores them.
 */

export type CallSource = 'eu' | 'bdns' | 'boe';
export type SourceCode = CallSource | 'cordis';
export type SourceStatus = 'open' | 'forthcoming' | 'closed';

/** One cut-off of a call: the closing day in the source's zone, and a time only when stated. */
export interface Cutoff {
  date: string;
  time: string | null;
}

/**
 * A publication of a call in an official bulletin: its day (Europe/Madrid), what it is (a BOE id such
 * as "BOE-B-2026-41210", else the bulletin and the source's own number) and the bulletin as the source
 * names it ("DOGC. D.O. DE LA GENERALITAT DE CATALUNYA"). A relative period counts from one of them.
 */
export interface Publication {
  date: string;
  id: string;
  bulletin?: string | null;
}

export interface CallRecord {
  source: CallSource;
  source_id: string;
  title: string;
  summary: string | null;
  body: string | null; // longer plain text for search (tags stripped); not served
  funder: string | null;
  programme: string | null;
  country: string; // ISO 3166-1 alpha-2; 'EU' for the Commission
  region: string | null;
  url: string | null;
  published_on: string | null; // YYYY-MM-DD in time_zone
  opening_on: string | null; // YYYY-MM-DD in time_zone
  cutoffs: Cutoff[]; // ascending; empty when the source gives no date
  deadline_text: string | null; // the source's own words when it gives no date (BDNS textFin)
  opening_text: string | null; // the source's words on when the period starts, when it gives no date (BDNS textInicio)
  publications: Publication[]; // the call's bulletin publications the source lists (BDNS anuncios), by date
  time_zone: 'Europe/Brussels' | 'Europe/Madrid';
  budget: number | null; // the call's total, in `currency`
  award_ceiling: number | null; // the most one grant may receive, when the source states it
  currency: string | null;
  applicant_terms: string[]; // who may apply, in the source's words (./applicants.ts maps them)
  language: string; // ISO 639-1
  source_status: SourceStatus | null;
  bdns_id: string | null;
  personal_data: boolean; // about a natural person: stored flagged, never served
}

/** A call record with only what identifies it and where it comes from: every other field unknown yet. */
export function blankCall(
  id: Pick<CallRecord, 'source' | 'source_id' | 'title' | 'country' | 'time_zone' | 'language'>,
): CallRecord {
  return {
    ...id,
    summary: null,
    body: null,
    funder: null,
    programme: null,
    region: null,
    url: null,
    published_on: null,
    opening_on: null,
    cutoffs: [],
    deadline_text: null,
    opening_text: null,
    publications: [],
    budget: null,
    award_ceiling: null,
    currency: null,
    applicant_terms: [],
    source_status: null,
    bdns_id: null,
    personal_data: false,
  };
}

/** A Spanish official record (BDNS, BOE): Madrid days, in Spanish. */
export function spanishCall(source: 'bdns' | 'boe', sourceId: string, title: string): CallRecord {
  return blankCall({ source, source_id: sourceId, title, country: 'ES', time_zone: 'Europe/Madrid', language: 'es' });
}

export interface ProjectRecord {
  source_id: string;
  acronym: string | null;
  title: string;
  topic: string;
  status: string | null;
  start_date: string | null;
  end_date: string | null;
  total_cost: number | null;
  ec_contribution: number | null;
  framework: string | null;
  coordinator: string | null;
  coordinator_country: string | null;
  url: string | null;
  personal_data: boolean;
}

export interface NoticeRecord {
  source_id: string; // BOE identificador
  bdns_id: string | null;
  title: string;
  url: string | null;
  published_on: string;
  section: string | null;
  department: string | null;
  personal_data: boolean;
}

/** A file that cannot be read as the source's format; names the record so an operator can find it. */
export class ImportFormatError extends Error {
  constructor(
    readonly record: string,
    detail: string,
  ) {
    super(`${record}: ${detail}`);
  }
}

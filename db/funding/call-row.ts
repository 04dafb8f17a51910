/** A stored funding row back into the record shape the parsers produce (so the two can be merged and hashed). */
export type Row = Record<string, unknown>;

/** The columns of funding_calls that hold a CallRecord's fields (the rest are derived). */
export const CALL_FIELDS = [
  'source',
  'source_id',
  'title',
  'summary',
  'body',
  'funder',
  'programme',
  'country',
  'region',
  'url',
  'published_on',
  'opening_on',
  'cutoffs',
  'deadline_text',
  'opening_text',
  'publications',
  'time_zone',
  'budget',
  'award_ceiling',
  'currency',
  'applicant_terms',
  'language',
  'source_status',
  'bdns_id',
  'personal_data',
] as const;

/** Columns holding JSON lists (cut-offs, publications, who may apply). */
const JSON_FIELDS = new Set(['cutoffs', 'publications', 'applicant_terms']);

export function rowToRecord<T>(row: Row, fields: readonly string[]): T {
  const rec: Row = {};
  for (const f of fields)
    rec[f] =
      f === 'personal_data'
        ? row[f] === 1
        : JSON_FIELDS.has(f)
          ? (JSON.parse((row[f] as string | undefined) ?? '[]') as unknown[])
          : (row[f] ?? null);
  return rec as T;
}

/** A record's fields as statement parameters: lists as JSON, personal_data as 0/1. */
export function toParams(rec: object): Row {
  const p: Row = { ...rec };
  for (const f of JSON_FIELDS) if (f in p) p[f] = JSON.stringify(p[f]);
  p.personal_data = p.personal_data ? 1 : 0;
  return p;
}

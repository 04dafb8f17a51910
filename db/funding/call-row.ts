/** A stored funding row back into the record shape the parsers produce (so the two can be merged and hashed). */
import type { Cutoff } from '../../lib/funding/records.ts';

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
  'time_zone',
  'budget',
  'currency',
  'language',
  'source_status',
  'bdns_id',
  'personal_data',
] as const;

export function rowToRecord<T>(row: Row, fields: readonly string[]): T {
  const rec: Row = {};
  for (const f of fields)
    rec[f] =
      f === 'personal_data' ? row[f] === 1 : f === 'cutoffs' ? (JSON.parse(row[f] as string) as Cutoff[]) : row[f];
  return rec as T;
}

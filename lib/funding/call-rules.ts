/**
 * The data rules every imported call goes through, whatever its source and path (db/funding/import.ts
 * runs them on the merged record; `funding reapply-rules` runs them on stored rows). Pure: what the
 * rules need from the rest of the corpus (the BOE extract of a BDNS call) is passed in.
 *
 *  1. Personal data (./personal-data.ts): a record about a natural person is withheld.
 *  2. Deadlines: a source-stated cut-off is used as stated; otherwise a relative period in the
 *     source's words (deadline_text, read with opening_text; else the title) is computed from the
 *     publication it counts from: the record itself (a BOE item), the call's BOE extract in the corpus,
 *     or a publication the record lists (a BDNS detail's anuncios) (./relative-deadline.ts); or it is
 *     kept uncomputed with the reason. deadline_source says which.
 */
import { isAboutPerson } from './personal-data.ts';
import type { CallRecord, Cutoff, Publication } from './records.ts';
import { deadlineFromText, readRelativePeriod, type DeadlineSource } from './relative-deadline.ts';

export interface RuleContext {
  /** The BOE extract announcing the call's BDNS id, when the corpus has one. */
  boeExtract: Publication | null;
  /** false (reapply-rules): decide from the record alone, so a rule change can also release a record. */
  sticky: boolean;
}

export interface RuledCall {
  record: CallRecord;
  /** The cut-offs the served deadline and status derive from: the stated ones, or the computed day. */
  cutoffs: Cutoff[];
  deadlineSource: DeadlineSource | null;
}

export function applyCallRules(rec: CallRecord, ctx: RuleContext): RuledCall {
  const personal = (ctx.sticky && rec.personal_data) || isAboutPerson(rec);
  const record = { ...rec, personal_data: personal };
  if (record.cutoffs.length > 0) return { record, cutoffs: record.cutoffs, deadlineSource: { kind: 'stated' } };
  const text = record.deadline_text ?? (readRelativePeriod(record.title) ? record.title : null);
  if (text === null) return { record, cutoffs: [], deadlineSource: null };
  if (record.time_zone !== 'Europe/Madrid') {
    return {
      record,
      cutoffs: [],
      deadlineSource: {
        kind: 'uncomputed',
        reason: 'relative periods are computed for Spanish official texts only',
        text,
      },
    };
  }
  const self =
    record.source === 'boe' && record.published_on ? { date: record.published_on, id: record.source_id } : null;
  const { date, source } = deadlineFromText(text, {
    self,
    boeExtract: ctx.boeExtract,
    publications: record.publications,
    start: record.opening_text,
  });
  return { record, cutoffs: date ? [{ date, time: null }] : [], deadlineSource: source };
}

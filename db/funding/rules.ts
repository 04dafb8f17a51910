/**
 * The data rules against the store: what they read from the rest of the corpus, and
 * `funding reapply-rules`, which re-runs every rule over the rows already stored (after a rule
 * changes) and says what it withheld, released, recomputed and stopped serving as a call.
 */
import type { Db } from '../connection.ts';
import { applyCallRules, type RuledCall } from '../../lib/funding/call-rules.ts';
import { applicantMask } from '../../lib/funding/applicants.ts';
import { canonicalJson, deriveDates } from '../../lib/funding/merge.ts';
import { boeIdsIn, dispositionKey, noticeKind, type NoticeKind } from '../../lib/funding/notice-kind.ts';
import { isAboutPerson } from '../../lib/funding/personal-data.ts';
import type { CallRecord, NoticeRecord, Publication } from '../../lib/funding/records.ts';
import { CALL_FIELDS, rowToRecord, type Row } from './call-row.ts';
import { createHash } from 'node:crypto';
import { statementsFor } from '../statements.ts';

const statements = statementsFor((db) => ({
  // The first BOE extract announcing a BDNS call: what "desde la publicación del extracto" counts from.
  extract: db.prepare(`SELECT source_id AS id, published_on AS date FROM funding_notices
    WHERE bdns_id = ? AND kind = 'call' ORDER BY published_on, source_id LIMIT 1`),
  updateCall: db.prepare(`UPDATE funding_calls SET personal_data = @personal_data, deadline = @deadline,
    deadline_time = @deadline_time, opens_at = @opens_at, closes_at = @closes_at, deadline_source = @deadline_source,
    applicant_mask = @applicant_mask, content_hash = @content_hash, updated_at = @now WHERE id = @id`),
  updateNotice: db.prepare(`UPDATE funding_notices SET kind = @kind, refers_to = @refers_to,
    personal_data = @personal_data WHERE source_id = @source_id`),
  unserve: db.prepare('DELETE FROM funding_calls WHERE id = ?'),
  allNotices: db.prepare('SELECT * FROM funding_notices'),
  allCalls: db.prepare('SELECT * FROM funding_calls ORDER BY seq'),
  recordRun: db.prepare(
    `INSERT INTO funding_rule_runs (ran_at, calls, withheld, released, deadlines, unserved)
      VALUES (?, ?, ?, ?, ?, ?)`,
  ),
}));

export function ruleLookups(db: Db) {
  const extract = statements(db).extract;
  return { boeExtract: (bdnsId: string) => (extract.get(bdnsId) as Publication | undefined) ?? null };
}
export type RuleLookups = ReturnType<typeof ruleLookups>;

export function callRules(rec: CallRecord, lookups: RuleLookups, sticky = true): RuledCall {
  return applyCallRules(rec, { boeExtract: rec.bdns_id ? lookups.boeExtract(rec.bdns_id) : null, sticky });
}

/** A notice's kind and what it refers to: a BOE id it names, else the disposition it is about. */
export function noticeRules<T extends NoticeRecord>(rec: T): T & { kind: NoticeKind; refers_to: string | null } {
  const kind = noticeKind(rec.title);
  const refersTo =
    boeIdsIn(rec.title).find((id) => id !== rec.source_id) ??
    (kind === 'call' ? null : dispositionKey(rec.title, kind === 'bases' ? 'own' : 'referred'));
  return { ...rec, kind, refers_to: refersTo };
}

export interface ReapplySummary {
  calls: number;
  withheld: number; // served before, withheld now
  released: number; // withheld before, served now
  deadlines: number; // calls whose deadline or deadline_source changed
  unserved: number; // boe: calls removed because their item is a notice, not a call
  notices: number; // notices whose kind, link or withholding changed
  withheld_ids: string[];
  released_ids: string[];
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Every rule again over every stored call and notice, in one transaction, logged in
 * funding_rule_runs (which also moves the corpus generation, so cached searches are dropped).
 * Withholding is decided from the stored record alone here (not sticky), so a rule that no longer
 * holds releases the record; an import keeps a withheld record withheld.
 */
export function reapplyFundingRules(db: Db, now: number): ReapplySummary {
  const out: ReapplySummary = {
    calls: 0,
    withheld: 0,
    released: 0,
    deadlines: 0,
    unserved: 0,
    notices: 0,
    withheld_ids: [],
    released_ids: [],
  };
  const lookups = ruleLookups(db);
  const { updateCall, updateNotice, unserve } = statements(db);
  db.transaction(() => {
    // Notices first: a BDNS call's deadline may count from an extract's date.
    for (const row of statements(db).allNotices.all() as Row[]) {
      const rec = noticeRules({
        ...(row as unknown as NoticeRecord),
        personal_data: isAboutPerson({ title: row.title as string }),
      });
      const personal = rec.personal_data ? 1 : 0;
      if (rec.kind !== row.kind || rec.refers_to !== row.refers_to || personal !== row.personal_data) {
        updateNotice.run({
          kind: rec.kind,
          refers_to: rec.refers_to,
          personal_data: personal,
          source_id: row.source_id,
        });
        out.notices++;
      }
    }
    for (const row of statements(db).allCalls.all() as Row[]) {
      out.calls++;
      const rec = rowToRecord<CallRecord>(row, CALL_FIELDS);
      if (rec.source === 'boe' && noticeKind(rec.title) !== 'call') {
        unserve.run(row.id);
        out.unserved++;
        continue;
      }
      const ruled = callRules(rec, lookups, false);
      const dates = deriveDates({ ...ruled.record, cutoffs: ruled.cutoffs }, now);
      const deadlineSource = ruled.deadlineSource === null ? null : JSON.stringify(ruled.deadlineSource);
      const personal = ruled.record.personal_data ? 1 : 0;
      const deadlineChanged =
        dates.deadline !== row.deadline || dates.closes_at !== row.closes_at || deadlineSource !== row.deadline_source;
      // Who may apply, from the stored source terms (a mapping added to lib/funding/applicants.ts).
      const mask = applicantMask(rec.source, rec.applicant_terms);
      if (!deadlineChanged && personal === row.personal_data && mask === row.applicant_mask) continue;
      if (deadlineChanged) out.deadlines++;
      if (personal === 1 && row.personal_data === 0) {
        out.withheld++;
        out.withheld_ids.push(row.id as string);
      }
      if (personal === 0 && row.personal_data === 1) {
        out.released++;
        out.released_ids.push(row.id as string);
      }
      updateCall.run({
        ...dates,
        applicant_mask: mask,
        personal_data: personal,
        deadline_source: deadlineSource,
        content_hash: sha256(canonicalJson(ruled.record)),
        now,
        id: row.id,
      });
    }
    statements(db).recordRun.run(now, out.calls, out.withheld, out.released, out.deadlines, out.unserved);
  }).immediate();
  return out;
}

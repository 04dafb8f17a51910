/**
 * Imports one funding file into the database: read, parse with the pure parsers, then write
 * everything in ONE immediate transaction. A file that does not parse is refused with an
 * ImportFormatError naming the record, before anything is written; a failure while writing rolls the
 * whole file back.
 *
 * Rules (merge rules are in lib/funding/merge.ts):
 *  - a call's id is `<source>:<source_id>`; content_hash is the SHA-256 of the merged record's
 *    canonical JSON, and a record whose hash and current deadline are unchanged is not written at
 *    all (re-importing a file changes no row, not even updated_at);
 *  - BOE: every grant item is upserted as a notice, classified (lib/funding/notice-kind.ts: call,
 *    bases, correction, modification, award); only a 'call' item is kept as a call
 *    `boe:<identificador>`, and only while no BDNS call has its BDNS id (otherwise the notice just
 *    attaches by bdns_id). A BDNS call the notice names gets its deadline recomputed (an extract's
 *    publication date is what "N días desde la publicación del extracto" counts from);
 *  - BOE item documents (the `url_xml` of a sumario item) are read like a sumario's items, with the BDNS
 *    id and deadline sentence only they hold; a notice keeps a BDNS id an earlier read gave;
 *  - BDNS: a list entry only fills what a stored call lacks (a detail knows more); importing a call
 *    deletes any `boe:` call with the same BDNS id, or whose BOE item the detail
 *    lists in anuncios[] (folded); the BOE extracts it lists are stored as notices of the call;
 *  - CORDIS: upserts funding_projects; the path is a project.csv (organization.csv is read from the
 *    same folder when present) or a folder holding project.csv and optionally organization.csv
 *    (an unzipped cordis-HORIZONprojects-csv.zip);
 *  - the data rules (./rules.ts) run here, on the merged record, for every source and every path
 *    (EU file and search response, BDNS list and detail, BOE JSON and XML, and any sync that calls
 *    importFundingText): records about a natural person are stored with personal_data = 1 (the FTS
 *    triggers skip them and every read goes through funding_public_calls; the summary counts them as
 *    withheld), and a deadline stated only as a relative period is computed (deadline_source says how);
 *  - a stored call whose deadline, opening day, status, budget, award ceiling or title changes keeps
 *    the change in its history (./history.ts, rules in lib/funding/history.ts), in the same transaction;
 *  - the public calls an import inserted or changed are matched against the saved searches
 *    (./saved-search-alerts.ts), which notify their accounts of new calls, in the same transaction;
 *  - every import, even one that changed nothing, is logged in funding_imports.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Db } from '../connection.ts';
import { parseBdns } from '../../lib/funding/parse-bdns.ts';
import { parseBoe, type BoeParse } from '../../lib/funding/parse-boe.ts';
import { parseCordis } from '../../lib/funding/parse-cordis.ts';
import { parseEu } from '../../lib/funding/parse-eu.ts';
import { canonicalJson, deriveDates, fillCall, mergeCall, mergeNotice, mergeProject } from '../../lib/funding/merge.ts';
import { noticeKind } from '../../lib/funding/notice-kind.ts';
import { isAboutPerson } from '../../lib/funding/personal-data.ts';
import { CALL_FIELDS, rowToRecord, toParams, type Row } from './call-row.ts';
import { applicantMask } from '../../lib/funding/applicants.ts';
import { callChanges, type CallState } from '../../lib/funding/history.ts';
import type { Cutoff } from '../../lib/funding/records.ts';
import { recordChanges } from './history.ts';
import { notifySavedSearches } from './saved-search-alerts.ts';
import { callRules, noticeRules, ruleLookups } from './rules.ts';
import {
  ImportFormatError,
  type CallRecord,
  type NoticeRecord,
  type ProjectRecord,
  type SourceCode,
} from '../../lib/funding/records.ts';
import { statementsFor } from '../statements.ts';

/** Rows written, by what happened to them. */
export interface RowCounts {
  inserted: number; // rows created
  updated: number; // rows whose merged content (or, for calls, current deadline) changed
  unchanged: number; // rows left untouched
  withheld: number; // records stored with personal_data = 1
}

/**
 * What an import did. The top-level counts are calls (for CORDIS, projects); bulletin notices that
 * are not calls (BOE items, the BOE extracts a BDNS detail lists) are counted apart, in `notices`.
 */
export interface ImportSummary extends RowCounts {
  source: SourceCode;
  file: string;
  notices?: RowCounts; // boe, bdns: notices written
  skipped?: number; // eu: tenders in the file, not imported
  folded?: number; // bdns: boe: calls removed because their BDNS call is now here
  attached?: number; // boe: items whose BDNS call exists (no boe: call kept)
  items?: number; // boe: grant items in the file (calls and other notices)
  recomputed?: number; // boe: BDNS calls whose deadline an extract's date now fixes
  projects?: number; // cordis: projects in the file
  coordinatorsWithheld?: number; // cordis: natural-person coordinators whose name was not stored
}

type Outcome = 'inserted' | 'updated' | 'unchanged';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function importFundingFile(db: Db, source: SourceCode, path: string, now: number): ImportSummary {
  if (source !== 'cordis') return importFundingText(db, source, path, readFileSync(path, 'utf8'), now);
  const isDir = statSync(path).isDirectory();
  const projectPath = isDir ? join(path, 'project.csv') : path;
  if (!existsSync(projectPath)) throw new Error(`${path}: no project.csv in this folder`);
  const orgPath = join(isDir ? path : dirname(path), 'organization.csv');
  const organization = existsSync(orgPath) ? readFileSync(orgPath, 'utf8') : null;
  return importFundingText(db, source, path, readFileSync(projectPath, 'utf8'), now, organization);
}

/**
 * A BOE sumario and the documents of its items (the sync fetches each item's `url_xml`), imported as
 * one: each item is written once, with what its document adds (the BDNS id, the deadline sentence, the
 * text), so the counts are the day's calls and notices, not the sumario's plus the documents'.
 */
export function importBoeDay(
  db: Db,
  fileName: string,
  sumario: string,
  documents: Array<{ name: string; text: string }>,
  now: number,
): ImportSummary {
  const day = parseBoe(sumario);
  for (const doc of documents) {
    let read: BoeParse;
    try {
      read = parseBoe(doc.text);
    } catch (err) {
      if (err instanceof ImportFormatError) throw new ImportFormatError(doc.name, err.message);
      throw err;
    }
    read.notices.forEach((n, k) => {
      const i = day.notices.findIndex((m) => m.source_id === n.source_id);
      if (i === -1) {
        day.notices.push(n);
        day.calls.push(read.calls[k]!);
      } else {
        day.notices[i] = mergeNotice(day.notices[i]!, n);
        day.calls[i] = mergeCall(day.calls[i]!, read.calls[k]!);
      }
    });
  }
  const text = [sumario, ...documents.map((d) => d.text)].join('\u0000');
  return importFundingText(db, 'boe', fileName, text, now, null, day);
}

/** Same as importFundingFile with the text in hand; for CORDIS, `organization` is organization.csv. */
export function importFundingText(
  db: Db,
  source: SourceCode,
  fileName: string,
  text: string,
  now: number,
  organization: string | null = null,
  boeDay: BoeParse | null = null,
): ImportSummary {
  const fileSha = sha256(organization === null ? text : `${text}\u0000${organization}`);
  const summary: ImportSummary = { source, file: fileName, inserted: 0, updated: 0, unchanged: 0, withheld: 0 };
  const tally = (counts: RowCounts, [o, personal]: [Outcome, boolean]) => {
    counts[o]++;
    if (personal) counts.withheld++;
  };
  const count = (result: [Outcome, boolean]) => tally(summary, result);
  const notices: RowCounts = { inserted: 0, updated: 0, unchanged: 0, withheld: 0 };
  const w = writers(db, now, seenIn(fileName));
  let write: () => void;

  // Parse first, outside the transaction: a format error leaves the database untouched.
  if (source === 'eu') {
    const { calls, skipped } = parseEu(text);
    summary.skipped = skipped;
    write = () => calls.forEach((c) => count(w.call(c)));
  } else if (source === 'bdns') {
    const parsed = parseBdns(text);
    Object.assign(summary, { folded: 0, notices });
    write = () => {
      // The BOE extracts the details list go first: a relative deadline counts from the extract's day.
      for (const n of parsed.notices) {
        const [outcome, personal] = w.notice(n);
        tally(notices, [outcome, personal]);
        summary.folded! += w.unserve(`boe:${n.source_id}`);
      }
      for (const c of parsed.calls) {
        count(w.call(c, parsed.format === 'list'));
        summary.folded! += w.foldBoe(c.source_id);
      }
    };
  } else if (source === 'boe') {
    const parsed = boeDay ?? parseBoe(text);
    Object.assign(summary, { items: parsed.notices.length, attached: 0, recomputed: 0, notices });
    write = () =>
      parsed.notices.forEach((n, i) => {
        const [outcome, personal, merged] = w.notice(n);
        tally(notices, [outcome, personal]);
        // The BDNS id may come from this read (an item document) or an earlier one (a BDNS detail's anuncios).
        const bdnsId = merged.bdns_id;
        if (bdnsId !== null && w.hasBdnsCall(bdnsId)) {
          summary.attached!++;
          summary.recomputed! += w.refreshBdns(bdnsId);
          w.unserve(`boe:${n.source_id}`);
        } else if (noticeKind(n.title) === 'call') count(w.call({ ...parsed.calls[i]!, bdns_id: bdnsId }));
        else w.unserve(`boe:${n.source_id}`);
      });
  } else {
    const { projects, coordinatorsKnown, coordinatorsWithheld } = parseCordis({ project: text, organization });
    Object.assign(summary, { projects: projects.length, coordinatorsWithheld });
    write = () => projects.forEach((p) => count(w.project(p, coordinatorsKnown)));
  }

  db.transaction(() => {
    write();
    notifySavedSearches(db, w.touched, now);
    statements(db).recordImport.run(
      source,
      fileName,
      fileSha,
      now,
      summary.inserted,
      summary.updated,
      summary.unchanged,
      summary.withheld,
    );
  }).immediate();
  return summary;
}

// ---- row writers ----

const CALL_COLUMNS = [
  ...CALL_FIELDS,
  'deadline',
  'deadline_time',
  'opens_at',
  'closes_at',
  'deadline_source',
  'applicant_mask',
  'content_hash',
] as const;
const PROJECT_FIELDS = [
  'source_id',
  'acronym',
  'title',
  'topic',
  'status',
  'start_date',
  'end_date',
  'total_cost',
  'ec_contribution',
  'framework',
  'coordinator',
  'coordinator_country',
  'url',
  'personal_data',
] as const;
const NOTICE_FIELDS = [
  'source_id',
  'bdns_id',
  'title',
  'url',
  'published_on',
  'section',
  'department',
  'personal_data',
] as const;
const NOTICE_COLUMNS = [...NOTICE_FIELDS, 'kind', 'refers_to'] as const;

const statements = statementsFor((db) => ({
  getCall: db.prepare('SELECT * FROM funding_calls WHERE id = ?'),
  insertCall: db.prepare(`INSERT INTO funding_calls (id, ${CALL_COLUMNS.join(', ')}, imported_at, updated_at)
    VALUES (@id, ${CALL_COLUMNS.map((c) => `@${c}`).join(', ')}, @now, @now)`),
  updateCall: db.prepare(
    `UPDATE funding_calls SET ${CALL_COLUMNS.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @now WHERE id = @id`,
  ),
  hasBdns: db.prepare("SELECT 1 FROM funding_calls WHERE source = 'bdns' AND bdns_id = ? LIMIT 1").pluck(),
  foldBoe: db.prepare("DELETE FROM funding_calls WHERE source = 'boe' AND bdns_id = ?"),
  unserve: db.prepare('DELETE FROM funding_calls WHERE id = ?'),
  bdnsCall: db.prepare("SELECT * FROM funding_calls WHERE source = 'bdns' AND bdns_id = ?"),
  getProject: db.prepare('SELECT * FROM funding_projects WHERE source_id = ?'),
  insertProject:
    db.prepare(`INSERT INTO funding_projects (${PROJECT_FIELDS.join(', ')}, content_hash, imported_at, updated_at)
    VALUES (${PROJECT_FIELDS.map((c) => `@${c}`).join(', ')}, @content_hash, @now, @now)`),
  updateProject: db.prepare(`UPDATE funding_projects SET ${PROJECT_FIELDS.map((c) => `${c} = @${c}`).join(', ')},
    content_hash = @content_hash, updated_at = @now WHERE source_id = @source_id`),
  getNotice: db.prepare('SELECT * FROM funding_notices WHERE source_id = ?'),
  insertNotice: db.prepare(`INSERT INTO funding_notices (${NOTICE_COLUMNS.join(', ')}, content_hash, imported_at)
    VALUES (${NOTICE_COLUMNS.map((c) => `@${c}`).join(', ')}, @content_hash, @now)`),
  updateNotice: db.prepare(`UPDATE funding_notices SET ${NOTICE_COLUMNS.map((c) => `${c} = @${c}`).join(', ')},
    content_hash = @content_hash WHERE source_id = @source_id`),
  recordImport: db.prepare(
    `INSERT INTO funding_imports (source, file_name, file_sha256, imported_at, inserted, updated, unchanged, withheld)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
}));

/** Where a change was seen, as the history serves it: a sync's URL, or an imported file's name (not its path). */
const seenIn = (fileName: string) => (/^https?:\/\//.test(fileName) ? fileName : basename(fileName));

/** The state a change is measured on (lib/funding/history.ts): the served cut-offs, the source's status, the amounts. */
function storedState(row: Row): CallState {
  const cutoffs = JSON.parse(row.cutoffs as string) as Cutoff[];
  return {
    title: row.title as string,
    cutoffs:
      cutoffs.length > 0 || row.deadline === null
        ? cutoffs
        : [{ date: row.deadline as string, time: row.deadline_time as string | null }],
    opening_on: row.opening_on as string | null,
    source_status: row.source_status as CallState['source_status'],
    budget: row.budget as number | null,
    award_ceiling: (row.award_ceiling as number | null) ?? null,
    currency: row.currency as string | null,
    closes_at: row.closes_at as number | null,
  };
}

function writers(db: Db, now: number, seen: string) {
  const lookups = ruleLookups(db);
  const sql = statements(db);
  /** The public calls this import inserted or changed (seq), for the saved searches. */
  const touched: number[] = [];

  /** Writes a merged call with its rules applied, unless nothing the row holds would change. */
  const writeCall = (id: string, row: Row | undefined, merged: CallRecord): [Outcome, boolean] => {
    const ruled = callRules(merged, lookups);
    const hash = sha256(canonicalJson(ruled.record));
    const dates = deriveDates({ ...ruled.record, cutoffs: ruled.cutoffs }, now);
    const deadlineSource = ruled.deadlineSource === null ? null : JSON.stringify(ruled.deadlineSource);
    // The current deadline moves on when a cut-off passes, and a computed one when the publication it
    // counts from arrives: either alone is worth a write.
    if (
      row &&
      row.content_hash === hash &&
      row.deadline === dates.deadline &&
      row.deadline_time === dates.deadline_time &&
      row.closes_at === dates.closes_at &&
      row.deadline_source === deadlineSource
    ) {
      return ['unchanged', ruled.record.personal_data];
    }
    const info = (row ? sql.updateCall : sql.insertCall).run({
      ...toParams(ruled.record),
      ...dates,
      deadline_source: deadlineSource,
      applicant_mask: applicantMask(ruled.record.source, ruled.record.applicant_terms),
      id,
      content_hash: hash,
      now,
    });
    if (!ruled.record.personal_data) {
      touched.push(row ? (row.seq as number) : Number(info.lastInsertRowid));
      // A change to a call that was public (a withheld one's history would say what it withheld).
      if (row && row.personal_data === 0) {
        const r = ruled.record;
        const after: CallState = { ...r, cutoffs: ruled.cutoffs, closes_at: dates.closes_at };
        recordChanges(db, id, callChanges(storedState(row), after, now), now, seen);
      }
    }
    return [row ? 'updated' : 'inserted', ruled.record.personal_data];
  };

  return {
    touched,
    /** `thin`: a list entry, which only fills what the stored call lacks (lib/funding/merge.ts fillCall). */
    call(rec: CallRecord, thin = false): [Outcome, boolean] {
      const id = `${rec.source}:${rec.source_id}`;
      const row = sql.getCall.get(id) as Row | undefined;
      const stored = row ? rowToRecord<CallRecord>(row, CALL_FIELDS) : null;
      const merged = stored ? (thin ? fillCall(stored, rec) : mergeCall(stored, rec)) : rec;
      return writeCall(id, row, merged);
    },
    /** A BDNS call's rules again (an extract it counts from may have arrived); 1 when its row changed. */
    refreshBdns(bdnsId: string): number {
      const row = sql.bdnsCall.get(bdnsId) as Row | undefined;
      if (!row) return 0;
      return writeCall(row.id as string, row, rowToRecord<CallRecord>(row, CALL_FIELDS))[0] === 'unchanged' ? 0 : 1;
    },
    /** A boe: call whose item is a notice, not a call (a rule decided so after it was stored). */
    unserve: (id: string) => sql.unserve.run(id).changes,
    project(rec: ProjectRecord, coordinatorsKnown: boolean): [Outcome, boolean] {
      const row = sql.getProject.get(rec.source_id) as Row | undefined;
      const stored = row ? mergeProject(rowToRecord<ProjectRecord>(row, PROJECT_FIELDS), rec, coordinatorsKnown) : rec;
      const merged = { ...stored, personal_data: stored.personal_data || isAboutPerson({ title: stored.title }) };
      const hash = sha256(canonicalJson(merged));
      if (row?.content_hash === hash) return ['unchanged', merged.personal_data];
      (row ? sql.updateProject : sql.insertProject).run({ ...toParams(merged), content_hash: hash, now });
      return [row ? 'updated' : 'inserted', merged.personal_data];
    },
    /** A notice merged with what is stored (a later read never erases a BDNS id an earlier one gave). */
    notice(rec: NoticeRecord): [Outcome, boolean, NoticeRecord] {
      const row = sql.getNotice.get(rec.source_id) as Row | undefined;
      const read = row ? mergeNotice(rowToRecord<NoticeRecord>(row, NOTICE_FIELDS), rec) : rec;
      const merged = noticeRules({ ...read, personal_data: read.personal_data || isAboutPerson(read) });
      const hash = sha256(canonicalJson(merged));
      if (row?.content_hash === hash) return ['unchanged', merged.personal_data, merged];
      (row ? sql.updateNotice : sql.insertNotice).run({ ...toParams(merged), content_hash: hash, now });
      return [row ? 'updated' : 'inserted', merged.personal_data, merged];
    },
    hasBdnsCall: (bdnsId: string) => sql.hasBdns.get(bdnsId) !== undefined,
    foldBoe: (bdnsId: string) => sql.foldBoe.run(bdnsId).changes,
  };
}

/** One call with what other sources add to it, and the source register: the reads behind /calls and /sources. */
import type { Db } from '../connection.ts';
import { dispositionKey } from '../../lib/funding/notice-kind.ts';
import type { CallRow } from './search.ts';
import { statementsFor } from '../statements.ts';

/**
 * The day a source's newest served call was published (YYYY-MM-DD in its zone), for a row `s` of
 * funding_sources: one step down funding_calls_source_published. CORDIS holds projects, which carry
 * no publication day: null.
 */
export const NEWEST_PUBLISHED = `(SELECT c.published_on FROM funding_public_calls c
    WHERE c.source = s.code AND c.published_on IS NOT NULL ORDER BY c.published_on DESC LIMIT 1)`;

const statements = statementsFor((db) => ({
  call: db.prepare('SELECT * FROM funding_public_calls WHERE id = ?'),
  projects: db.prepare(`SELECT source_id AS id, acronym, title, status, start_date, end_date, total_cost,
      ec_contribution, coordinator, coordinator_country, url
    FROM funding_projects WHERE topic = ? AND personal_data = 0 ORDER BY start_date DESC, source_id`),
  // A call's notices: by its BDNS id; by its BOE id (its own item, or a notice naming it); or by the
  // disposition a notice corrects, modifies or resolves, which must be the call's own (or the bases
  // its text names) — from the same department unless the key is a numbered disposition (CNU/1230/2025).
  notices: db.prepare(`SELECT source_id AS id, kind, title, url, published_on, department
    FROM funding_notices WHERE personal_data = 0 AND (bdns_id = @bdns OR source_id = @boe OR refers_to = @boe
      OR (refers_to IN (@own, @bases) AND (instr(refers_to, '/') > 0 OR substr(@funder, 1, length(department)) = department)))
    ORDER BY published_on, source_id`),
  sources: db.prepare(`SELECT s.*,
      CASE s.code WHEN 'cordis' THEN (SELECT count(*) FROM funding_projects WHERE personal_data = 0)
                  ELSE (SELECT count(*) FROM funding_public_calls c WHERE c.source = s.code) END AS records,
      (SELECT max(imported_at) FROM funding_imports i WHERE i.source = s.code) AS last_import_ms,
      (SELECT last_success_at FROM funding_sync_state y WHERE y.source = s.code) AS last_sync_ms,
      ${NEWEST_PUBLISHED} AS newest_published_on
    FROM funding_sources s ORDER BY s.code`),
  licences: db.prepare('SELECT code, licence, attribution FROM funding_sources'),
  lastImport: db.prepare('SELECT coalesce(max(imported_at), 0) FROM funding_imports').pluck(),
}));

export function fundingReads(db: Db) {
  const { call, projects, notices, sources, licences, lastImport } = statements(db);

  return {
    call: (id: string) => call.get(id) as (CallRow & { imported_at: number }) | undefined,
    projects: (topic: string) => projects.all(topic) as Record<string, unknown>[],
    notices: (call: CallRow & { body?: string | null }) =>
      notices.all({
        bdns: call.bdns_id,
        boe: call.source === 'boe' ? call.source_id : null,
        funder: call.funder ?? '',
        own: dispositionKey(call.title, 'own'),
        bases: call.body ? dispositionKey(call.body, 'own') : null,
      }) as Record<string, unknown>[],
    sources: () =>
      sources.all() as Array<
        Record<string, unknown> & {
          last_import_ms: number | null;
          last_sync_ms: number | null;
          newest_published_on: string | null;
        }
      >,
    licences: () => licences.all() as Array<{ code: string; licence: string; attribution: string }>,
    /** When the corpus last changed by an import (UTC ms; 0 if never): a feed's `updated` at the least. */
    lastImport: () => lastImport.get() as number,
  };
}

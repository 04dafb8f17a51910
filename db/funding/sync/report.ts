/**
 * How fresh each source is and how its syncs have gone, read from the database, so that the answer
 * is the same whichever process ran the sync (a separate `funding sync`, or serve's own schedule).
 * Data age: time since the source was last synced from its publisher; a `funding import` of a file is
 * not counted (issue 34: the demo's files, loaded today, hold records published months ago). The day
 * its newest record was published is reported beside it.
 */
import type { Db } from '../../connection.ts';
import { NEWEST_PUBLISHED } from '../calls.ts';
import type { SyncFigures } from './metrics.ts';
import { statementsFor } from '../../statements.ts';

const statements = statementsFor((db) => ({
  read: db.prepare(`SELECT s.code AS source,
      (SELECT count(*) FROM funding_sync_runs r WHERE r.source = s.code AND r.outcome = 'ok') AS runs_ok,
      (SELECT count(*) FROM funding_sync_runs r WHERE r.source = s.code AND r.outcome = 'failed') AS runs_failed,
      (SELECT coalesce(sum(finished_at - started_at), 0) / 1000.0 FROM funding_sync_runs r WHERE r.source = s.code AND r.finished_at IS NOT NULL) AS seconds_total,
      (SELECT (finished_at - started_at) / 1000.0 FROM funding_sync_runs r WHERE r.source = s.code AND r.finished_at IS NOT NULL ORDER BY id DESC LIMIT 1) AS last_seconds,
      st.last_success_at, coalesce(st.consecutive_failures, 0) AS consecutive_failures,
      ${NEWEST_PUBLISHED} AS newest_published_on
    FROM funding_sources s LEFT JOIN funding_sync_state st ON st.source = s.code ORDER BY s.code`),
}));

export function syncReports(db: Db): () => SyncFigures[] {
  const { read } = statements(db);
  return () => read.all() as SyncFigures[];
}

/**
 * BDNS details read again on a schedule (lib/funding/reread.ts): the calls that may still change —
 * open or forthcoming, closed within the last two days, or undated and still reading open — whose
 * detail is due, most urgent first. This is what catches an extended deadline, which changes the
 * detail and not the list entry. The source's time bound (FUNDING_SYNC_SOURCE_MAX) stops the pass
 * where it is; the calls not reached are the least urgent, and the next run starts with them.
 */
import { REREAD, byUrgency, rereadDue, type RereadCandidate } from '../../../lib/funding/reread.ts';
import { undatedHorizon } from '../../../lib/funding/status.ts';
import { statementsFor } from '../../statements.ts';
import { readDetail } from './bdns-detail.ts';
import { SyncError, type SourceRun } from './context.ts';

const statements = statementsFor((db) => ({
  // Calls whose deadline is ahead or passed within the grace period, and undated ones still reading
  // open; with when the sync last read each one's detail.
  candidates: db.prepare(`SELECT c.source_id AS id, c.closes_at, i.seen_at AS read_at
    FROM funding_calls c LEFT JOIN funding_sync_items i ON i.source = 'bdns' AND i.item_id = c.source_id
    WHERE c.source = 'bdns' AND c.personal_data = 0
      AND (c.closes_at > @after OR (c.closes_at IS NULL AND c.published_on >= @horizon))`),
}));

export async function rereadDetails(run: SourceRun): Promise<void> {
  const now = run.now();
  const rows = statements(run.db).candidates.all({
    after: now - REREAD.afterCloseMs,
    horizon: undatedHorizon(now),
  }) as Array<RereadCandidate & { id: string }>;
  const due = rows.filter((r) => rereadDue(r, now)).sort(byUrgency);
  let changed = 0;
  let refused = 0;
  for (const [i, call] of due.entries()) {
    run.progress({ done: i, total: due.length, label: `re-read call ${call.id}` });
    try {
      if (await readDetail(run, call.id, null)) changed++;
    } catch (err) {
      // BDNS refusing one call (withdrawn, an error inside a 200) does not stop the others.
      if (!(err instanceof SyncError && err.unreadable)) throw err;
      run.counts.failed++;
      refused++;
      run.notes.push(err.message);
    }
  }
  if (due.length > 0)
    run.notes.push(
      `re-read the details of ${due.length} open, forthcoming or just-closed calls: ${changed} changed${refused ? `, ${refused} unreadable` : ''}`,
    );
}

/**
 * A call's history: the meaningful changes imports and syncs saw (lib/funding/history.ts decides what
 * they are), written in the import's transaction with the change itself, and read for
 * GET /funding/v1/calls/{id}/history and the call's page.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { changeWords, type CallChange, type ChangeField } from '../../lib/funding/history.ts';

const statements = statementsFor((db) => ({
  insert: db.prepare(
    'INSERT INTO funding_call_changes (call_id, at, field, before, after, seen_in) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  mark: db.prepare('UPDATE funding_calls SET changed_at = ? WHERE id = ?'),
  list: db.prepare('SELECT at, field, before, after, seen_in FROM funding_call_changes WHERE call_id = ? ORDER BY id'),
}));

/** Keeps `changes` of call `callId` seen at `now` in `seenIn`, and marks the call changed (the changed_since filter). */
export function recordChanges(db: Db, callId: string, changes: CallChange[], now: number, seenIn: string): void {
  if (changes.length === 0) return;
  const { insert, mark } = statements(db);
  for (const c of changes)
    insert.run(callId, now, c.field, JSON.stringify(c.before ?? null), JSON.stringify(c.after ?? null), seenIn);
  mark.run(now, callId);
}

export interface HistoryEntry {
  at: string;
  field: ChangeField;
  before: unknown;
  after: unknown;
  description: string;
  seen_in: string;
}

/** A call's changes, oldest first. */
export function callHistory(db: Db, callId: string): HistoryEntry[] {
  return (
    statements(db).list.all(callId) as Array<{
      at: number;
      field: ChangeField;
      before: string;
      after: string;
      seen_in: string;
    }>
  ).map((r) => {
    const change = { field: r.field, before: JSON.parse(r.before) as unknown, after: JSON.parse(r.after) as unknown };
    return { at: new Date(r.at).toISOString(), ...change, description: changeWords(change), seen_in: r.seen_in };
  });
}

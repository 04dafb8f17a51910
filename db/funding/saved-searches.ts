/**
 * Saved funding searches (issue 27): an account's searches, each a query string the search API takes
 * (checked by the same schema before it is saved, by the caller), its validated parameters, a name,
 * and the new calls it was notified of. The API (routes/funding/saved-searches.ts) and the console
 * (routes/console/saved-searches.ts) call these functions; ./saved-search-alerts.ts matches new calls.
 * At most MAX_SAVED_SEARCHES per account: each is matched on every import.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { DomainError } from '../../lib/domain-error.ts';
import { randomBase62 } from '../../lib/random-base62.ts';

export const MAX_SAVED_SEARCHES = 20;

export type SavedSearchCode = 'limit_reached' | 'not_found';

export interface SavedSearchRow {
  id: number;
  public_id: string;
  account_id: number;
  name: string;
  query: string;
  params: string;
  created_at: number;
  /** Alerts by e-mail (issue 35): off, immediate (each import's new calls) or daily (the digest). */
  email: 'off' | 'immediate' | 'daily';
  /** 1: the account's webhook endpoints are told too (as before); 0: e-mail only. */
  webhook: 0 | 1;
}

const statements = statementsFor((db) => ({
  count: db.prepare('SELECT count(*) FROM funding_saved_searches WHERE account_id = ?').pluck(),
  insert: db.prepare(`INSERT INTO funding_saved_searches (public_id, account_id, name, query, params, created_at)
      VALUES (?, ?, ?, ?, ?, ?)`),
  list: db.prepare('SELECT * FROM funding_saved_searches WHERE account_id = ? ORDER BY id DESC'),
  own: db.prepare('SELECT * FROM funding_saved_searches WHERE public_id = ? AND account_id = ?'),
  remove: db.prepare('DELETE FROM funding_saved_searches WHERE id = ?'),
  alerts: db.prepare('UPDATE funding_saved_searches SET email = ?, webhook = ? WHERE id = ?'),
  matches: db.prepare(`SELECT call_id, matched_at, event_id FROM funding_saved_search_matches
      WHERE saved_search_id = ? ORDER BY matched_at DESC, call_id LIMIT ?`),
  matchCount: db.prepare('SELECT count(*) FROM funding_saved_search_matches WHERE saved_search_id = ?').pluck(),
}));

export interface NewSavedSearch {
  accountId: number;
  name: string;
  /** The canonical query string (parameters in a fixed order, no paging). */
  query: string;
  /** The parameters as the search schema parsed them (numbers as numbers). */
  params: Record<string, unknown>;
  now: number;
}

export function createSavedSearch(db: Db, s: NewSavedSearch): SavedSearchRow {
  const sql = statements(db);
  return db
    .transaction(() => {
      const n = sql.count.get(s.accountId) as number;
      if (n >= MAX_SAVED_SEARCHES)
        throw new DomainError<SavedSearchCode>(
          'limit_reached',
          `This account has ${n} saved searches, the most it may keep (${MAX_SAVED_SEARCHES}). Delete one to save another.`,
        );
      const publicId = `ss_${randomBase62(20)}`;
      sql.insert.run(publicId, s.accountId, s.name, s.query, JSON.stringify(s.params), s.now);
      return sql.own.get(publicId, s.accountId) as SavedSearchRow;
    })
    .immediate();
}

export const listSavedSearches = (db: Db, accountId: number) => statements(db).list.all(accountId) as SavedSearchRow[];

/** An account's own saved search; another account's is not found, as one that does not exist. */
export function ownSavedSearch(db: Db, accountId: number, publicId: string): SavedSearchRow {
  const row = statements(db).own.get(publicId, accountId) as SavedSearchRow | undefined;
  if (!row) throw new DomainError<SavedSearchCode>('not_found', `No saved search '${publicId}' on this account.`);
  return row;
}

export function deleteSavedSearch(db: Db, accountId: number, publicId: string): void {
  statements(db).remove.run(ownSavedSearch(db, accountId, publicId).id);
}

/** How a saved search notifies: by e-mail (off, immediate, daily) and whether its webhook event is delivered. */
export function setSavedSearchAlerts(
  db: Db,
  accountId: number,
  publicId: string,
  email: SavedSearchRow['email'],
  webhook: boolean,
): SavedSearchRow {
  const row = ownSavedSearch(db, accountId, publicId);
  statements(db).alerts.run(email, webhook ? 1 : 0, row.id);
  return ownSavedSearch(db, accountId, publicId);
}

/** The calls a saved search was notified of, newest first, and how many in all. */
export function savedSearchMatches(db: Db, row: SavedSearchRow, limit = 20) {
  const sql = statements(db);
  return {
    total: sql.matchCount.get(row.id) as number,
    recent: sql.matches.all(row.id, limit) as Array<{ call_id: string; matched_at: number; event_id: string }>,
  };
}

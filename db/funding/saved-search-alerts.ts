/**
 * New calls against saved searches (issue 27). Run by the importer (./import.ts) at the end of every
 * import's transaction, over the public calls that import inserted or changed: a saved search is
 * notified of a call when the call matches it (its own search, run at the import's `now`), the call
 * was first seen after the search was saved, and the search was not notified of it before. Each
 * notification is a row in funding_saved_search_matches and a `funding.saved_search.matched` webhook
 * event (db/webhooks/events.ts) in the same transaction: once per call and saved search, whatever
 * the number of imports that see the call again, and never an event without its import.
 *
 * By e-mail (issue 35): a search set to `immediate` also queues one message per import listing its new
 * calls (db/mail/outbox.ts, same transaction), to the account's address once it is verified; one set
 * to `daily` waits for the digest (./saved-search-digest.ts). A search with its webhook off records
 * the event (listed, replayable) without queueing it to the endpoints.
 *
 * A call that matches only after a later read (a BDNS list entry, then its detail with who may
 * apply) is notified then, as it is still new to the search. Cost: one statement per saved search
 * with candidates, over that import's calls (a sync imports a few at a time).
 */
import { SearchExpansion } from './search-expand.ts';
import type { Db } from '../connection.ts';
import { preparedSql, statementsFor } from '../statements.ts';
import { emitEvent } from '../webhooks/events.ts';
import { queueMail } from '../mail/outbox.ts';
import { unsubscribePath } from '../mail/unsubscribe.ts';
import type { AlertCall } from '../../lib/mail/templates.ts';
import { presentCall } from '../../lib/funding/present.ts';
import { toFilters, type FilterParams } from '../../lib/funding/search-filters.ts';
import { COLUMNS, searchParams, where } from './search-sql.ts';
import type { CallRow } from './search.ts';
import type { SavedSearchRow } from './saved-searches.ts';

export const MATCHED_EVENT = 'funding.saved_search.matched';

const statements = statementsFor((db) => ({
  any: db.prepare('SELECT 1 FROM funding_saved_searches LIMIT 1').pluck(),
  all: db.prepare(`SELECT s.*, a.email AS account_email, a.email_status, a.locale FROM funding_saved_searches s
      JOIN accounts a ON a.id = s.account_id ORDER BY s.id`),
  // A match of a search not in the daily digest counts as digested: switching to daily later sends only what is new then.
  record:
    db.prepare(`INSERT INTO funding_saved_search_matches (saved_search_id, call_id, matched_at, event_id, digested_at)
      VALUES (?, ?, ?, ?, ?)`),
}));

/** The search a saved search runs, restricted to the calls of @ids it has not been notified of. */
function matchSql(filters: ReturnType<typeof toFilters>): string {
  const text = filters.text
    ? 'AND EXISTS (SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH @match AND rowid = c.seq)'
    : '';
  return `SELECT ${COLUMNS} FROM json_each(@ids) j CROSS JOIN funding_calls c ON c.seq = j.value
    WHERE ${where(filters, false)} AND c.imported_at >= @savedAt ${text}
      AND NOT EXISTS (SELECT 1 FROM funding_saved_search_matches m WHERE m.saved_search_id = @saved AND m.call_id = c.id)
    ORDER BY c.seq`;
}

/** Matches the calls `seqs` (public, just written) against every saved search; inside the import's transaction. */
export function notifySavedSearches(db: Db, seqs: readonly number[], now: number): number {
  if (seqs.length === 0) return 0;
  const sql = statements(db);
  if (sql.any.get() === undefined) return 0;
  const ids = JSON.stringify(seqs);
  const expansion = new SearchExpansion(db);
  let sent = 0;
  for (const saved of sql.all.all() as AlertedSearch[]) {
    let filters: ReturnType<typeof toFilters>;
    try {
      filters = toFilters(JSON.parse(saved.params) as FilterParams, now);
    } catch {
      continue; // validated when saved; a query a later glossary cannot compile matches nothing
    }
    const rows = preparedSql(db, matchSql(filters)).all({
      ...searchParams(filters),
      ids,
      savedAt: saved.created_at,
      saved: saved.id,
      // Full matches only: a call holding some of the words is not news of the search.
      match: filters.text ? expansion.query(filters.text, false).all : null,
    }) as CallRow[];
    for (const row of rows) {
      const call = presentCall(row, now);
      const { id } = emitEvent(db, {
        accountId: saved.account_id,
        environment: 'live',
        type: MATCHED_EVENT,
        subject: `saved_search:${saved.public_id}`,
        data: {
          saved_search: { id: saved.public_id, name: saved.name, query: saved.query },
          call,
          links: {
            call: `/funding/v1/calls/${encodeURIComponent(call.id)}`,
            feed: `/funding/v1/search.atom?${saved.query}`,
          },
        },
        now,
        deliver: saved.webhook === 1,
      });
      sql.record.run(saved.id, call.id, now, id, saved.email === 'daily' ? null : now);
      sent++;
    }
    if (rows.length && saved.email === 'immediate' && saved.email_status === 'verified')
      queueMail(db, {
        accountId: saved.account_id,
        to: saved.account_email,
        kind: 'alert',
        locale: saved.locale,
        data: {
          search: { id: saved.public_id, name: saved.name, query: saved.query },
          calls: rows.map(alertCall),
          unsubscribe: unsubscribePath(db, saved.public_id),
        },
        now,
      });
  }
  return sent;
}

interface AlertedSearch extends SavedSearchRow {
  account_email: string;
  email_status: 'verified' | 'unverified' | null;
  locale: 'en' | 'es';
}

/** A call as an e-mail lists it: title, funder, deadline (the day, in the source's time zone) and its page. */
export const alertCall = (row: Pick<CallRow, 'id' | 'title' | 'funder' | 'deadline'>): AlertCall => ({
  id: row.id,
  title: row.title,
  funder: row.funder,
  deadline: row.deadline,
});

/**
 * The daily digest of saved searches by e-mail (issue 35): once a UTC day, from MAIL_DIGEST_HOUR, one
 * message per account listing the new calls of all its searches set to `daily` that no digest has
 * listed yet (each with its title, funder, deadline and link), to the account's verified address. The
 * matches are marked digested and the message queued in one transaction (db/mail/outbox.ts), so a
 * call is listed in one digest, whatever the restarts. The serving process runs it every minute.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { queueMail } from '../mail/outbox.ts';
import { unsubscribePath } from '../mail/unsubscribe.ts';
import type { AlertCall } from '../../lib/mail/templates.ts';

/** At most this many calls per search in one digest (the rest are on its page and feed). */
const CALLS_PER_SEARCH = 50;
const DAY_MS = 86_400_000;

const statements = statementsFor((db) => ({
  accounts: db.prepare(`SELECT DISTINCT a.id, a.email, a.locale FROM funding_saved_search_matches m
      JOIN funding_saved_searches s ON s.id = m.saved_search_id AND s.email = 'daily'
      JOIN accounts a ON a.id = s.account_id AND a.email_status = 'verified'
      LEFT JOIN mail_digests d ON d.account_id = a.id
      WHERE m.digested_at IS NULL AND (d.last_at IS NULL OR d.last_at < @dayStart)`),
  matches: db.prepare(`SELECT s.id AS search_id, s.public_id, s.name, s.query, c.id, c.title, c.funder, c.deadline
      FROM funding_saved_search_matches m JOIN funding_saved_searches s ON s.id = m.saved_search_id AND s.email = 'daily'
      JOIN funding_calls c ON c.id = m.call_id
      WHERE s.account_id = ? AND m.digested_at IS NULL ORDER BY s.id, m.matched_at, c.id`),
  mark: db.prepare(`UPDATE funding_saved_search_matches SET digested_at = @now WHERE digested_at IS NULL
      AND saved_search_id IN (SELECT id FROM funding_saved_searches WHERE account_id = @account AND email = 'daily')`),
  sent: db.prepare(`INSERT INTO mail_digests (account_id, last_at) VALUES (?, ?)
      ON CONFLICT (account_id) DO UPDATE SET last_at = excluded.last_at`),
}));

interface MatchRow {
  search_id: number;
  public_id: string;
  name: string;
  query: string;
  id: string;
  title: string;
  funder: string | null;
  deadline: string | null;
}

/** Queues the digests due at `now` (none before `hour` UTC); returns how many. */
export function queueDigests(db: Db, now: number, hour: number): number {
  const dayStart = now - (now % DAY_MS);
  if (now < dayStart + hour * 3_600_000) return 0;
  const sql = statements(db);
  let queued = 0;
  for (const account of sql.accounts.all({ dayStart }) as Array<{ id: number; email: string; locale: 'en' | 'es' }>) {
    db.transaction(() => {
      const searches = new Map<number, { id: string; name: string; query: string; calls: AlertCall[] }>();
      for (const m of sql.matches.all(account.id) as MatchRow[]) {
        let s = searches.get(m.search_id);
        if (!s) searches.set(m.search_id, (s = { id: m.public_id, name: m.name, query: m.query, calls: [] }));
        if (s.calls.length < CALLS_PER_SEARCH)
          s.calls.push({ id: m.id, title: m.title, funder: m.funder, deadline: m.deadline });
      }
      sql.mark.run({ now, account: account.id });
      sql.sent.run(account.id, now);
      if (searches.size === 0) return;
      queueMail(db, {
        accountId: account.id,
        to: account.email,
        kind: 'digest',
        locale: account.locale,
        data: {
          day: new Date(now).toISOString().slice(0, 10),
          searches: [...searches.values()],
          unsubscribe: unsubscribePath(db, `digest.${account.id}`),
        },
        now,
      });
      queued++;
    }).immediate();
  }
  return queued;
}

/**
 * The mail outbox: how any part of trio sends an e-mail (issue 35). `queueMail` runs inside the
 * caller's transaction, so a message exists exactly when what causes it does (a sign-up, a reset
 * request, an import's new calls, a task, a dispute's decision; a rollback drops both), and is sent by
 * the mail deliverer (./deliverer.ts, the shared outbox mechanism) whenever the SMTP server takes it:
 * an unreachable server never fails the request.
 *
 * The recipient is checked here, at the boundary (lib/mail/address.ts): an address with a line break
 * or a second address is refused before it is stored, so it can never reach a header. A message
 * `about` something (a task) is queued at most once per kind, subject and recipient. The one-time
 * token of a verification or reset message is kept only until the message is sent or has failed.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import type { OutboxRow } from '../outbox/deliverer.ts';
import { safeMailAddress } from '../../lib/mail/address.ts';
import type { Locale, MailData, MailKind } from '../../lib/mail/templates.ts';
import { timeOrderedId } from '../../lib/random-base62.ts';

export interface MailRow extends OutboxRow {
  public_id: string;
  account_id: number | null;
  recipient: string;
  kind: MailKind;
  about: string | null;
  locale: Locale;
  data: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
}

export class MailAddressError extends Error {}

const statements = statementsFor((db) => ({
  insert: db.prepare(`INSERT OR IGNORE INTO mail_messages (public_id, account_id, recipient, kind, about, locale, data,
      status, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`),
  cancel: db.prepare(`UPDATE mail_messages SET status = 'cancelled', next_attempt_at = NULL, finished_at = ?
      WHERE about = ? AND kind = ? AND status = 'pending' AND (locked_until IS NULL OR locked_until <= ?)`),
  scrub: db.prepare(
    "UPDATE mail_messages SET data = json_set(data, '$.token', NULL) WHERE id = ? AND kind IN ('verify', 'reset')",
  ),
  list: db.prepare(`SELECT * FROM mail_messages WHERE (@status IS NULL OR status = @status)
      ORDER BY id DESC LIMIT @limit`),
  counts: db.prepare('SELECT status, count(*) AS n FROM mail_messages GROUP BY status'),
  byId: db.prepare('SELECT * FROM mail_messages WHERE id = ?'),
}));

export interface NewMail<K extends MailKind> {
  accountId: number | null;
  to: string;
  kind: K;
  /** What it is about, for at most one message per kind and recipient ('task:tsk_…'). */
  about?: string;
  locale?: Locale;
  data: MailData[K];
  now: number;
}

/** Queues one message (see the head comment); returns its id, or null when `about` was mailed already. */
export function queueMail<K extends MailKind>(db: Db, mail: NewMail<K>): string | null {
  const to = safeMailAddress(mail.to);
  if (to === null)
    throw new MailAddressError(`refusing to mail ${JSON.stringify(mail.to.slice(0, 80))}: not one plain address`);
  const id = timeOrderedId('msg_', mail.now, 16);
  const info = statements(db).insert.run(
    id,
    mail.accountId,
    to,
    mail.kind,
    mail.about ?? null,
    mail.locale ?? 'en',
    JSON.stringify(mail.data),
    mail.now,
    mail.now,
  );
  return info.changes === 1 ? id : null;
}

/** Withdraws the pending messages of a kind about something (a task someone accepted). */
export function cancelMail(db: Db, kind: MailKind, about: string, now: number): number {
  return statements(db).cancel.run(now, about, kind, now).changes;
}

/** After a verification or reset message is sent (or failed for good), its token is not kept. */
export const forgetToken = (db: Db, id: number) => void statements(db).scrub.run(id);

export const mailById = (db: Db, id: number) => statements(db).byId.get(id) as MailRow | undefined;

/** The newest messages, optionally of one status (the CLI's `mail list`). */
export function listMail(db: Db, status: MailRow['status'] | null, limit: number): MailRow[] {
  return statements(db).list.all({ status, limit }) as MailRow[];
}

/** Messages per status (/metrics). */
export function mailCounts(db: Db): Record<MailRow['status'], number> {
  const out = { pending: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const r of statements(db).counts.all() as Array<{ status: MailRow['status']; n: number }>) out[r.status] = r.n;
  return out;
}

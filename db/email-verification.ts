/**
 * Proving an account's address (issue 35). With mail configured, sign-up makes the account
 * 'unverified' and queues a message with a one-time link; the account signs in once the link is
 * followed. A signed-in account made before (or by an operator) verifies the same way to receive
 * e-mail. The token is 32 random bytes in the link; only its SHA-256 is stored. A link works once,
 * for LINK_LIFETIME_MS; a new one (a re-send) ends the account's others. Following it marks the
 * address verified and signs nobody in.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './connection.ts';
import { statementsFor } from './statements.ts';
import { queueMail } from './mail/outbox.ts';

export const VERIFY_LIFETIME_MS = 86_400_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

const statements = statementsFor((db) => ({
  insert: db.prepare(
    'INSERT INTO email_verifications (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  ),
  endOthers: db.prepare('UPDATE email_verifications SET used_at = ? WHERE account_id = ? AND used_at IS NULL'),
  find: db.prepare(`SELECT v.account_id, v.expires_at, v.used_at, a.email, a.email_status FROM email_verifications v
      JOIN accounts a ON a.id = v.account_id WHERE v.token_hash = ?`),
  use: db.prepare('UPDATE email_verifications SET used_at = ? WHERE token_hash = ? AND used_at IS NULL'),
  verified: db.prepare("UPDATE accounts SET email_status = 'verified' WHERE id = ?"),
  unverified: db.prepare("UPDATE accounts SET email_status = 'unverified' WHERE id = ?"),
  status: db.prepare('SELECT email, email_status FROM accounts WHERE id = ?'),
}));

export type EmailStatus = 'verified' | 'unverified' | null;

/** Queues a verification message for the account (its earlier links end); in the caller's transaction or its own. */
export function sendVerification(db: Db, accountId: number, now: number): void {
  const account = statements(db).status.get(accountId) as { email: string; email_status: EmailStatus };
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + VERIFY_LIFETIME_MS;
  db.transaction(() => {
    statements(db).endOthers.run(now, accountId);
    statements(db).insert.run(hash(token), accountId, now, expiresAt);
    queueMail(db, { accountId, to: account.email, kind: 'verify', data: { token, expires_at: expiresAt }, now });
  }).immediate();
}

/** A new sign-up with mail configured: signs in only once verified. */
export const markUnverified = (db: Db, accountId: number) => void statements(db).unverified.run(accountId);

export const emailStatus = (db: Db, accountId: number) =>
  (statements(db).status.get(accountId) as { email_status: EmailStatus } | undefined)?.email_status ?? null;

/** Why a link does not work, in the words of the page that answers it. */
export type LinkProblem = 'altered' | 'used' | 'expired';

/** Follows a verification link: the address is verified, or the problem with the link. */
export function useVerification(db: Db, token: string, now: number): { email: string } | { problem: LinkProblem } {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { problem: 'altered' };
  return db
    .transaction(() => {
      const row = statements(db).find.get(hash(token)) as
        { account_id: number; expires_at: number; used_at: number | null; email: string } | undefined;
      if (!row) return { problem: 'altered' as const };
      if (row.used_at !== null) return { problem: 'used' as const };
      if (row.expires_at <= now) return { problem: 'expired' as const };
      statements(db).use.run(now, hash(token));
      statements(db).verified.run(row.account_id);
      return { email: row.email };
    })
    .immediate();
}

/**
 * One-time links to set or reset an account's password (issue 26: an account an operator made with
 * `account create` had no password, so sign-up answered 409 and sign-in 401, and the console was
 * unreachable). The operator's CLI issues a link (`account create` prints one; `account password-link`
 * issues a reset); the person opens it, chooses a password and is signed in. The token is 32 random
 * bytes in the link; only its SHA-256 is stored. A link works once, until it expires (7 days to set a
 * first password, 24 hours to reset one); issuing a new link, or using one, ends the account's others,
 * and a reset ends every session the account had.
 *
 * Issue 35: with mail configured, "Forgot your password?" e-mails a reset link (1 hour: FORGOT_LIFETIME_MS);
 * using a link that was e-mailed also proves the account's address. A link that does not work is told
 * apart (linkProblem: altered, used or expired) so the page can say which.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './connection.ts';
import { statementsFor } from './statements.ts';

export type LinkPurpose = 'set' | 'reset';
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = { set: 7 * 86_400_000, reset: 86_400_000 };
export const LINK_PATH = '/console/password/';
export const FORGOT_LIFETIME_MS = 3_600_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

const statements = statementsFor((db) => ({
  insert: db.prepare(
    'INSERT INTO password_tokens (token_hash, account_id, purpose, created_at, expires_at, mailed) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  any: db.prepare('SELECT used_at, expires_at FROM password_tokens WHERE token_hash = ?'),
  mailed: db.prepare('SELECT mailed FROM password_tokens WHERE token_hash = ?').pluck(),
  verified: db.prepare("UPDATE accounts SET email_status = 'verified' WHERE id = ?"),
  endOthers: db.prepare('UPDATE password_tokens SET used_at = ? WHERE account_id = ? AND used_at IS NULL'),
  find: db.prepare(`SELECT t.account_id, t.purpose, t.expires_at, a.email FROM password_tokens t
      JOIN accounts a ON a.id = t.account_id WHERE t.token_hash = ? AND t.used_at IS NULL AND t.expires_at > ?`),
  setPassword: db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?'),
  endSessions: db.prepare('UPDATE sessions SET ended_at = ? WHERE account_id = ? AND ended_at IS NULL'),
  hasPassword: db.prepare('SELECT password_hash IS NOT NULL FROM accounts WHERE id = ?').pluck(),
}));

/**
 * A new link for the account (its other links end); returns the token and when it expires. `mailed`:
 * sent by e-mail (forgot password), for FORGOT_LIFETIME_MS, and its use proves the address.
 */
export function issueLink(
  db: Db,
  accountId: number,
  now: number,
  mailed = false,
): { token: string; purpose: LinkPurpose; expiresAt: number } {
  const purpose: LinkPurpose = statements(db).hasPassword.get(accountId) ? 'reset' : 'set';
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + (mailed ? FORGOT_LIFETIME_MS : LINK_LIFETIME_MS[purpose]);
  db.transaction(() => {
    statements(db).endOthers.run(now, accountId);
    statements(db).insert.run(hash(token), accountId, purpose, now, expiresAt, mailed ? 1 : 0);
  }).immediate();
  return { token, purpose, expiresAt };
}

export interface OpenLink {
  account_id: number;
  email: string;
  purpose: LinkPurpose;
  expires_at: number;
}

/** The link's account, while it is unused and unexpired. */
export function openLink(db: Db, token: string, now: number): OpenLink | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  return statements(db).find.get(hash(token), now) as OpenLink | undefined;
}

/** Uses the link: the password is set, the link and the account's other links end, and so do its sessions. */
export function useLink(db: Db, token: string, passwordHash: string, now: number): OpenLink | undefined {
  return db
    .transaction(() => {
      const link = openLink(db, token, now);
      if (!link) return undefined;
      statements(db).setPassword.run(passwordHash, link.account_id);
      if (statements(db).mailed.get(hash(token)) === 1) statements(db).verified.run(link.account_id);
      statements(db).endOthers.run(now, link.account_id);
      statements(db).endSessions.run(now, link.account_id);
      return link;
    })
    .immediate();
}

/** Why a link that openLink refused does not work: never issued (or altered), used (or replaced), or expired. */
export function linkProblem(db: Db, token: string, now: number): 'altered' | 'used' | 'expired' {
  const row = /^[A-Za-z0-9_-]{43}$/.test(token)
    ? (statements(db).any.get(hash(token)) as { used_at: number | null; expires_at: number } | undefined)
    : undefined;
  if (!row) return 'altered';
  if (row.used_at !== null) return 'used';
  return row.expires_at <= now ? 'expired' : 'used';
}

/**
 * Console sessions and sign-in attempt counting. A session token is 32 random bytes (base64url) in an
 * HttpOnly cookie; only its SHA-256 is stored. Sign-in always makes a new session (no fixation).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './connection.ts';
import { statementsFor } from './statements.ts';

export const SESSION_DAYS = 7;
const DAY_MS = 86_400_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface SessionAccount {
  account_id: number;
  email: string;
  expires_at: number;
}

const statements = statementsFor((db) => ({
  session: {
    insert: db.prepare('INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)'),
    find: db.prepare(`SELECT s.account_id, a.email, s.expires_at FROM sessions s JOIN accounts a ON a.id = s.account_id
                             WHERE s.token_hash = ? AND s.ended_at IS NULL AND s.expires_at > ?`),
    end: db.prepare('UPDATE sessions SET ended_at = ? WHERE token_hash = ? AND ended_at IS NULL'),
    prune: db.prepare('DELETE FROM sessions WHERE expires_at < ? OR ended_at < ?'),
  },
  attempt: {
    add: db.prepare('INSERT INTO auth_attempts (bucket, at) VALUES (?, ?)'),
    count: db.prepare('SELECT count(*) AS n, min(at) AS oldest FROM auth_attempts WHERE bucket = ? AND at > ?'),
    clear: db.prepare('DELETE FROM auth_attempts WHERE bucket = ?'),
    prune: db.prepare('DELETE FROM auth_attempts WHERE at < ?'),
  },
  secret: {
    read: db.prepare('SELECT value FROM server_secrets WHERE name = ?').pluck(),
    make: db.prepare('INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)'),
  },
}));

export function sessionStore(db: Db) {
  const { insert, find, end, prune } = statements(db).session;
  return {
    create(accountId: number, now: number): { token: string; expiresAt: number } {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = now + SESSION_DAYS * DAY_MS;
      insert.run(hash(token), accountId, now, expiresAt);
      prune.run(now - DAY_MS, now - DAY_MS);
      return { token, expiresAt };
    },
    find: (token: string, now: number) =>
      /^[A-Za-z0-9_-]{43}$/.test(token) ? (find.get(hash(token), now) as SessionAccount | undefined) : undefined,
    end: (token: string, now: number) => void end.run(now, hash(token)),
  };
}

export function attemptStore(db: Db) {
  const { add, count, clear, prune } = statements(db).attempt;
  return {
    add(bucket: string, now: number) {
      add.run(bucket, now);
      prune.run(now - DAY_MS);
    },
    /** How many attempts in the window, and seconds until the oldest leaves it. */
    recent(bucket: string, now: number, windowMs: number): { count: number; retryAfterSeconds: number } {
      const row = count.get(bucket, now - windowMs) as { n: number; oldest: number | null };
      return {
        count: row.n,
        retryAfterSeconds: row.oldest === null ? 0 : Math.max(1, Math.ceil((row.oldest + windowMs - now) / 1000)),
      };
    },
    clear: (bucket: string) => void clear.run(bucket),
  };
}

/** The server's own secret of a name, made at first use and kept in the database. */
export function serverSecret(db: Db, name: string): Buffer {
  // Read first: a READ_ONLY node (a replica) cannot write, and finds the primary's secret here.
  const read = statements(db).secret.read;
  const existing = read.get(name) as Buffer | undefined;
  if (existing) return existing;
  statements(db).secret.make.run(name, randomBytes(32));
  return read.get(name) as Buffer;
}

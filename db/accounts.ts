/**
 * Accounts, API keys and subscriptions: the queries the CLI, the console and every service's access
 * stage use. Keys are stored as SHA-256 hashes with a display prefix; the key itself is returned once,
 * by createKey/rotateKey, and never again.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from './connection.ts';
import { displayPrefix, formatKey, hashKey, type KeyPrefix } from '../lib/keys.ts';
import type { StoredKey } from '../lib/key-check.ts';
import { statementsFor } from './statements.ts';

export type Service = 'impact' | 'human' | 'funding';
export type Environment = 'test' | 'live';

export interface Account {
  id: number;
  email: string;
  created_at: number;
}

export interface KeyRow extends StoredKey {
  name: string;
  display_prefix: string;
  created_at: number;
  last_used_at: number | null;
  rotated_from: number | null;
}

export const SERVICE_SCOPES: Record<Service, string[]> = {
  impact: [],
  human: ['tasks:read', 'tasks:write'],
  funding: [],
};

export function keyPrefix(service: Service, environment: Environment | null): KeyPrefix {
  if (service === 'impact') return 'ia_';
  if (service === 'funding') return 'fnd_';
  return environment === 'live' ? 'ho_live_' : 'ho_test_';
}

export class AccountError extends Error {}

const KEY_COLUMNS =
  'id, account_id, service, environment, name, display_prefix, scopes, created_at, last_used_at, revoked_at, expires_at, rotated_from';

const statements = statementsFor((db) => ({
  insertAccount: db.prepare('INSERT INTO accounts (email, password_hash, created_at) VALUES (?, ?, ?)'),
  accountByEmail: db.prepare('SELECT id, email, created_at FROM accounts WHERE email = ?'),
  locale: db.prepare('SELECT locale FROM accounts WHERE id = ?').pluck(),
  setLocale: db.prepare('UPDATE accounts SET locale = ? WHERE id = ?'),
  insertKey: db.prepare(
    `INSERT INTO api_keys (account_id, service, environment, name, hash, display_prefix, scopes, created_at, expires_at, rotated_from)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  keyById: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`),
  listKeys: db.prepare(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE (@accountId IS NULL OR account_id = @accountId)
              AND (@service IS NULL OR service = @service) ORDER BY id`,
  ),
  revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?'),
  setKeyExpiry: db.prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?'),
  keyByHash: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`),
  endSubscription: db.prepare(
    `UPDATE subscriptions SET ends_at = ? WHERE account_id = ? AND service = 'funding'
                AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?)`,
  ),
  startSubscription: db.prepare(
    `INSERT INTO subscriptions (account_id, service, plan, starts_at, ends_at, created_at)
                  VALUES (?, 'funding', ?, ?, ?, ?)`,
  ),
  activePlan: db
    .prepare(
      `SELECT plan FROM subscriptions WHERE account_id = ? AND service = 'funding'
                           AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?) LIMIT 1`,
    )
    .pluck(),
}));

export function createAccount(db: Db, email: string, now: number, passwordHash: string | null = null): Account {
  const clean = email.trim();
  if (!/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/.test(clean))
    throw new AccountError(`'${clean}' is not an e-mail address`);
  if (findAccount(db, clean)) throw new AccountError(`an account with e-mail ${clean} exists already`);
  const info = statements(db).insertAccount.run(clean, passwordHash, now);
  return { id: Number(info.lastInsertRowid), email: clean, created_at: now };
}

export function findAccount(db: Db, email: string): Account | undefined {
  return statements(db).accountByEmail.get(email.trim()) as Account | undefined;
}

/** The language of the account's funding e-mails (issue 35): English unless it chose Spanish. */
export const accountLocale = (db: Db, accountId: number) =>
  (statements(db).locale.get(accountId) as 'en' | 'es' | undefined) ?? 'en';

export function setAccountLocale(db: Db, accountId: number, locale: 'en' | 'es'): void {
  statements(db).setLocale.run(locale, accountId);
}

export interface NewKey {
  key: string;
  row: KeyRow;
}

export function createKey(
  db: Db,
  input: {
    accountId: number;
    service: Service;
    name: string;
    environment?: Environment | null;
    scopes?: string[];
    expiresAt?: number | null;
    rotatedFrom?: number | null;
  },
  now: number,
): NewKey {
  const environment = input.service === 'human' ? (input.environment ?? 'test') : null;
  const scopes = input.scopes ?? SERVICE_SCOPES[input.service];
  const unknown = scopes.filter((s) => !SERVICE_SCOPES[input.service].includes(s));
  if (unknown.length) throw new AccountError(`scope ${unknown.join(', ')} does not exist for ${input.service} keys`);
  if (input.service === 'human' && scopes.length === 0)
    throw new AccountError('a human task key needs at least one scope');
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) throw new AccountError('a key name is 1 to 80 characters');
  const key = formatKey(keyPrefix(input.service, environment), randomBytes(32));
  const info = statements(db).insertKey.run(
    input.accountId,
    input.service,
    environment,
    name,
    hashKey(key),
    displayPrefix(key),
    scopes.join(' '),
    now,
    input.expiresAt ?? null,
    input.rotatedFrom ?? null,
  );
  return { key, row: getKey(db, Number(info.lastInsertRowid))! };
}

export function getKey(db: Db, id: number): KeyRow | undefined {
  return statements(db).keyById.get(id) as KeyRow | undefined;
}

export function listKeys(db: Db, filter: { accountId?: number; service?: Service } = {}): KeyRow[] {
  return statements(db).listKeys.all({
    accountId: filter.accountId ?? null,
    service: filter.service ?? null,
  }) as KeyRow[];
}

export function revokeKey(db: Db, id: number, now: number): KeyRow {
  const row = getKey(db, id);
  if (!row) throw new AccountError(`no key with id ${id}`);
  if (row.revoked_at === null) statements(db).revokeKey.run(now, id);
  return getKey(db, id)!;
}

/**
 * A new key with the same account, service, environment, name and scopes. The old key keeps working
 * until revoked, or until `oldExpiresAt` when given (the console offers now … 7 days).
 */
export function rotateKey(db: Db, id: number, now: number, oldExpiresAt: number | null = null): NewKey {
  return db
    .transaction(() => {
      const old = getKey(db, id);
      if (!old) throw new AccountError(`no key with id ${id}`);
      if (old.revoked_at !== null) throw new AccountError(`key ${id} is revoked; create a new key instead`);
      const created = createKey(
        db,
        {
          accountId: old.account_id,
          service: old.service as Service,
          name: old.name,
          environment: old.environment as Environment | null,
          scopes: old.scopes ? old.scopes.split(' ') : [],
          rotatedFrom: old.id,
        },
        now,
      );
      if (oldExpiresAt !== null) statements(db).setKeyExpiry.run(oldExpiresAt, id);
      return created;
    })
    .immediate();
}

/** How many keys (found or not) a process keeps read; the oldest read go first. */
export const KEY_CACHE_ENTRIES = 10_000;

// Apart from `statements`: a copy of the file from before migration 018 (a read-only node following an
// older primary) has no generation, and its keys are then read on every request.
const generationOf = statementsFor((db) => {
  try {
    return db.prepare('SELECT generation FROM api_key_changes WHERE id = 1').pluck();
  } catch {
    return null;
  }
});

/**
 * The lookup every keyed request makes: a key's row by its hash, from memory while no key has changed.
 * Each call reads the file's key generation (one row, migration 018), which every creation, revocation,
 * expiry or other change of a key bumps in its own transaction, whichever process made it; when it has
 * moved, everything kept is dropped and read again. So a revoked key is refused on the next request
 * after the revocation commits, in this process, in every cluster worker and on a read-only node as soon
 * as its copy has the revocation; and a key unknown a moment ago is found once it is created. The
 * generation is read before the row, so a row is never kept under a generation older than itself.
 * Unknown hashes are kept too (as null): an unknown and a revoked key cost the same (issue 8). Rows are
 * frozen: shared by every request that presents the key. Measured: 2.5 µs a check against 10 µs a row
 * read (BENCHMARKS.md, "The cost of one request").
 */
export function keyLookup(db: Db): (hash: string) => KeyRow | undefined {
  const byHash = statements(db).keyByHash;
  const generation = generationOf(db);
  if (generation === null) return (hash) => byHash.get(hash) as KeyRow | undefined;
  const kept = new Map<string, KeyRow | null>();
  let keptAt: number | undefined;
  return (hash) => {
    const now = generation.get() as number;
    if (now !== keptAt) {
      kept.clear();
      keptAt = now;
    }
    let row = kept.get(hash);
    if (row === undefined) {
      row = (byHash.get(hash) as KeyRow | undefined) ?? null;
      if (row) Object.freeze(row);
      if (kept.size >= KEY_CACHE_ENTRIES) kept.delete(kept.keys().next().value!);
      kept.set(hash, row);
    }
    return row ?? undefined;
  };
}

// Apart from `statements`: the columns it reads came with migration 024, and every key lookup prepares
// `statements` (a read-only node may serve a copy from an older primary).
const currentSubscription = statementsFor((db) =>
  db.prepare(
    `SELECT plan, source, stripe_subscription_id, ends_at FROM subscriptions WHERE account_id = ? AND service = 'funding'
       AND starts_at <= ? AND (ends_at IS NULL OR ends_at > ?) ORDER BY starts_at DESC, id DESC LIMIT 1`,
  ),
);

/** A funding plan row and who granted it: an operator (`subscription set`) or a Stripe subscription. */
export interface PlanGrant {
  plan: 'pro';
  source: 'operator' | 'stripe';
  stripe_subscription_id: string | null;
  ends_at: number | null;
}

/**
 * An operator's grant: ends the current subscription (if any, whoever granted it) and, unless plan is
 * null, starts a new one now, granted by the operator. Returns the plan it replaced.
 */
export function setSubscription(
  db: Db,
  accountId: number,
  plan: 'pro' | null,
  now: number,
  endsAt: number | null = null,
): { replaced: PlanGrant | null } {
  if (endsAt !== null && endsAt <= now) throw new AccountError('the end of a subscription must be in the future');
  return db
    .transaction(() => {
      const replaced = (currentSubscription(db).get(accountId, now, now) as PlanGrant | undefined) ?? null;
      statements(db).endSubscription.run(now, accountId, now, now);
      if (plan) {
        statements(db).startSubscription.run(accountId, plan, now, endsAt, now);
      }
      return { replaced };
    })
    .immediate();
}

export function activePlanLookup(db: Db): (accountId: number, now: number) => 'pro' | null {
  const stmt = statements(db).activePlan;
  return (accountId, now) => (stmt.get(accountId, now, now) as 'pro' | undefined) ?? null;
}

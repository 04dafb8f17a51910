/**
 * The key lookup every keyed request makes (db/accounts.ts keyLookup, migration 018): rows kept in
 * memory, and refused at once when anything about a key changes, whichever connection changed it:
 * this one (the console in this process), another (the CLI, another cluster worker), or a copy's
 * primary. A key's last use, written behind every second, does not drop what is kept.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  createAccount,
  createKey,
  KEY_CACHE_ENTRIES,
  keyLookup,
  revokeKey,
  rotateKey,
  setSubscription,
} from '../../db/accounts.ts';
import { openDatabase, type Db } from '../../db/connection.ts';
import { migrate } from '../../db/migrate.ts';
import { WriteBehind } from '../../db/write-behind.ts';
import { hashKey } from '../../lib/keys.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-key-lookup-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const now = Date.parse('2026-11-26T12:00:00Z');

function database(): { path: string; db: Db } {
  const path = join(dir, `k${++files}.sqlite`);
  const db = openDatabase(path);
  migrate(db, undefined, now);
  return { path, db };
}

test('a key is read once, then from memory while no key changes; every change is seen on the next lookup', () => {
  const { path, db } = database();
  const account = createAccount(db, 'a@example.org', now);
  const { key, row } = createKey(db, { accountId: account.id, service: 'impact', name: 'k' }, now);
  const lookup = keyLookup(db);
  const first = lookup(hashKey(key))!;
  assert.equal(first.id, row.id);
  assert.equal(lookup(hashKey(key)), first, 'the same row from memory');
  assert.ok(Object.isFrozen(first), 'shared by every request: frozen');

  // The key's last use, written behind: not a change of what the key may do.
  const behind = new WriteBehind(db, null, () => now);
  behind.noteKeyUse(row.id, now + 1000);
  behind.flush();
  assert.equal(lookup(hashKey(key)), first, 'still from memory after last_used_at was written');

  // Revoked through this connection (the console in this process).
  revokeKey(db, row.id, now + 2000);
  assert.equal(lookup(hashKey(key))!.revoked_at, now + 2000, 'the revocation is seen at once');

  // Changed through another connection (the CLI, another worker): the same.
  const other = createKey(db, { accountId: account.id, service: 'impact', name: 'other' }, now);
  assert.equal(lookup(hashKey(other.key))!.revoked_at, null);
  const cli = openDatabase(path);
  revokeKey(cli, other.row.id, now + 3000);
  cli.close();
  assert.equal(lookup(hashKey(other.key))!.revoked_at, now + 3000, 'revoked by another connection: seen at once');
  db.close();
});

test('an unknown key is kept as unknown until a key is created; rotation gives the old key its expiry at once', () => {
  const { db } = database();
  const account = createAccount(db, 'b@example.org', now);
  const lookup = keyLookup(db);
  const { key, row } = createKey(db, { accountId: account.id, service: 'human', name: 'k', environment: 'test' }, now);
  const ghost = hashKey(key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')));
  assert.equal(lookup(ghost), undefined);
  assert.equal(lookup(hashKey(key))!.expires_at, null);
  const rotated = rotateKey(db, row.id, now, now + 60_000);
  assert.equal(lookup(hashKey(key))!.expires_at, now + 60_000, 'the grace period is seen at once');
  assert.equal(lookup(hashKey(rotated.key))!.rotated_from, row.id, 'the new key is found');
  // A subscription is not a change of a key: nothing kept is dropped (the plan is read per request).
  const kept = lookup(hashKey(rotated.key));
  setSubscription(db, account.id, 'pro', now + 1);
  assert.equal(lookup(hashKey(rotated.key)), kept);
  db.close();
});

test('what is kept is bounded: the oldest read go first, and are read again when asked', () => {
  const { db } = database();
  const account = createAccount(db, 'd@example.org', now);
  const { key, row } = createKey(db, { accountId: account.id, service: 'impact', name: 'k' }, now);
  const lookup = keyLookup(db);
  assert.equal(lookup(hashKey(key))!.revoked_at, null);
  // Without its trigger, a revocation does not move the generation: the kept row is what is answered.
  db.exec('DROP TRIGGER api_keys_changed');
  revokeKey(db, row.id, now);
  assert.equal(lookup(hashKey(key))!.revoked_at, null, 'from memory');
  for (let i = 0; i < KEY_CACHE_ENTRIES; i++) lookup(`unknown-${i}`);
  assert.equal(lookup(hashKey(key))!.revoked_at, now, 'pushed out by newer reads, so read again');
  db.close();
});

test('a copy from before migration 018 (an older primary) is read on every lookup, not refused', () => {
  const { db } = database();
  const account = createAccount(db, 'c@example.org', now);
  const { key, row } = createKey(db, { accountId: account.id, service: 'funding', name: 'k' }, now);
  db.exec('DROP TRIGGER api_keys_created; DROP TRIGGER api_keys_deleted; DROP TRIGGER api_keys_changed');
  db.exec('DROP TABLE api_key_changes');
  const lookup = keyLookup(db);
  assert.equal(lookup(hashKey(key))!.revoked_at, null);
  revokeKey(db, row.id, now);
  assert.equal(lookup(hashKey(key))!.revoked_at, now, 'no generation: read every time');
  db.close();
});

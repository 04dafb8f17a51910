/**
 * Deciding what a presented key is, the same way for every service: shape and checksum first (no
 * lookup for garbage), then a lookup by SHA-256, then revocation and expiry. A well-formed key always
 * costs one hash and one lookup whether it is unknown or revoked, so timing tells a client nothing.
 */
import { hashKey, parseKey, type KeyPrefix } from './keys.ts';

export interface StoredKey {
  id: number;
  account_id: number;
  service: string;
  environment: string | null;
  scopes: string;
  revoked_at: number | null;
  expires_at: number | null;
}

export type KeyCheck<K extends StoredKey> =
  { kind: 'ok'; key: K } | { kind: 'unknown' } | { kind: 'revoked'; key: K } | { kind: 'expired'; key: K };

export function checkKey<K extends StoredKey>(
  presented: string,
  prefixes: readonly KeyPrefix[],
  now: number,
  lookup: (hash: string) => K | undefined,
): KeyCheck<K> {
  const read = readKey(presented);
  if (!read || !prefixes.includes(read.prefix)) return { kind: 'unknown' };
  return keyState(lookup(read.hash), now);
}

/** How many presented keys' shapes and hashes are kept (the oldest first out), and the longest kept (a key is 57). */
export const READ_KEYS_KEPT = 10_000;
const LONGEST_KEPT = 64;
const readKeys = new Map<string, { prefix: KeyPrefix; hash: string } | null>();

/**
 * A presented key's prefix and SHA-256, or null when it is not well formed: a pure function of the
 * string, so the answers for the keys seen lately are kept (a client sends the same key on every
 * request; parsing, the checksum and the hash are 3 µs of each). Whatever the key's state, the
 * lookup by hash still happens on every request.
 */
function readKey(presented: string): { prefix: KeyPrefix; hash: string } | null {
  let read = readKeys.get(presented);
  if (read === undefined) {
    const key = presented.trim();
    const parsed = parseKey(key);
    read = parsed ? { prefix: parsed.prefix, hash: hashKey(key) } : null;
    if (presented.length > LONGEST_KEPT) return read; // never a key: not worth memory
    if (readKeys.size >= READ_KEYS_KEPT) readKeys.delete(readKeys.keys().next().value!);
    readKeys.set(presented, read);
  }
  return read;
}

/** What a stored key (or none) is at `now`: also for keys found by id (routes/human/in-process-caller.ts). */
export function keyState<K extends StoredKey>(key: K | undefined, now: number): KeyCheck<K> {
  if (!key) return { kind: 'unknown' };
  if (key.revoked_at !== null && key.revoked_at <= now) return { kind: 'revoked', key };
  if (key.expires_at !== null && key.expires_at <= now) return { kind: 'expired', key };
  return { kind: 'ok', key };
}

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
  const parsed = parseKey(presented.trim());
  if (!parsed || !prefixes.includes(parsed.prefix)) return { kind: 'unknown' };
  return keyState(lookup(hashKey(presented.trim())), now);
}

/** What a stored key (or none) is at `now`: also for keys found by id (routes/human/in-process-caller.ts). */
export function keyState<K extends StoredKey>(key: K | undefined, now: number): KeyCheck<K> {
  if (!key) return { kind: 'unknown' };
  if (key.revoked_at !== null && key.revoked_at <= now) return { kind: 'revoked', key };
  if (key.expires_at !== null && key.expires_at <= now) return { kind: 'expired', key };
  return { kind: 'ok', key };
}

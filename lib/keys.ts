/**
 * API keys: generation, format check, hashing and display prefix. Pure: randomness is passed in.
 *
 * Layout of a key (SPEC "Keys"):
 *
 *   <prefix><body: 43 base62 chars><checksum: 6 base62 chars>
 *   e.g. fnd_ 3kTmb…(43)… 0aZ9xQ
 *
 * - prefix: `ia_` impact, `ho_test_` / `ho_live_` human, `fnd_` funding. `_` is not base62, so a
 *   double-click selects the whole key and a prefix can never be mistaken for body.
 * - body: 32 random bytes (256 bits) as a big-endian base62 number, left-padded to 43 characters.
 * - checksum: CRC-32 of prefix+body, base62, padded to 6: lets us (and secret scanners) reject a
 *   mistyped or truncated key before any database lookup, as GitHub's token format does.
 *
 * Only SHA-256(hex) of the whole key is stored. Plain SHA-256 is enough for 256 random bits; a slow
 * password hash would only add latency to every request.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIXES = ['ia_', 'ho_test_', 'ho_live_', 'fnd_'] as const;
export type KeyPrefix = (typeof KEY_PREFIXES)[number];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const RANDOM_BYTES = 32;
const KEY_SHAPE = /^(ia_|ho_test_|ho_live_|fnd_)([0-9A-Za-z]{49})$/;

function toBase62(value: bigint, width: number): string {
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}

function checksum(prefixAndBody: string): string {
  return toBase62(BigInt(crc32(prefixAndBody)), CHECKSUM_LENGTH);
}

/** Builds a key from 32 random bytes (callers pass `crypto.randomBytes(32)`). */
export function formatKey(prefix: KeyPrefix, random: Uint8Array): string {
  if (random.length !== RANDOM_BYTES) throw new RangeError(`a key needs ${RANDOM_BYTES} random bytes`);
  const body = toBase62(BigInt('0x' + Buffer.from(random).toString('hex')), BODY_LENGTH);
  return prefix + body + checksum(prefix + body);
}

export interface ParsedKey {
  prefix: KeyPrefix;
  body: string;
}

/**
 * Checks shape and checksum. Returns null for anything that is not a well-formed key, so a caller
 * can refuse it as unknown without touching the database.
 */
export function parseKey(candidate: string): ParsedKey | null {
  const match = KEY_SHAPE.exec(candidate);
  if (!match) return null;
  const prefix = match[1] as KeyPrefix;
  const rest = match[2]!;
  const body = rest.slice(0, BODY_LENGTH);
  if (checksum(prefix + body) !== rest.slice(BODY_LENGTH)) return null;
  return { prefix, body };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** What people see to tell keys apart: the prefix and the first 4 characters of the body. */
export function displayPrefix(key: string): string {
  const parsed = parseKey(key);
  if (!parsed) throw new TypeError('not a well-formed key');
  return parsed.prefix + parsed.body.slice(0, 4);
}

/**
 * Text with anything that looks like a key, or the start of one (a prefix and 16 or more base62
 * characters, not inside a longer word), cut to its prefix: for messages and logs that echo what a
 * client sent, in case what it sent in the wrong place was its key.
 */
export function redactKeys(text: string): string {
  // Most text holds no prefix at all: three substring searches instead of the pattern at every position.
  if (!text.includes('ia_') && !text.includes('ho_') && !text.includes('fnd_')) return text;
  return text.replace(/(?<![0-9A-Za-z])(ia_|ho_test_|ho_live_|fnd_)[0-9A-Za-z]{16,}/g, '$1…');
}

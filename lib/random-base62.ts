/**
 * Random base62 strings for public identifiers (task refs, webhook events and endpoints). Bytes come
 * from the CSPRNG a pool at a time (one call per ~300 identifiers instead of one per identifier, which
 * cost as much as the rest of building a ref); rejection sampling keeps every character uniform (256 is
 * not a multiple of 62).
 */
import { randomFillSync } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

function randomByte(): number {
  if (poolAt === POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** `length` uniformly random base62 characters. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/**
 * An identifier that sorts by creation: `prefix` + 8 base62 characters of the time in milliseconds +
 * `random` random ones. Each new one lands at the end of its unique index instead of on a random page
 * (fewer pages written per insert); the random part still makes it impossible to guess.
 */
export function timeOrderedId(prefix: string, now: number, random: number): string {
  let time = '';
  for (let t = Math.max(0, Math.floor(now)), i = 0; i < 8; i++, t = Math.floor(t / 62)) time = BASE62[t % 62] + time;
  return `${prefix}${time}${randomBase62(random)}`;
}

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

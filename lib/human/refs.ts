/**
 * Task references: 'tsk_' + 20 base62 characters: 8 for the order time (milliseconds) and 12 random
 * (about 71 bits). The time prefix makes refs sort by creation, so each new ref lands at the end of
 * the unique index instead of on a random page (fewer pages written per order, see bench/human.ts);
 * the random part still makes a ref impossible to guess, and says nothing about how many tasks exist.
 */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const REF_PATTERN = /^tsk_[0-9A-Za-z]{20}$/;

// Random bytes are drawn from the CSPRNG a pool at a time (one call per ~300 refs instead of one per
// ref, which cost as much as the rest of the ref); each byte is used once, then the pool is refilled.
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

/** `now` is the order time in milliseconds (the caller's clock: lib/ reads none). */
export function newTaskRef(now: number): string {
  let time = '';
  for (let t = Math.max(0, Math.floor(now)), i = 0; i < 8; i++, t = Math.floor(t / 62)) time = ALPHABET[t % 62] + time;
  let random = '';
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  while (random.length < 12) {
    const byte = randomByte();
    if (byte < 248) random += ALPHABET[byte % 62];
  }
  return `tsk_${time}${random}`;
}

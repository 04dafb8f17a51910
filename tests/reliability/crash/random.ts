/**
 * A seeded random source (mulberry32) for the crash test: the kill moments, which cycles kill the
 * funding import, and the load's choices all come from the printed seed, so a failing run can be
 * replayed with CRASH_SEED=<seed>. (Replayed choices, not replayed timing: the machine decides when
 * each response arrives.)
 */
import { mulberry32 } from '../../../lib/mulberry32.ts';

export interface Random {
  /** [0, 1) */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function seededRandom(seed: number): Random {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: (items) => items[int(0, items.length - 1)]!, chance: (p) => next() < p };
}

/** CRASH_SEED when given (to replay a run), else a fresh one. */
export function chooseSeed(env: Record<string, string | undefined> = process.env): number {
  const given = env.CRASH_SEED;
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)
      throw new Error('CRASH_SEED must be an integer from 0 to 2^32 − 1');
    return seed;
  }
  return Math.floor(Math.random() * 2 ** 32);
}

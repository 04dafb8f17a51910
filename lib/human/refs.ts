/**
 * Task references: 'tsk_' + 20 base62 characters: 8 for the order time (milliseconds) and 12 random
 * (about 71 bits). The time prefix makes refs sort by creation, so each new ref lands at the end of
 * the unique index instead of on a random page (fewer pages written per order, see bench/human.ts);
 * the random part still makes a ref impossible to guess, and says nothing about how many tasks exist.
 */
import { timeOrderedId } from '../random-base62.ts';

export const REF_PATTERN = /^tsk_[0-9A-Za-z]{20}$/;

/** `now` is the order time in milliseconds (the caller's clock: lib/ reads none). */
export const newTaskRef = (now: number): string => timeOrderedId('tsk_', now, 12);

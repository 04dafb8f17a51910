/**
 * UTC quota windows as pure functions of an injected clock (milliseconds since the epoch).
 * A day is the UTC date and rolls at 00:00 UTC; a minute is the UTC minute (SPEC "Rate limits").
 * `resetSeconds` is whole seconds until the window rolls, rounded up, so it is never 0 while the
 * window is open and a client that waits that long is always in the next window.
 */

export interface Window {
  /** Identifies the window: 'YYYY-MM-DD' for a day, 'YYYY-MM-DDTHH:MM' for a minute. */
  key: string;
  startMs: number;
  endMs: number;
  resetSeconds: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

// Every request asks for its minute and its day; formatting the key is most of the cost, and it
// changes only when the window does, so the last key of each length is kept.
const lastKeys = new Map<number, { startMs: number; key: string }>();

function windowKey(startMs: number, lengthMs: number, keyLength: number): string {
  const last = lastKeys.get(lengthMs);
  if (last?.startMs === startMs) return last.key;
  const key = new Date(startMs).toISOString().slice(0, keyLength);
  lastKeys.set(lengthMs, { startMs, key });
  return key;
}

function window(nowMs: number, lengthMs: number, keyLength: number): Window {
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a finite number of milliseconds');
  const startMs = Math.floor(nowMs / lengthMs) * lengthMs;
  const endMs = startMs + lengthMs;
  return {
    key: windowKey(startMs, lengthMs, keyLength),
    startMs,
    endMs,
    resetSeconds: Math.ceil((endMs - nowMs) / 1000),
  };
}

export function utcMinute(nowMs: number): Window {
  return window(nowMs, MINUTE_MS, 16);
}

export function utcDay(nowMs: number): Window {
  return window(nowMs, DAY_MS, 10);
}

/**
 * When a failed outbox delivery (a webhook, an e-mail: db/outbox/deliverer.ts) is tried again. Pure:
 * times are arguments.
 *
 * Backoff over one day (issue 26: "retried with backoff for a day"; issue 35 sends mail on the same plan): the first attempt at once, then
 * after 10 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h and 8 h: ten attempts, the last 23 h 36 min after
 * the first; then the delivery has failed for good (a webhook replay can still send it). The shape follows
 * Standard Webhooks' example schedule, cut to a day. A Retry-After the receiver sent is honoured when
 * it asks for longer, up to an hour (a receiver cannot park a delivery for days).
 */

export const RETRY_DELAYS_MS = [
  10_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  3_600_000,
  2 * 3_600_000,
  4 * 3_600_000,
  8 * 3_600_000,
  8 * 3_600_000,
] as const;

/** Attempts a delivery gets in all. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * The time of the next attempt after `attempts` failed ones (the last at `now`), or null when the
 * delivery has had its last attempt.
 */
export function nextAttemptAt(attempts: number, now: number, retryAfterMs: number | null = null): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const planned = RETRY_DELAYS_MS[attempts - 1] ?? RETRY_DELAYS_MS[0];
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return now + Math.max(planned, asked);
}

/**
 * When to try a request again. Pure: the clock and the random source are arguments.
 *
 * Exponential backoff with "full jitter" (a random delay between half and all of base·2^attempt,
 * capped): many crawlers that failed together do not come back together. A Retry-After the source
 * sent wins over our own guess when it is longer: it is the source telling us when it can serve.
 */

/** Delay before retry number `attempt` (0 for the first retry). */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds from `now`,
 * or null when absent or unreadable (then the backoff decides).
 */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) && /[a-z]/i.test(v) ? Math.max(0, at - now) : null;
}

/** Statuses worth another try: rate limited, and server-side failures (not 501, which will not change). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || (status >= 500 && status !== 501);
}

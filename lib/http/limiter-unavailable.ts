/**
 * The shared counters could not be reached (Redis down or frozen, the cluster primary stuck or gone):
 * the request is refused with 503 rather than served unlimited, and is not counted (nothing was
 * taken; a take that reaches the counters after its request was refused is given back: db/counters/).
 * serviceRouter renders it in each service's shape.
 */
import { HttpError } from './errors.ts';

export class LimiterUnavailableError extends Error {
  constructor(
    /** Which counters: Redis's (REDIS_URL) or the cluster primary's (serve --workers N). */
    readonly dependency: 'redis' | 'cluster_primary',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LimiterUnavailableError';
  }
}

export const limiterUnavailable = () =>
  new HttpError(
    503,
    'service_unavailable',
    'The shared rate-limit counters cannot be reached right now, so the request was not served (it is never served without its limit) and not counted. Try again shortly.',
    { 'retry-after': '5' },
  );

/**
 * The shared counters could not be reached (Redis down, the cluster primary gone): the request is
 * refused with 503 rather than served unlimited. serviceRouter renders it in each service's shape.
 */
import { HttpError } from './errors.ts';

export class LimiterUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LimiterUnavailableError';
  }
}

export const limiterUnavailable = () =>
  new HttpError(
    503,
    'service_unavailable',
    'The shared rate-limit counters cannot be reached right now, so the request was not served (it is never served without its limit). Try again shortly.',
    { 'retry-after': '5' },
  );

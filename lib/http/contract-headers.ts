/**
 * How the contracts describe the response headers the shared stages write: the request id (the
 * adapter) and the per-minute accounting of the access stage (lib/http/access.ts, GCRA: the allowance
 * refills continuously). Each service's contract lists these beside its own.
 */
const integer = { type: 'integer' };

export const REQUEST_ID_HEADER = {
  description: 'Identifies this request in our logs.',
  schema: { type: 'string' },
};

export const MINUTE_REMAINING_HEADER = {
  description:
    'Requests that would be allowed right now, at once (the minute limit refills continuously: one request every 60 s / limit).',
  schema: integer,
};

export const MINUTE_RESET_HEADER = {
  description:
    "Seconds until the whole per-minute allowance is back (it refills continuously, one request every 60 s / limit; a 429's Retry-After is the wait for one request).",
  schema: integer,
};

/** The headers every counted reply carries: the access stage's accounting and the request id. */
export const ACCOUNTED_HEADERS: readonly string[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
];

/** The headers of a cacheable answer (200 and 304): those, and its validators. */
export const CACHEABLE_HEADERS: readonly string[] = [...ACCOUNTED_HEADERS, 'ETag', 'Cache-Control'];

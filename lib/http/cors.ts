/**
 * CORS for the public APIs: any origin may read them (they are public and use header keys, not
 * cookies, so no credentials are allowed). Preflights are answered without counting against quotas.
 */
import type { Reply } from './types.ts';

const EXPOSED = [
  'X-Request-Id',
  'Retry-After',
  'X-API-Tier',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'Idempotent-Replayed',
  'ETag',
  'Allow',
].join(', ');

export const corsHeaders: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
};

export function preflight(allowMethods: string): Reply {
  return {
    status: 204,
    headers: {
      ...corsHeaders,
      'access-control-allow-methods': allowMethods,
      'access-control-allow-headers': 'Authorization, X-API-Key, Content-Type, Idempotency-Key, If-None-Match',
      'access-control-max-age': '86400',
      allow: allowMethods,
    },
  };
}

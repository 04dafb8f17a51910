/**
 * CORS for the public APIs: any origin may read them (they are public and use header keys, not
 * cookies, so no credentials are allowed). Preflights are answered without counting against quotas.
 * The allowed request headers are those browser clients send: keys and idempotency (REST), the MCP
 * Streamable HTTP transport's (Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID: without them a
 * browser MCP client's calls after initialize are blocked, issue 26), conditional requests and a
 * request id; the exposed ones are what a client reads back (limits, ids, replays, challenges).
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
  'Location',
  'WWW-Authenticate',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
].join(', ');

const ALLOWED = [
  'Authorization',
  'X-API-Key',
  'Content-Type',
  'Accept',
  'Idempotency-Key',
  'If-None-Match',
  'X-Request-Id',
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
  'Last-Event-ID',
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
      'access-control-allow-headers': ALLOWED,
      'access-control-max-age': '86400',
      allow: allowMethods,
    },
  };
}

/**
 * What the impact API keeps of a serialised response, and its validators. The entries live in the one
 * response cache (lib/response-cache.ts, built in routes/impact/index.ts, bounded by bytes). A response
 * is a function of the serving state (which run each scenario serves, and the register's version:
 * db/impact/queries/state.ts) and the canonical request, so an entry is keyed by both and never goes
 * stale: publishing a run or reloading the register changes the state key, and old entries simply stop
 * being asked for and age out. Only successful responses are kept, and only after every figure in them
 * passed its checks (they are checked when the entry is made, which is when they are serialised).
 */
import { createHash } from 'node:crypto';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';

export interface CachedResponse {
  body: Buffer;
  etag: string;
  cacheControl: string;
}

/** A strong ETag: the run the figures come from (or w for withheld) and a digest of the bytes. */
export function etagOf(runId: number | null, body: Buffer): string {
  return `"${runId === null ? 'w' : `r${runId}`}-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** RFC 9110 If-None-Match: a list of entity tags or *, compared weakly. */
export function ifNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return value.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/** The reply to a GET of a validated body: 304 when If-None-Match holds its ETag, else 200; the same headers either way. */
export function conditionalReply(
  req: ApiRequest,
  headers: Record<string, string> & { etag: string },
  body: Buffer,
): Reply {
  return ifNoneMatch(req.headers['if-none-match'], headers.etag)
    ? { status: 304, headers }
    : { status: 200, headers, body };
}

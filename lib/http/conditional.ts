/**
 * Conditional GET (RFC 9110 §13.1): whether a client already holds the current representation. An
 * If-None-Match list (weak comparison, or *) decides when it is sent; otherwise If-Modified-Since is
 * compared with Last-Modified at one-second resolution. A date that does not parse is ignored.
 */
import type { IncomingHttpHeaders } from 'node:http';

const one = (h: string | string[] | undefined) => (Array.isArray(h) ? h.join(',') : h);

export function notModified(headers: IncomingHttpHeaders, validators: { etag: string; lastModified: number }): boolean {
  const tags = one(headers['if-none-match']);
  if (tags !== undefined) {
    if (tags.trim() === '*') return true;
    const bare = validators.etag.replace(/^W\//, '');
    return tags.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
  }
  const since = Date.parse(one(headers['if-modified-since']) ?? '');
  return Number.isFinite(since) && Math.floor(validators.lastModified / 1000) <= Math.floor(since / 1000);
}

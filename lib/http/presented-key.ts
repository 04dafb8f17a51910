/**
 * The key a request presents in `Authorization: Bearer <key>` or `X-API-Key` (header names are
 * case-insensitive), read the same way by every service that takes both. Each service turns the
 * outcome into its own documented error (SPEC "Keys").
 */
import type { IncomingHttpHeaders } from 'node:http';

export type PresentedKey =
  | { kind: 'none' }
  | { kind: 'key'; key: string }
  /** An Authorization header that is not `Bearer <token>`. */
  | { kind: 'malformed' }
  /** Authorization and X-API-Key carry different keys. */
  | { kind: 'conflict' };

export function readPresentedKey(headers: IncomingHttpHeaders): PresentedKey {
  const auth = headers.authorization;
  const header = headers['x-api-key'];
  let bearer: string | null = null;
  if (auth !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) return { kind: 'malformed' };
    bearer = m[1]!;
  }
  const apiKey = header === undefined ? null : (Array.isArray(header) ? header.join(',') : header).trim();
  if (bearer !== null && apiKey !== null && bearer !== apiKey) return { kind: 'conflict' };
  const key = bearer ?? apiKey;
  return key === null ? { kind: 'none' } : { kind: 'key', key };
}

/**
 * A database that cannot answer (locked past busy_timeout by another process, closed, unreadable) is
 * 503 with Retry-After on every service, not a 500: the request did nothing (its transaction rolled
 * back), and a retry can succeed. better-sqlite3 throws a TypeError once the connection is closed, and
 * SqliteErrors with these codes otherwise.
 */
import { HttpError } from './errors.ts';

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|NOTADB|CORRUPT|PROTOCOL|FULL|READONLY)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof TypeError && /database connection is not open/i.test(err.message)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNAVAILABLE.test(code);
}

export const serviceUnavailable = () =>
  new HttpError(
    503,
    'service_unavailable',
    'The database is busy or unavailable; nothing was stored. Try again shortly.',
    { 'retry-after': '5' },
  );

/**
 * Requests refused because a part they need cannot serve them right now: 503 with Retry-After on
 * every service, not a 500. The request did nothing (its transaction rolled back) and a retry can
 * succeed, so it is never counted against the client (lib/http/access.ts gives its count back), and
 * it is one access-log line with its cause, no stack trace: the outage itself is reported once, as the
 * dependency's state (lib/http/dependency.ts).
 *
 * A database that cannot answer: better-sqlite3 throws a TypeError once the connection is closed, and
 * SqliteErrors with these codes otherwise. BUSY and LOCKED (another process held the write lock past
 * busy_timeout) are load, not an outage: the database stays "up".
 */
import { describeError } from './dependency.ts';
import { HttpError } from './errors.ts';
import { limiterUnavailable, LimiterUnavailableError } from './limiter-unavailable.ts';
import type { Refusal } from './types.ts';

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|NOTADB|CORRUPT|PROTOCOL|FULL|READONLY)/;
const BUSY = /^SQLITE_(BUSY|LOCKED)/;

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof TypeError && /database connection is not open/i.test(err.message)) return true;
  const code = codeOf(err);
  return typeof code === 'string' && UNAVAILABLE.test(code);
}

/** A database error that is an outage (full, read-only, unreadable, closed), not a busy moment. */
export function isDatabaseDown(err: unknown): boolean {
  const code = codeOf(err);
  return isDatabaseUnavailable(err) && !(typeof code === 'string' && BUSY.test(code));
}

// What SQLite's codes mean for an operator (SQLite says "disk I/O error" for a write the kernel refused).
const HINTS: Array<[RegExp, string]> = [
  [/^SQLITE_FULL/, 'no space left on the file system of DATABASE_PATH'],
  [/^SQLITE_IOERR/, 'the file system refused a read or a write: read-only, immutable, or failing'],
  [/^SQLITE_READONLY/, 'the file or its directory is read-only to trio'],
  [/^SQLITE_CANTOPEN/, 'the file, or its -wal or -shm beside it, cannot be opened'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'the file is damaged: restore a backup'],
  [/^SQLITE_(BUSY|LOCKED)/, 'another process held the write lock past busy_timeout'],
];

/** A database error as one line for an operator: the code, SQLite's message, and what it means. */
export function databaseCause(err: unknown): string {
  const code = String(codeOf(err) ?? '');
  const hint = HINTS.find(([pattern]) => pattern.test(code))?.[1];
  return hint ? `${describeError(err)} (${hint})` : describeError(err);
}

/** Why an error refuses its request unserved; null for any other error (a fault, or the client's). */
export function refusalOf(err: unknown): Refusal | null {
  if (err instanceof LimiterUnavailableError) return { cause: err.dependency, detail: err.message };
  if (!isDatabaseUnavailable(err)) return null;
  return { cause: isDatabaseDown(err) ? 'database' : 'database_busy', detail: databaseCause(err) };
}

export const serviceUnavailable = () =>
  new HttpError(
    503,
    'service_unavailable',
    'The database is busy or unavailable; nothing was stored. Try again shortly.',
    { 'retry-after': '5' },
  );

/**
 * The 503 a refusal is answered with, REST's and MCP's alike: the database's message, or the counters';
 * in the service's own 503 code where it documents one (`unavailable`: impact's database_unavailable).
 */
export function refusalError(refusal: Refusal, unavailable: () => HttpError = serviceUnavailable): HttpError {
  if (refusal.cause === 'database' || refusal.cause === 'database_busy') return unavailable();
  const generic = limiterUnavailable();
  return new HttpError(503, unavailable().code, generic.message, generic.headers);
}

/**
 * One-click unsubscribe (RFC 8058) from the e-mails an account chose: a saved search's alerts, the
 * daily digest, task offers. The address is /console/unsubscribe/{scope}/{mac}: the scope names what
 * stops (`ss_…` one saved search, `digest.{account}` every search in the daily digest, `tasks.{account}`
 * task offers), the mac is an HMAC of it with a secret of the server's, so it works without signing
 * in, cannot be made for another scope, stores nothing, and keeps working (a second use changes
 * nothing). Mail providers POST `List-Unsubscribe=One-Click` to it; a person opening it gets a page
 * with one button (a GET never unsubscribes: link scanners open every link).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { serverSecret } from '../sessions.ts';

const statements = statementsFor((db) => ({
  search: db.prepare('SELECT name FROM funding_saved_searches WHERE public_id = ?').pluck(),
  searchOff: db.prepare("UPDATE funding_saved_searches SET email = 'off' WHERE public_id = ?"),
  digestOff: db.prepare("UPDATE funding_saved_searches SET email = 'off' WHERE account_id = ? AND email = 'daily'"),
  tasksOff: db.prepare('UPDATE human_workers SET offer_mail = 0 WHERE account_id = ?'),
}));

const SCOPE = /^(ss_[0-9A-Za-z]{20}|digest\.\d{1,12}|tasks\.\d{1,12})$/;

function mac(db: Db, scope: string): string {
  return createHmac('sha256', serverSecret(db, 'unsubscribe')).update(scope).digest('base64url').slice(0, 32);
}

export function unsubscribePath(db: Db, scope: string): string {
  return `/console/unsubscribe/${scope}/${mac(db, scope)}`;
}

/** What the scope stops, in words, when the mac is right; null otherwise (an altered link). */
export function unsubscribeScope(db: Db, scope: string, given: string): string | null {
  if (!SCOPE.test(scope) || !/^[A-Za-z0-9_-]{32}$/.test(given)) return null;
  if (!timingSafeEqual(Buffer.from(mac(db, scope)), Buffer.from(given))) return null;
  if (scope.startsWith('ss_')) {
    const name = statements(db).search.get(scope) as string | undefined;
    return name === undefined
      ? 'e-mail alerts of a saved search that was deleted since'
      : `e-mail alerts of your saved search “${name}”`;
  }
  return scope.startsWith('digest.')
    ? 'the daily digest of your saved searches'
    : 'e-mails about tasks offered where you are on duty';
}

/** Stops the e-mails of a scope whose mac was checked. */
export function unsubscribe(db: Db, scope: string): void {
  const [kind, id] = scope.split('.');
  if (scope.startsWith('ss_')) statements(db).searchOff.run(scope);
  else if (kind === 'digest') statements(db).digestOff.run(Number(id));
  else statements(db).tasksOff.run(Number(id));
}

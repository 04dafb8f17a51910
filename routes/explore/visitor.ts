/**
 * The explorer's signed-in visitor: the console's session cookie (path /), read the way the console
 * reads it. The explorer has no sign-in of its own.
 */
import { sessionStore } from '../../db/sessions.ts';
import { readCookies } from '../../lib/http/cookies.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { SESSION_COOKIE } from '../console/state.ts';
import type { AppContext } from '../context.ts';

export interface Visitor {
  account: { id: number; email: string };
  sessionToken: string;
}

export function signedInVisitor(ctx: AppContext) {
  const sessions = sessionStore(ctx.db);
  return (req: ApiRequest): Visitor | null => {
    const token = readCookies(typeof req.headers.cookie === 'string' ? req.headers.cookie : undefined).get(
      SESSION_COOKIE,
    );
    const session = token ? sessions.find(token, req.now) : undefined;
    if (!token || !session) return null;
    return { account: { id: session.account_id, email: session.email }, sessionToken: token };
  };
}

/**
 * Who is at the console: the visitor cookie (for CSRF tokens), the session and its account, read once
 * per request by the console's first stage.
 */
import { randomBytes } from 'node:crypto';
import { csrfToken } from '../../lib/csrf.ts';
import { clearCookie, readCookies, setCookie } from '../../lib/http/cookies.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import type { SessionAccount } from '../../db/sessions.ts';

export const SESSION_COOKIE = 'trio_session';
export const VISITOR_COOKIE = 'trio_csrf';

export interface ConsoleState {
  visitor: string;
  sessionToken: string | null;
  account: { id: number; email: string } | null;
  /** The CSRF token this page's forms carry. */
  csrf: string;
  /** Set-Cookie values for the reply. */
  setCookies: string[];
  secure: boolean;
}

const states = new WeakMap<ApiRequest, ConsoleState>();

export function loadState(
  req: ApiRequest,
  secret: Buffer,
  findSession: (token: string, now: number) => SessionAccount | undefined,
): ConsoleState {
  const cookies = readCookies(typeof req.headers.cookie === 'string' ? req.headers.cookie : undefined);
  const setCookies: string[] = [];
  let visitor = cookies.get(VISITOR_COOKIE);
  if (!visitor || !/^[A-Za-z0-9_-]{22,64}$/.test(visitor)) {
    visitor = randomBytes(18).toString('base64url');
    setCookies.push(setCookie(VISITOR_COOKIE, visitor, { secure: req.secure, path: '/console' }));
  }
  const token = cookies.get(SESSION_COOKIE) ?? null;
  const session = token ? findSession(token, req.now) : undefined;
  if (token && !session) setCookies.push(clearCookie(SESSION_COOKIE, req.secure)); // expired or ended
  const state: ConsoleState = {
    visitor,
    sessionToken: session ? token : null,
    account: session ? { id: session.account_id, email: session.email } : null,
    csrf: csrfToken(secret, visitor, session ? token : null),
    setCookies,
    secure: req.secure,
  };
  states.set(req, state);
  return state;
}

export function stateOf(req: ApiRequest): ConsoleState {
  const state = states.get(req);
  if (!state) throw new Error('console state read before the console stage ran');
  return state;
}

/** After sign-in or sign-up: a new session, and a CSRF token bound to it. */
export function startSession(
  state: ConsoleState,
  secret: Buffer,
  token: string,
  account: { id: number; email: string },
  maxAgeSeconds: number,
): void {
  state.sessionToken = token;
  state.account = account;
  state.csrf = csrfToken(secret, state.visitor, token);
  state.setCookies.push(setCookie(SESSION_COOKIE, token, { secure: state.secure, maxAgeSeconds }));
}

export function endSession(state: ConsoleState): void {
  state.sessionToken = null;
  state.account = null;
  state.setCookies.push(clearCookie(SESSION_COOKIE, state.secure));
}

/**
 * /console/sign-up, /console/sign-in, /console/sign-out. Failed sign-ins are limited per e-mail and
 * per address over 15 minutes (a locked account refuses even the right password until the window
 * passes); sign-ups per address over an hour. A wrong e-mail and a wrong password get the same answer
 * in about the same time (an unknown e-mail still pays for one scrypt).
 *
 * With mail configured (issue 35), sign-up sends a link to the address and the account signs in only
 * once it is followed (./verify.ts): an invented address gets no account that works, so no key. The
 * address must then be one plain address (lib/mail/address.ts), the only kind that reaches a header.
 */
import * as v from 'valibot';
import { AccountError, createAccount, findAccount } from '../../db/accounts.ts';
import { markUnverified, sendVerification } from '../../db/email-verification.ts';
import { mailAddress } from '../../lib/mail/address.ts';
import { checkInbox } from './verify.ts';
import { attemptStore, SESSION_DAYS, sessionStore } from '../../db/sessions.ts';
import { html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { DUMMY_HASH, hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords.ts';
import type { AppContext } from '../context.ts';
import { email, fields, password, readForm } from './form.ts';
import { notice, page, redirect } from './layout.ts';
import { endSession, startSession, stateOf, type ConsoleState } from './state.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { statementsFor } from '../../db/statements.ts';

export const FAILURES_PER_ACCOUNT = 5;
export const FAILURES_PER_ADDRESS = 20;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const SIGNUPS_PER_ADDRESS = 10;
export const SIGNUP_WINDOW_MS = 60 * 60_000;

const credentials = v.object({ email, password });

function authForm(
  state: ConsoleState,
  kind: 'sign-in' | 'sign-up',
  values: { email?: string },
  message?: string,
  mail = false,
) {
  const signUp = kind === 'sign-up';
  return html`
${message ? notice('error', message) : ''}
<form method="post" action="/console/${kind}" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${values.email ?? ''}">
  <label for="password">Password${signUp ? ' (at least 10 characters)' : ''}</label>
  <input id="password" name="password" type="password" autocomplete="${signUp ? 'new-password' : 'current-password'}" required maxlength="200" ${signUp ? html`minlength="10"` : ''}>
  <button type="submit">${signUp ? 'Create account' : 'Sign in'}</button>
</form>
<p>${signUp ? html`Have an account? <a href="/console/sign-in">Sign in</a>.` : html`New here? <a href="/console/sign-up">Create an account</a>.`}</p>
${
  signUp
    ? mail
      ? html`<p class="hint">We e-mail a link to the address: the account works once you open it.</p>`
      : ''
    : mail
      ? html`<p class="hint"><a href="/console/forgot">Forgot your password?</a> We e-mail you a link to choose a new one (also if the operator made your account).</p>`
      : html`<p class="hint">Forgot your password, or the operator made your account? Ask the operator of this site for a one-time link (<code>account password-link</code>): there is no mail server to send one.</p>`
}`;
}

const statements = statementsFor((db) => ({
  passwordOf: db.prepare('SELECT id, email, password_hash, email_status FROM accounts WHERE email = ?'),
}));

export function authRoutes(ctx: AppContext, secret: Buffer) {
  const sessions = sessionStore(ctx.db);
  const attempts = attemptStore(ctx.db);
  const passwordOf = statements(ctx.db).passwordOf;
  const title = { 'sign-in': 'Sign in', 'sign-up': 'Create an account' } as const;
  const mail = ctx.config.mail.transport !== null;
  const signUpCredentials = mail ? v.object({ email: v.pipe(email, mailAddress), password }) : credentials;

  /** Renders the form again with the problem, keeping what was typed (never the password). */
  const refuse = (
    state: ConsoleState,
    kind: 'sign-in' | 'sign-up',
    status: number,
    message: string,
    typed: string | null,
    headers: Record<string, string> = {},
  ): Reply => {
    const reply = page(state, status, title[kind], authForm(state, kind, { email: typed ?? '' }, message, mail));
    return { ...reply, headers: { ...reply.headers, ...headers } };
  };

  /** The e-mail and password of a sign-in or sign-up form, or the form again with what is wrong. */
  const readCredentials = async (req: ApiRequest, state: ConsoleState, kind: 'sign-in' | 'sign-up') => {
    const form = await readForm(req, state, secret);
    const typed = form.get('email')?.slice(0, 254) ?? null;
    try {
      return { input: fields(form, kind === 'sign-up' ? signUpCredentials : credentials), typed };
    } catch (err) {
      if (err instanceof HttpError) return refuse(state, kind, 400, err.message, typed);
      throw err;
    }
  };

  const begin = (state: ConsoleState, account: { id: number; email: string }, now: number) => {
    if (state.sessionToken) sessions.end(state.sessionToken, now);
    const { token } = sessions.create(account.id, now);
    startSession(state, secret, token, account, SESSION_DAYS * 86_400);
  };

  return {
    showSignIn: (req: ApiRequest) =>
      page(stateOf(req), 200, title['sign-in'], authForm(stateOf(req), 'sign-in', {}, undefined, mail)),
    showSignUp: (req: ApiRequest) =>
      page(stateOf(req), 200, title['sign-up'], authForm(stateOf(req), 'sign-up', {}, undefined, mail)),

    async signIn(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      const read = await readCredentials(req, state, 'sign-in');
      if ('status' in read) return read;
      const { input, typed } = read;
      const emailBucket = `fail-email:${input.email.toLowerCase()}`;
      const ipBucket = `fail-ip:${req.ipBucket}`;
      for (const [bucket, limit] of [
        [emailBucket, FAILURES_PER_ACCOUNT],
        [ipBucket, FAILURES_PER_ADDRESS],
      ] as const) {
        const recent = attempts.recent(bucket, req.now, FAILURE_WINDOW_MS);
        if (recent.count >= limit) {
          const minutes = Math.ceil(recent.retryAfterSeconds / 60);
          return refuse(
            state,
            'sign-in',
            429,
            `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
            typed,
            { 'retry-after': String(recent.retryAfterSeconds) },
          );
        }
      }
      const row = passwordOf.get(input.email) as
        { id: number; email: string; password_hash: string | null; email_status: string | null } | undefined;
      const ok = await verifyPassword(input.password, row?.password_hash ?? DUMMY_HASH);
      if (!ok || !row?.password_hash) {
        attempts.add(emailBucket, req.now);
        attempts.add(ipBucket, req.now);
        return refuse(state, 'sign-in', 401, 'That e-mail and password do not match an account.', typed);
      }
      attempts.clear(emailBucket);
      // Signed up with mail configured: in once the address is confirmed (without mail, as before).
      if (mail && row.email_status === 'unverified')
        return page(
          state,
          403,
          'Confirm your address first',
          html`${notice('error', 'This account’s address is not confirmed yet: open the link we e-mailed to it.')}${checkInbox(state, row.email)}`,
        );
      begin(state, { id: row.id, email: row.email }, req.now);
      return redirect(state, '/console/keys');
    },

    async signUp(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      const read = await readCredentials(req, state, 'sign-up');
      if ('status' in read) return read;
      const { input, typed } = read;
      const problem = passwordProblem(input.password);
      if (problem) return refuse(state, 'sign-up', 400, problem, input.email);
      const ipBucket = `signup-ip:${req.ipBucket}`;
      const recent = attempts.recent(ipBucket, req.now, SIGNUP_WINDOW_MS);
      if (recent.count >= SIGNUPS_PER_ADDRESS) {
        return refuse(
          state,
          'sign-up',
          429,
          'Too many accounts were created from your address. Try again later.',
          typed,
          { 'retry-after': String(recent.retryAfterSeconds) },
        );
      }
      if (findAccount(ctx.db, input.email)) {
        return refuse(
          state,
          'sign-up',
          409,
          mail
            ? 'An account with this e-mail exists already: sign in. If the operator made it for you, or you forgot the password, use “Forgot your password?” on the sign-in page: we e-mail you a link.'
            : 'An account with this e-mail exists already: sign in. If the operator made it for you, or you forgot the password, ask them for a one-time link to set one (account password-link).',
          input.email,
        );
      }
      const hashed = await hashPassword(input.password);
      let account;
      try {
        account = ctx.db
          .transaction(() => {
            const made = createAccount(ctx.db, input.email, req.now, hashed);
            if (mail) {
              markUnverified(ctx.db, made.id);
              sendVerification(ctx.db, made.id, req.now); // queued with the account: sent when SMTP takes it
            }
            return made;
          })
          .immediate();
      } catch (err) {
        // Another sign-up with this e-mail won the race while we were hashing.
        if (err instanceof AccountError)
          return refuse(
            state,
            'sign-up',
            409,
            'An account with this e-mail exists already. Sign in instead.',
            input.email,
          );
        throw err;
      }
      attempts.add(ipBucket, req.now);
      if (mail) return page(state, 200, 'Check your inbox', checkInbox(state, account.email));
      begin(state, account, req.now);
      return redirect(state, '/console/keys');
    },

    async signOut(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      await readForm(req, state, secret);
      if (state.sessionToken) sessions.end(state.sessionToken, req.now);
      endSession(state);
      return redirect(state, '/console/sign-in');
    },
  };
}

/**
 * /console/password/{token}: where a one-time link from the operator (`account create`,
 * `account password-link`; db/password-links.ts) leads. The person chooses a password (twice) and is
 * signed in; the link then stops working, and a reset also ends the account's other sessions.
 */
import * as v from 'valibot';
import { linkProblem, openLink, useLink } from '../../db/password-links.ts';
import { sessionStore, SESSION_DAYS } from '../../db/sessions.ts';
import { html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { hashPassword, passwordProblem } from '../../lib/passwords.ts';
import type { AppContext } from '../context.ts';
import { fields, password, readForm } from './form.ts';
import { notice, page, redirect } from './layout.ts';
import { startSession, stateOf, type ConsoleState } from './state.ts';
import { HttpError } from '../../lib/http/errors.ts';

const twice = v.object({ password, confirm: password });

function form(state: ConsoleState, token: string, email: string, purpose: 'set' | 'reset', problem?: string) {
  return html`${problem ? notice('error', problem) : ''}
<p>${purpose === 'set' ? 'Choose a password' : 'Choose a new password'} for <strong>${email}</strong>. This link works once.</p>
<form method="post" action="/console/password/${token}" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <input type="hidden" name="username" autocomplete="username" value="${email}">
  <label for="password">New password (at least 10 characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="200">
  <label for="confirm">The same again</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="10" maxlength="200">
  <button type="submit">${purpose === 'set' ? 'Set password and sign in' : 'Reset password and sign in'}</button>
</form>`;
}

export const LINK_PROBLEMS = {
  altered:
    'This link is not one this site made: it may have been cut or changed on the way. Copy the whole link from the message.',
  used: 'This link was used already, or a newer one replaced it: it works once.',
  expired: 'This link has expired.',
} as const;

export function passwordRoutes(ctx: AppContext, secret: Buffer) {
  const sessions = sessionStore(ctx.db);
  const tokenOf = (req: ApiRequest) => String(req.params.token ?? '');
  const mail = ctx.config.mail.transport !== null;
  const gone = (req: ApiRequest) =>
    page(
      stateOf(req),
      404,
      'This link does not work',
      html`${notice('error', LINK_PROBLEMS[linkProblem(ctx.db, tokenOf(req), req.now)])}
<p>${mail ? html`Ask for a new one: <a href="/console/forgot">Forgot your password?</a>` : html`Ask the operator of this site for a new one (they issue it with <code>account password-link</code>).`}</p>`,
    );

  return {
    show(req: ApiRequest): Reply {
      const state = stateOf(req);
      const link = openLink(ctx.db, tokenOf(req), req.now);
      if (!link) return gone(req);
      return page(
        state,
        200,
        link.purpose === 'set' ? 'Set your password' : 'Reset your password',
        form(state, tokenOf(req), link.email, link.purpose),
      );
    },

    async submit(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      const submitted = await readForm(req, state, secret);
      const token = tokenOf(req);
      const link = openLink(ctx.db, token, req.now);
      if (!link) return gone(req);
      const title = link.purpose === 'set' ? 'Set your password' : 'Reset your password';
      let input: v.InferOutput<typeof twice>;
      try {
        input = fields(submitted, twice);
      } catch (err) {
        if (err instanceof HttpError)
          return page(state, 400, title, form(state, token, link.email, link.purpose, err.message));
        throw err;
      }
      const problem =
        passwordProblem(input.password) ??
        (input.password === input.confirm ? null : 'The two passwords differ. Type the same password twice.');
      if (problem) return page(state, 400, title, form(state, token, link.email, link.purpose, problem));
      const used = useLink(ctx.db, token, await hashPassword(input.password), req.now);
      if (!used) return gone(req); // used by another request while this one was hashing
      const { token: session } = sessions.create(used.account_id, req.now);
      startSession(state, secret, session, { id: used.account_id, email: used.email }, SESSION_DAYS * 86_400);
      return redirect(state, '/console/keys');
    },
  };
}

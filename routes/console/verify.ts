/**
 * Verifying an address (issue 35; db/email-verification.ts). GET /console/verify/{token} is the link
 * a verification message carries: it marks the address verified and says so (it signs nobody in; the
 * person signs in next); a link altered, used already or expired answers a page that says which.
 * POST /console/verify sends a link: to the signed-in account's address (an account made before mail
 * was configured, to receive e-mail), or, signed out, to the address typed (a sign-up whose message
 * went astray), answering the same whether or not it has an account waiting, within the limits of
 * ./mail-limits.ts.
 */
import * as v from 'valibot';
import { findAccount } from '../../db/accounts.ts';
import { emailStatus, sendVerification, useVerification } from '../../db/email-verification.ts';
import { MailAddressError } from '../../db/mail/outbox.ts';
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { mailAddress } from '../../lib/mail/address.ts';
import { email, fields, readForm } from './form.ts';
import { notice, page } from './layout.ts';
import { mailAllowance, tooManyLinks } from './mail-limits.ts';
import { LINK_PROBLEMS } from './password.ts';
import { stateOf, type ConsoleState } from './state.ts';

/** The form that asks for a link again, signed out. */
export function resendForm(state: ConsoleState, typed = ''): Html {
  return html`<form method="post" action="/console/verify" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="verify-email">Send the link again to</label>
  <input id="verify-email" name="email" type="email" autocomplete="email" required maxlength="254" value="${typed}">
  <button type="submit">Send the link again</button>
</form>`;
}

/** What a page shows after sign-up, or when an unverified account tries to sign in. */
export function checkInbox(state: ConsoleState, address: string): Html {
  return html`<p data-verify="sent">We sent a link to <strong>${address}</strong>. Open it to confirm the address; then sign in. It works once, for 24 hours.</p>
<p>Nothing in a few minutes? Look in the spam folder, or ask for it again.</p>
${resendForm(state, address)}`;
}

export function verifyRoutes(ctx: AppContext, secret: Buffer) {
  const mailOn = () => ctx.config.mail.transport !== null;
  return {
    follow(req: ApiRequest): Reply {
      const state = stateOf(req);
      const used = useVerification(ctx.db, String(req.params.token ?? ''), req.now);
      if ('problem' in used)
        return page(
          state,
          used.problem === 'expired' ? 410 : 404,
          'This link does not work',
          html`${notice('error', LINK_PROBLEMS[used.problem])}${used.problem === 'used' ? html`<p>If you confirmed your address already, <a href="/console/sign-in">sign in</a>.</p>` : ''}${state.account ? '' : resendForm(state)}`,
        );
      return page(
        state,
        200,
        'Address confirmed',
        html`${notice('info', html`<span data-verified="yes"><strong>${used.email}</strong> is confirmed.</span>`)}<p>${state.account ? html`<a href="/console/keys">Back to the console</a>` : html`<a href="/console/sign-in">Sign in</a>`}</p>`,
      );
    },

    async send(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      const form = await readForm(req, state, secret);
      if (!mailOn()) throw new HttpError(404, 'not_found', 'This site sends no e-mail.');
      let address: string;
      try {
        address = state.account
          ? state.account.email
          : fields(form, v.object({ email: v.pipe(email, mailAddress) })).email;
      } catch (err) {
        if (err instanceof HttpError)
          return page(
            state,
            400,
            'Send the link again',
            html`${notice('error', err.message)}${resendForm(state, form.get('email')?.slice(0, 254) ?? '')}`,
          );
        throw err;
      }
      const wait = await mailAllowance(ctx, req, address);
      if (wait !== null) {
        return tooManyLinks(state, 'Send the link again', wait, state.account ? '' : resendForm(state, address));
      }
      const account = state.account ?? findAccount(ctx.db, address);
      // Signed out, only a sign-up waiting for its link gets one; signed in, any address not yet verified.
      const wanted =
        account &&
        (state.account
          ? emailStatus(ctx.db, account.id) !== 'verified'
          : emailStatus(ctx.db, account.id) === 'unverified');
      if (account && wanted) {
        try {
          sendVerification(ctx.db, account.id, req.now);
        } catch (err) {
          if (!(err instanceof MailAddressError)) throw err;
          if (state.account)
            return page(
              state,
              400,
              'Send the link again',
              notice(
                'error',
                'This account’s address cannot receive our e-mail: it is not one plain address. Ask the operator to change it.',
              ),
            );
        }
      }
      return page(state, 200, 'Check your inbox', checkInbox(state, address));
    },
  };
}

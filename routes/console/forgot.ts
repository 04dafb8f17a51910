/**
 * /console/forgot: "Forgot your password?" (issue 35), with mail configured. The person gives an
 * address; if an account has it, a reset link is e-mailed (the operator's password-link mechanism,
 * db/password-links.ts, for an hour; using it ends every session of the account). The page answers
 * the same, in the same way, whether or not the address has an account, and the form is limited per
 * address and per client address before anything is looked up (./mail-limits.ts).
 */
import * as v from 'valibot';
import { findAccount } from '../../db/accounts.ts';
import { queueMail, MailAddressError } from '../../db/mail/outbox.ts';
import { issueLink } from '../../db/password-links.ts';
import { html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { mailAddress } from '../../lib/mail/address.ts';
import { email, fields, readForm } from './form.ts';
import { notice, page } from './layout.ts';
import { mailAllowance, tooManyLinks } from './mail-limits.ts';
import { stateOf, type ConsoleState } from './state.ts';

const TITLE = 'Forgot your password?';

function form(state: ConsoleState, typed = '') {
  return html`<p>Give the address of your account: we e-mail it a link to choose a new password. The link works once, for an hour, and signs you out everywhere else.</p>
<form method="post" action="/console/forgot" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${typed}">
  <button type="submit">Send me a link</button>
</form>
<p><a href="/console/sign-in">Back to sign in</a></p>`;
}

export function forgotRoutes(ctx: AppContext, secret: Buffer) {
  const noMail = (req: ApiRequest) =>
    page(
      stateOf(req),
      404,
      TITLE,
      html`<p>This site sends no e-mail. Ask its operator for a one-time link (<code>account password-link</code>).</p>`,
    );
  return {
    show(req: ApiRequest): Reply {
      if (ctx.config.mail.transport === null) return noMail(req);
      return page(stateOf(req), 200, TITLE, form(stateOf(req)));
    },

    async submit(req: ApiRequest): Promise<Reply> {
      if (ctx.config.mail.transport === null) return noMail(req);
      const state = stateOf(req);
      const submitted = await readForm(req, state, secret);
      const typed = (submitted.get('email') ?? '').slice(0, 254);
      let address: string;
      try {
        address = fields(submitted, v.object({ email: v.pipe(email, mailAddress) })).email;
      } catch (err) {
        if (err instanceof HttpError)
          return page(state, 400, TITLE, html`${notice('error', err.message)}${form(state, typed)}`);
        throw err;
      }
      const wait = await mailAllowance(ctx, req, address);
      if (wait !== null) {
        return tooManyLinks(state, TITLE, wait, form(state, address));
      }
      const account = findAccount(ctx.db, address);
      if (account) {
        try {
          ctx.db
            .transaction(() => {
              const link = issueLink(ctx.db, account.id, req.now, true);
              queueMail(ctx.db, {
                accountId: account.id,
                to: account.email,
                kind: 'reset',
                data: { token: link.token, expires_at: link.expiresAt },
                now: req.now,
              });
            })
            .immediate();
        } catch (err) {
          // An address made before mail could be checked (a quoted or accented one): no message, same page.
          if (!(err instanceof MailAddressError)) throw err;
          ctx.log.warn(
            { account: account.id },
            'no reset link mailed: the account address cannot be written to a header',
          );
        }
      }
      return page(
        state,
        200,
        'Check your inbox',
        html`<p data-forgot="sent">If an account uses <strong>${address}</strong>, a link to choose a new password is on its way there. It works once, for an hour.</p>
<p>Nothing in a few minutes? Look in the spam folder, check the address, or <a href="/console/forgot">ask again</a>.</p>`,
      );
    },
  };
}

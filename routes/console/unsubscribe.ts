/**
 * /console/unsubscribe/{scope}/{mac}: the one-click unsubscribe of the alert, digest and task e-mails
 * (RFC 8058; db/mail/unsubscribe.ts), without signing in. A mail provider POSTs
 * `List-Unsubscribe=One-Click` and gets 200; a person opening the link gets a page with one button
 * that posts the same (a GET changes nothing: link scanners open links). The mac is the credential,
 * so the POST carries no CSRF token; an altered link answers 404 and changes nothing.
 */
import { unsubscribe, unsubscribeScope } from '../../db/mail/unsubscribe.ts';
import { html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { notice, page } from './layout.ts';
import { stateOf } from './state.ts';

export function unsubscribeRoutes(ctx: AppContext) {
  const read = (req: ApiRequest) => {
    const scope = String(req.params.scope ?? '').slice(0, 40);
    const mac = String(req.params.mac ?? '').slice(0, 64);
    return { scope, mac, what: unsubscribeScope(ctx.db, scope, mac) };
  };
  const altered = (req: ApiRequest) =>
    page(
      stateOf(req),
      404,
      'This link does not work',
      notice(
        'error',
        'This unsubscribe link is not one this site made: it may have been cut or changed on the way. Copy the whole link from the message, or change your e-mails in the console.',
      ),
    );
  return {
    show(req: ApiRequest): Reply {
      const { scope, mac, what } = read(req);
      if (what === null) return altered(req);
      return page(
        stateOf(req),
        200,
        'Stop these e-mails',
        html`<p>Stop receiving ${what}?</p>
<form method="post" action="/console/unsubscribe/${scope}/${mac}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Stop these e-mails</button></form>`,
      );
    },

    async apply(req: ApiRequest): Promise<Reply> {
      await req.body(); // `List-Unsubscribe=One-Click` (RFC 8058); anything else is treated the same
      const { scope, what } = read(req);
      if (what === null) return altered(req);
      unsubscribe(ctx.db, scope);
      return page(
        stateOf(req),
        200,
        'Unsubscribed',
        html`${notice('info', html`<span data-unsubscribed="yes">You will not receive ${what} any more.</span>`)}<p>You can turn them on again in the <a href="/console">console</a>.</p>`,
      );
    },
  };
}

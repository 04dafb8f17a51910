/**
 * Paying through Stripe from the console (issue 36): a top-up of the prepaid balance (POST
 * /console/balance/top-up, an amount within the operator's bounds), the funding pro plan (GET
 * /console/plan, POST /console/plan/checkout) and the Billing customer portal (POST /console/plan/portal).
 * Each form sends the browser to Stripe (303); nothing is credited or granted on the way back: the
 * balance and the plan follow Stripe's signed events (routes/billing/stripe-webhook.ts). Without
 * Stripe configured the page says payments are not set up, and the forms answer 404.
 */
import * as v from 'valibot';
import Stripe from 'stripe';
import { currentPlanOf, stripeSubscriptionOf, topUpOf } from '../../db/billing/store.ts';
import type { BillingService } from '../../db/billing/stripe-service.ts';
import { centsText, parseAmount } from '../../lib/billing/config.ts';
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { fields, readForm } from './form.ts';
import { notice, page, redirect, SECURITY_HEADERS } from './layout.ts';
import { stateOf } from './state.ts';

// A host name or address with an optional port, as a Host header carries it.
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Where Stripe sends the browser back: the address the person reached this console at. */
function originOf(req: ApiRequest): string {
  const host = String(req.headers.host ?? '').toLowerCase();
  return `${req.secure ? 'https' : 'http'}://${HOST.test(host) ? host : 'localhost'}`;
}

/**
 * The console's CSP allows forms to post to this site only, and browsers apply form-action to the
 * redirect a form's answer makes: pages whose forms go on to Stripe (Checkout, the portal) also allow
 * Stripe's hosted pages, and STRIPE_API_BASE's address (stripe-mock, a test stand-in).
 */
export function withStripeForms(reply: Reply, billing: BillingService | undefined): Reply {
  if (!billing) return reply;
  const api = billing.config.api;
  const extra = ['https://checkout.stripe.com', 'https://billing.stripe.com'];
  if (api) extra.push(`${api.protocol}://${api.host.includes(':') ? `[${api.host}]` : api.host}:${api.port}`);
  const csp = SECURITY_HEADERS['content-security-policy']!.replace(
    "form-action 'self'",
    `form-action 'self' ${extra.join(' ')}`,
  );
  return { ...reply, headers: { ...reply.headers, 'content-security-policy': csp } };
}

const notSetUp = () =>
  new HttpError(404, 'not_found', 'Payments are not set up on this site: its operator grants balances and plans.');

/** A Stripe call that failed: nothing was charged, and the person can try again. */
async function askStripe<T>(ctx: AppContext, req: ApiRequest, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    ctx.log.warn({ reqId: req.id, err: err.message }, 'Stripe refused or did not answer a console request');
    throw new HttpError(
      502,
      'service_unavailable',
      'Stripe did not answer as expected, so you were not sent to pay and nothing was charged. Try again in a moment.',
    );
  }
}

/** The top-up form of the balance page (or why there is none). */
export function topUpSection(ctx: AppContext, accountId: number, csrf: string, query: ApiRequest['query']): Html {
  const billing = ctx.billing;
  if (!billing)
    return html`<section aria-labelledby="h-top-up"><h2 id="h-top-up">Top up</h2>
<p data-payments="off">Payments are not set up on this site: top-ups are made by its operator.</p></section>`;
  const { topUpMinCents: min, topUpMaxCents: max } = billing.config;
  // Back from Checkout: credited already if Stripe's event came first (it usually does), else soon.
  const sessionId = typeof query.session_id === 'string' ? query.session_id : null;
  const credited = sessionId ? topUpOf(ctx.db, sessionId) : undefined;
  const back =
    query.checkout === 'done'
      ? credited && credited.account_id === accountId
        ? notice('info', `Thank you: your top-up of €${centsText(credited.amount_cents)} is credited.`)
        : notice(
            'info',
            'Thank you: your payment is with Stripe. Your balance is credited as soon as Stripe confirms it (usually within seconds); reload this page to see it.',
          )
      : query.checkout === 'cancelled'
        ? notice('info', 'The payment was cancelled: nothing was charged.')
        : '';
  return html`<section aria-labelledby="h-top-up"><h2 id="h-top-up">Top up</h2>${back}
<form method="post" action="/console/balance/top-up" class="top-up">
<input type="hidden" name="csrf" value="${csrf}">
<label for="amount">Amount in euros (${centsText(min)} to ${centsText(max)})</label>
<input id="amount" name="amount" inputmode="decimal" required pattern="[0-9]{1,7}([.,][0-9]{1,2})?" placeholder="${centsText(min)}">
<button type="submit">Pay with Stripe</button>
</form>
<p>You pay on Stripe's page; the amount is credited when Stripe confirms the payment, once. A refund takes it back out of what is still available. The funding pro plan: <a href="/console/plan">your plan</a>.</p></section>`;
}

const topUpSchema = v.object({
  amount: v.pipe(v.string('Enter an amount.'), v.trim(), v.nonEmpty('Enter an amount.')),
});

export function billingRoutes(ctx: AppContext, secret: Buffer) {
  return {
    async topUp(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      const form = await readForm(req, state, secret);
      const billing = ctx.billing;
      if (!billing) throw notSetUp();
      const { amount } = fields(form, topUpSchema);
      const cents = parseAmount(amount);
      const { topUpMinCents: min, topUpMaxCents: max } = billing.config;
      if (cents === null)
        throw new HttpError(400, 'bad_request', `“${amount}” is not an amount in euros: write it like 25 or 25.50.`);
      if (cents < min || cents > max)
        throw new HttpError(
          400,
          'bad_request',
          `A top-up is from €${centsText(min)} to €${centsText(max)} (you asked for €${centsText(cents)}).`,
        );
      const account = state.account;
      const url = await askStripe(ctx, req, () => billing.topUpCheckout(account, cents, originOf(req), req.now));
      return redirect(state, url);
    },

    showPlan(req: ApiRequest): Reply {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      const tier = ctx.activePlan(state.account.id, req.now) === 'pro' ? 'pro' : 'basic';
      const limits = ctx.config.rateLimits.funding[tier];
      const billing = ctx.billing;
      const sub = billing ? stripeSubscriptionOf(ctx.db, state.account.id) : undefined;
      const source = currentPlanOf(ctx.db, state.account.id, req.now)?.source;
      const back =
        req.query.checkout === 'done' && source === 'stripe'
          ? notice('info', 'Thank you: your pro plan is active.')
          : req.query.checkout === 'done'
            ? notice(
                'info',
                'Thank you: your subscription is with Stripe. Your plan changes as soon as Stripe confirms it (usually within seconds); reload this page to see it.',
              )
            : req.query.checkout === 'cancelled'
              ? notice('info', 'Checkout was cancelled: nothing was charged.')
              : '';
      const granted =
        tier === 'pro'
          ? html`<p>Granted by <strong data-source="${source ?? 'operator'}">${source === 'stripe' ? 'your Stripe subscription' : 'the operator of this site'}</strong>.</p>`
          : '';
      const subLine = sub
        ? html`<p>Your Stripe subscription: <strong data-status="${sub.status}">${sub.status.replace(/_/g, ' ')}</strong>${sub.current_period_end ? html`, period ends ${new Date(sub.current_period_end).toISOString().slice(0, 10)}` : ''}${sub.cancel_at_period_end ? ' (cancels then)' : ''}.${sub.status === 'past_due' ? ' A payment failed: update your card in the billing portal to keep pro.' : ''}</p>`
        : '';
      let actions: Html;
      if (!billing)
        actions = html`<p data-payments="off">Payments are not set up on this site: the plan is granted by its operator.</p>`;
      else
        actions = html`${
          billing.config.proPriceId && tier !== 'pro'
            ? html`<form method="post" action="/console/plan/checkout"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit">Subscribe to pro with Stripe</button></form>`
            : ''
        }${
          sub
            ? html`<form method="post" action="/console/plan/portal"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit">Manage billing (card, invoices, cancel)</button></form>`
            : ''
        }`;
      const reply = page(
        state,
        200,
        'Your funding plan',
        html`${back}<p class="tier">Your funding tier now: <strong data-tier="${tier}">${tier}</strong> (${limits.perMinute} a minute, ${limits.perDay} a day${tier === 'pro' ? ', export included' : ''}).</p>
${granted}${subLine}${actions}`,
      );
      return withStripeForms(reply, billing);
    },

    async proCheckout(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      await readForm(req, state, secret);
      const billing = ctx.billing;
      if (!billing?.config.proPriceId) throw notSetUp();
      if (ctx.activePlan(state.account.id, req.now) === 'pro')
        throw new HttpError(409, 'invalid_state', 'You have the pro plan already.');
      const account = state.account;
      return redirect(state, await askStripe(ctx, req, () => billing.proCheckout(account, originOf(req), req.now)));
    },

    async portal(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      await readForm(req, state, secret);
      const billing = ctx.billing;
      if (!billing) throw notSetUp();
      const accountId = state.account.id;
      const url = await askStripe(ctx, req, () => billing.portal(accountId, originOf(req)));
      if (!url)
        throw new HttpError(
          404,
          'not_found',
          'You have not paid through Stripe yet: there is no billing account to manage.',
        );
      return redirect(state, url);
    },
  };
}

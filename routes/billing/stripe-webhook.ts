/**
 * POST /billing/stripe/webhook: Stripe's signed events (docs/operations.md "Taking payments with
 * Stripe"). The body is read raw (the signature covers its exact bytes) and verified with the library
 * (`constructEvent`, with STRIPE_WEBHOOK_SECRET and its tolerance, against the request's arrival time):
 * a bad or stale signature is 400 and nothing changes. A verified event is applied once
 * (db/billing/stripe-service.ts) and answered 200 with what it did; one already applied, 200 too (Stripe
 * stops retrying). When Stripe could not be asked what the event needs, or the database refuses, the
 * answer is 503 and nothing is recorded: Stripe retries.
 */
import Stripe from 'stripe';
import { jsonReply, type ApiRequest, type Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { billingError } from './errors.ts';

export function stripeWebhook(ctx: AppContext) {
  return async (req: ApiRequest): Promise<Reply> => {
    const billing = ctx.billing;
    if (!billing)
      return billingError(
        404,
        'not_found',
        'Payments through Stripe are not set up on this server (STRIPE_SECRET_KEY).',
      );
    const raw = await req.body();
    let event: Stripe.Event;
    try {
      event = billing.verify(raw, req.headers['stripe-signature'], req.now);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
        ctx.log.warn({ reqId: req.id, reason: err.message }, 'Stripe webhook refused: signature not verified');
        return billingError(
          400,
          'invalid_signature',
          `The Stripe-Signature header does not verify with this endpoint's secret within ${billing.config.toleranceSeconds} s: ${err.message}. Nothing was changed.`,
        );
      }
      if (err instanceof SyntaxError)
        return billingError(400, 'bad_request', 'The body is not a JSON event; nothing was changed.');
      throw err;
    }
    try {
      const result = await billing.handle(event, req.now);
      return jsonReply(200, { received: true, id: event.id, type: event.type, ...result });
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError) {
        ctx.log.warn(
          { reqId: req.id, stripeEvent: event.id, err: err.message },
          'Stripe event not applied yet: Stripe could not be read',
        );
        return billingError(
          503,
          'stripe_unavailable',
          `Stripe could not be asked what event ${event.id} needs (${err.message}); nothing was changed. Stripe retries it.`,
        );
      }
      throw err;
    }
  };
}

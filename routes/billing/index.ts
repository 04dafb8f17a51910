/**
 * /billing: what payment processors call. One endpoint today, POST /billing/stripe/webhook, where
 * Stripe delivers its signed events (routes/billing/stripe-webhook.ts). Its error body is the human
 * service's shape, {"error": {"code", "message"}}: Stripe shows it in the Dashboard's event log.
 */
import { Router } from 'itty-router';
import { HttpError } from '../../lib/http/errors.ts';
import { refusalOf } from '../../lib/http/unavailable.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { billingError } from './errors.ts';
import { stripeWebhook } from './stripe-webhook.ts';

export const BILLING_BASE = '/billing';

export function billingApi(ctx: AppContext) {
  const router = Router<ApiRequest, [], Reply>({
    base: BILLING_BASE,
    before: [
      (req: ApiRequest) => {
        req.service = 'billing';
      },
    ],
    catch: (err: unknown, req: ApiRequest) => {
      if (err instanceof HttpError) return billingError(err.status, err.code, err.message);
      const refusal = refusalOf(err);
      if (refusal) {
        req.refused = refusal;
        return billingError(
          503,
          'service_unavailable',
          'The database cannot take this event now; nothing was changed. Stripe retries it.',
        );
      }
      ctx.log.error({ reqId: req.id, err }, 'unhandled fault at the billing endpoint');
      return billingError(
        500,
        'internal_error',
        `Something went wrong on our side (request ${req.id}); nothing was changed.`,
      );
    },
  });
  router
    .post('/stripe/webhook', stripeWebhook(ctx))
    .all('*', (req: ApiRequest) => billingError(404, 'not_found', `No such path: ${req.path}`));
  return router;
}

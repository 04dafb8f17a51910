/**
 * The sign-in console, /console: server-rendered pages for accounts and keys. Its first stage reads
 * the visitor and session cookies; its errors are pages, not JSON.
 */
import { join } from 'node:path';
import { Router } from 'itty-router';
import { AccountError } from '../../db/accounts.ts';
import { serverSecret, sessionStore } from '../../db/sessions.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { refusalOf } from '../../lib/http/unavailable.ts';
import { humanEdgeError } from '../human/errors.ts';
import { html } from '../../lib/html.ts';
import { staticAsset } from '../../lib/http/static-asset.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { authRoutes } from './auth.ts';
import { balanceRoutes } from './balance.ts';
import { billingRoutes } from './billing.ts';
import { keyRoutes } from './keys.ts';
import { notice, page, redirect } from './layout.ts';
import { loadState, stateOf } from './state.ts';
import { workerRoutes } from './worker.ts';
import { dutyRoute, offerMailRoute } from './duty.ts';
import { passwordRoutes } from './password.ts';
import { webhookRoutes } from './webhooks.ts';
import { savedSearchRoutes } from './saved-searches.ts';
import { forgotRoutes } from './forgot.ts';
import { verifyRoutes } from './verify.ts';
import { unsubscribeRoutes } from './unsubscribe.ts';

const asset = (file: string, type: string) => staticAsset(join(import.meta.dirname, 'assets', file), type);

export function consoleRoutes(ctx: AppContext) {
  const secret = serverSecret(ctx.db, 'csrf');
  const sessions = sessionStore(ctx.db);
  const auth = authRoutes(ctx, secret);
  const keys = keyRoutes(ctx, secret);
  const balance = balanceRoutes(ctx);
  const billing = billingRoutes(ctx, secret);
  const worker = workerRoutes(ctx, secret);
  const password = passwordRoutes(ctx, secret);
  const webhooks = webhookRoutes(ctx, secret);
  const saved = savedSearchRoutes(ctx, secret);
  const forgot = forgotRoutes(ctx, secret);
  const verify = verifyRoutes(ctx, secret);
  const unsubscribe = unsubscribeRoutes(ctx);
  const css = asset('console.css', 'text/css; charset=utf-8');
  const js = asset('console.js', 'text/javascript; charset=utf-8');

  const router = Router<ApiRequest, [], Reply>({
    base: '/console',
    before: [
      (req: ApiRequest) => {
        req.service = 'console';
        loadState(req, secret, sessions.find);
      },
    ],
    catch: (thrown: unknown, req: ApiRequest) => {
      const state = stateOf(req);
      const err = humanEdgeError(thrown); // the worker pages call the human service's rules
      if (err instanceof HttpError)
        return page(
          state,
          err.status,
          err.status === 404 ? 'Not found' : 'That did not work',
          html`${notice('error', err.message)}<p><a href="/console">Back to the console</a></p>`,
        );
      if (err instanceof AccountError)
        return page(
          state,
          400,
          'That did not work',
          html`${notice('error', err.message)}<p><a href="/console/keys">Back to your keys</a></p>`,
        );
      // The database full or read-only (lib/http/unavailable.ts): the outage is logged as its state, not here.
      const refusal = refusalOf(err);
      if (refusal) {
        req.refused = refusal;
        return page(
          state,
          503,
          'Try again shortly',
          notice('error', 'The database cannot take this right now; nothing was changed. Try again in a moment.'),
        );
      }
      ctx.log.error({ reqId: req.id, err }, 'unhandled fault in the console');
      return page(
        state,
        500,
        'Something went wrong',
        notice('error', `Something went wrong on our side. Quote request id ${req.id} if you report it.`),
      );
    },
  });
  router
    .get('/assets/console.css', () => css)
    .get('/assets/console.js', () => js)
    .get('/', (req: ApiRequest) => redirect(stateOf(req), stateOf(req).account ? '/console/keys' : '/console/sign-in'))
    .get('/sign-in', auth.showSignIn)
    .post('/sign-in', auth.signIn)
    .get('/sign-up', auth.showSignUp)
    .post('/sign-up', auth.signUp)
    .post('/sign-out', auth.signOut)
    .get('/forgot', forgot.show)
    .post('/forgot', forgot.submit)
    .get('/verify/:token', verify.follow)
    .post('/verify', verify.send)
    .get('/unsubscribe/:scope/:mac', unsubscribe.show)
    .post('/unsubscribe/:scope/:mac', unsubscribe.apply)
    .get('/password/:token', password.show)
    .post('/password/:token', password.submit)
    .get('/webhooks', webhooks.list)
    .post('/webhooks', webhooks.create)
    .post('/webhooks/:id/:action', webhooks.act)
    .get('/saved-searches', saved.list)
    .post('/saved-searches', saved.create)
    .get('/saved-searches/:id', saved.show)
    .post('/saved-searches/:id/delete', saved.remove)
    .post('/saved-searches/:id/alerts', saved.alerts)
    .post('/mail-language', saved.language)
    .get('/keys', keys.list)
    .post('/keys', keys.create)
    .post('/keys/:id/rotate', keys.rotate)
    .post('/keys/:id/revoke', keys.revoke)
    .get('/balance', balance.show)
    .post('/balance/top-up', billing.topUp)
    .get('/plan', billing.showPlan)
    .post('/plan/checkout', billing.proCheckout)
    .post('/plan/portal', billing.portal)
    .get('/worker', worker.queue)
    .get('/worker/tasks/:ref', worker.show)
    .post('/worker/duty', dutyRoute(ctx, secret))
    .post('/worker/offer-mail', offerMailRoute(ctx, secret))
    .post('/worker/tasks/:ref/accept', worker.accept)
    .post('/worker/tasks/:ref/start', worker.start)
    .post('/worker/tasks/:ref/deliver', worker.deliver)
    .post('/worker/tasks/:ref/cannot-do', worker.cannotDo)
    .all('*', () => {
      throw new HttpError(404, 'not_found', 'There is no such page.');
    });
  return router;
}

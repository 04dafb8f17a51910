/**
 * The explorer, /explore: pages for people over the three public APIs (impact figures as charts,
 * funding search, a tasks sandbox playground). Every page gets its data through `api.ts`, the APIs
 * called in process on the visitor's behalf.
 */
import { join } from 'node:path';
import { Router } from 'itty-router';
import { HttpError } from '../../lib/http/errors.ts';
import { html } from '../../lib/html.ts';
import { staticAsset } from '../../lib/http/static-asset.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { apiClient, type Dispatch } from './api.ts';
import { explorePage } from './layout.ts';
import { fundingPages } from './funding.ts';
import { impactPages } from './impact.ts';
import { tasksPages } from './tasks.ts';

const asset = (file: string, type: string) => staticAsset(join(import.meta.dirname, 'assets', file), type);

const landing = () =>
  explorePage({
    title: 'Explore trio',
    body: html`<ul class="cards">
<li><a href="/explore/impact"><strong>Impact</strong></a>: deaths and injuries attributed to the supply chains of products, with their intervals and caveats.</li>
<li><a href="/explore/funding"><strong>Funding</strong></a>: search open funding calls from four public sources.</li>
<li><a href="/explore/tasks"><strong>Tasks</strong></a>: a sandbox playground for ordering tasks done by verified people.</li>
</ul>`,
  });

export function exploreRoutes(ctx: AppContext, dispatch: Dispatch) {
  const api = apiClient(dispatch);
  const sections = [impactPages(ctx, api), fundingPages(ctx, api), tasksPages(ctx, api)];
  const css = asset('explore.css', 'text/css; charset=utf-8');
  const router = Router<ApiRequest, [], Reply>({
    base: '/explore',
    before: [
      (req: ApiRequest) => {
        req.service = 'explore';
      },
    ],
    catch: (err: unknown, req: ApiRequest) => {
      if (err instanceof HttpError)
        return explorePage({
          status: err.status,
          title: err.status === 404 ? 'Not found' : 'That did not work',
          body: html`<p class="notice error" role="alert">${err.message}</p><p><a href="/explore">Back to the explorer</a></p>`,
        });
      ctx.log.error({ reqId: req.id, err }, 'unhandled fault in the explorer');
      return explorePage({
        status: 500,
        title: 'Something went wrong',
        body: html`<p class="notice error" role="alert">Something went wrong on our side. Quote request id ${req.id} if you report it.</p>`,
      });
    },
  });
  router.get('/assets/explore.css', () => css).get('/', landing);
  for (const register of sections) register(router);
  router.all('*', () => {
    throw new HttpError(404, 'not_found', 'There is no such page.');
  });
  return router;
}

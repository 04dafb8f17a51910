/**
 * The whole URL space, top to bottom: each service under its base, then operations endpoints.
 * Everything else is a 404.
 */
import { Router } from 'itty-router';
import type { ApiRequest, Reply } from '../lib/http/types.ts';
import { jsonReply } from '../lib/http/types.ts';
import type { Metrics } from '../lib/http/metrics.ts';
import type { AppContext } from './context.ts';
import { consoleRoutes } from './console/index.ts';
import { exploreRoutes } from './explore/index.ts';
import { FUNDING_BASE, fundingApi } from './funding/index.ts';
import { HUMAN_BASE, humanApi } from './human/index.ts';
import { IMPACT_BASE, impactApi } from './impact/index.ts';
import { healthz, home, metricsEndpoint, readyz } from './ops.ts';

export function buildRoutes(ctx: AppContext, metrics: Metrics) {
  const funding = fundingApi(ctx);
  const human = humanApi(ctx);
  const impact = impactApi(ctx);
  const console = consoleRoutes(ctx);
  // The explorer calls the APIs in process through this same router (routes/explore/api.ts).
  const explore = exploreRoutes(ctx, (req) => router.fetch(req));
  const router = Router<ApiRequest, [], Reply>();
  router
    .all(`${FUNDING_BASE}/*`, (req: ApiRequest) => funding.fetch(req))
    .all(`${HUMAN_BASE}/*`, (req: ApiRequest) => human.fetch(req))
    .all(`${IMPACT_BASE}/*`, (req: ApiRequest) => impact.fetch(req))
    .all('/console/*', (req: ApiRequest) => console.fetch(req))
    .all('/explore/*', (req: ApiRequest) => explore.fetch(req))
    .get('/healthz', healthz)
    .get('/readyz', readyz(ctx.db, ctx.replica, ctx.dependencies, ctx.clock))
    .get('/metrics', metricsEndpoint(metrics))
    .get('/', home)
    .all('*', (req: ApiRequest) => jsonReply(404, { error: 'not_found', message: `No such path: ${req.path}` }));
  return router;
}

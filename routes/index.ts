/**
 * The whole URL space, top to bottom: each service under its base, then operations endpoints.
 * Everything else is a 404.
 */
import { Router } from 'itty-router';
import type { ApiRequest, Reply } from '../lib/http/types.ts';
import { jsonReply } from '../lib/http/types.ts';
import type { Metrics } from '../lib/http/metrics.ts';
import type { AppContext } from './context.ts';
import { BILLING_BASE, billingApi } from './billing/index.ts';
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
  const services: Array<[string, { fetch(req: ApiRequest): Promise<Reply | undefined> }]> = [
    [FUNDING_BASE, funding],
    [HUMAN_BASE, human],
    [IMPACT_BASE, impact],
    ['/console', console],
    ['/explore', explore],
    [BILLING_BASE, billingApi(ctx)],
  ];
  const router = Router<ApiRequest, [], Reply>();
  for (const [base, service] of services) router.all(`${base}/*`, (req: ApiRequest) => service.fetch(req));
  router
    .get('/healthz', healthz)
    .get('/readyz', readyz(ctx.db, ctx.replica, ctx.dependencies, ctx.clock))
    .get('/metrics', metricsEndpoint(metrics))
    .get('/', home)
    .all('*', (req: ApiRequest) => jsonReply(404, { error: 'not_found', message: `No such path: ${req.path}` }));
  return { fetch: (req: ApiRequest) => serviceOf(services, req)?.fetch(req) ?? router.fetch(req) };
}

// A path the URL parser leaves as it is: no dot segment (nor an encoded one), nothing it would encode.
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const DOT_SEGMENT = /\/\.|%2e/i;

/**
 * The service a request goes to, found by its base without this router parsing the URL a second time
 * (the service's own router parses it: 1.5 µs a request, BENCHMARKS.md "The cost of one request"). Only
 * for a plain path, which the URL parser leaves unchanged; any other is routed by the router above, on
 * the path as the URL parser normalises it. Marked as the router would mark it: the service's pattern
 * until the service's own route is matched.
 */
function serviceOf<S>(services: ReadonlyArray<[string, S]>, req: ApiRequest): S | undefined {
  const path = req.path;
  if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) return undefined;
  for (const [base, service] of services) {
    if (path.startsWith(base) && (path.length === base.length || path.charCodeAt(base.length) === 47) /* / */) {
      req.route = `${base}/*`;
      req.params = {};
      return service;
    }
  }
  return undefined;
}

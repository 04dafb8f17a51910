/**
 * The whole URL space, top to bottom: each service under its base, then operations endpoints.
 * Everything else is a 404.
 */
import { Router } from 'itty-router';
import { DOT_SEGMENT, PLAIN_PATH, routeWalk, type Walk, type WalkedRouter } from '../lib/http/route-walk.ts';
import type { ApiRequest, Reply } from '../lib/http/types.ts';
import { jsonReply } from '../lib/http/types.ts';
import type { Metrics } from '../lib/http/metrics.ts';
import { readTogether } from '../db/read-together.ts';
import type { AppContext } from './context.ts';
import { BILLING_BASE, billingApi } from './billing/index.ts';
import { consoleRoutes } from './console/index.ts';
import { exploreRoutes } from './explore/index.ts';
import { FUNDING_BASE, fundingApi } from './funding/index.ts';
import { HUMAN_BASE, humanApi } from './human/index.ts';
import { IMPACT_BASE, impactApi } from './impact/index.ts';
import { healthz, home, metricsEndpoint, readyz } from './ops.ts';

/** A service: an itty-router (walked by its route table), or anything with a router's fetch. */
type Service = WalkedRouter | { fetch(req: ApiRequest): Promise<Reply | undefined> };

export function buildRoutes(ctx: AppContext, metrics: Metrics) {
  const funding = fundingApi(ctx);
  const human = humanApi(ctx);
  const impact = impactApi(ctx);
  const console = consoleRoutes(ctx);
  // The explorer calls the APIs in process through this same router (routes/explore/api.ts).
  const explore = exploreRoutes(ctx, async (req) => (await fetch(req)) as Reply | undefined);
  const services: Array<[string, Service]> = [
    [FUNDING_BASE, funding],
    [HUMAN_BASE, human],
    [IMPACT_BASE, impact],
    ['/console', console],
    ['/explore', explore],
    [BILLING_BASE, billingApi(ctx)],
  ];
  // Each router is walked by its own route table (lib/http/route-walk.ts), not through itty-router's fetch.
  const walks = services.map(([base, service]): [string, Walk] => [
    base,
    'routes' in service ? routeWalk(service) : (req) => service.fetch(req),
  ]);
  // A keyed read of the human API reads the key generation and its row in one transaction (db/read-together.ts).
  for (const entry of walks) if (entry[0] === HUMAN_BASE) entry[1] = readTogether(ctx.db, entry[1]);
  const router = Router<ApiRequest, [], Reply>();
  for (const [base, walk] of walks) router.all(`${base}/*`, walk);
  router
    .get('/healthz', healthz)
    .get('/readyz', readyz(ctx.db, ctx.replica, ctx.dependencies, ctx.clock))
    .get('/metrics', metricsEndpoint(metrics))
    .get('/', home)
    .all('*', (req: ApiRequest) => jsonReply(404, { error: 'not_found', message: `No such path: ${req.path}` }));
  const top = routeWalk(router);
  /** The app's answer to a request: synchronous when every stage that ran answered synchronously. */
  const fetch = (req: ApiRequest): unknown => {
    const walk = serviceOf(walks, req);
    return walk ? walk(req) : top(req);
  };
  return {
    fetch,
    /** Every [method, pattern] the app's routers hold, services first (the benchmarks' whole route table). */
    routes: (): Array<[string, string]> =>
      [...services.map(([, service]) => service), router].flatMap((r) =>
        ('routes' in r ? r.routes : []).map(([method, , , path]): [string, string] => [method, path ?? '']),
      ),
  };
}

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

/**
 * The impact attribution read API, /impact/v1 (docs/services/impact.txt, SPEC "Impact attribution"). The
 * operations below are the whole URL space of the service, in the order they are matched; the OpenAPI
 * contract at /openapi.json is generated from the same list. Read-only: serviceRouter answers any
 * method other than GET, HEAD and OPTIONS on these paths with 405 and Allow.
 */
import { ACCOUNTED_HEADERS, REQUEST_ID_HEADER } from '../../lib/http/contract-headers.ts';
import { catalogueReads } from '../../db/impact/queries/catalogue.ts';
import { figureReads } from '../../db/impact/queries/figures.ts';
import { listReads } from '../../db/impact/queries/lists.ts';
import { registerReads } from '../../db/impact/queries/register.ts';
import { servingReads } from '../../db/impact/queries/state.ts';
import { readDraws } from '../../db/impact/read.ts';
import type { Operation } from '../../lib/http/operation.ts';
import { serviceApi } from '../../lib/http/service-router.ts';
import { API_VERSION } from '../../lib/impact/envelope.ts';
import { openApiPath } from '../../lib/openapi.ts';
import type { AppContext } from '../context.ts';
import { impactAccess } from './access.ts';
import { contributionsRoute, explainRoute } from './breakdowns.ts';
import { ResponseCache } from '../../lib/response-cache.ts';
import { compareRoute } from './compare.ts';
import { declareOptionalKey, foldComponents } from './contract-doc.ts';
import { COMPONENTS } from './contract-payloads.ts';
import { databaseUnavailable, renderImpactError } from './errors.ts';
import { indexRoute, searchRoute } from './home.ts';
import { IMPACT_BASE } from './links.ts';
import { productListRoute, productRoute } from './products.ts';
import { methodologyRoute, runRoute, runsRoute, scenariosRoute, sourcesRoute } from './register.ts';
import { methodologyDocumentOperation } from './methodology-document.ts';
import { categoriesRoute, conflictsRoute, countriesRoute, materialsRoute } from './lists.ts';
import { figuresCsvOperation } from './export.ts';
import { impactOperation, type ImpactDeps } from './serve.ts';
import { spendRoute } from './spend.ts';
import { channelRoute, conflictRoute, countryRoute, materialRoute } from './subjects.ts';

export { IMPACT_BASE };

const integer = { type: 'integer' };
const HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed per UTC day: 100 per address without a key, 10,000 per key.',
    schema: integer,
  },
  'X-RateLimit-Remaining': { description: 'Requests left today, this one counted.', schema: integer },
  'X-RateLimit-Reset': { description: 'Seconds until the daily window rolls at 00:00 UTC.', schema: integer },
  'X-Request-Id': REQUEST_ID_HEADER,
  'Retry-After': { description: 'Seconds to wait: until 00:00 UTC on a 429.', schema: integer },
  ETag: {
    description:
      'Tag of this response: the run it comes from and a digest of its bytes. Send it back in If-None-Match.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: "public, max-age=300 for a published run's figures; public, no-cache while withheld.",
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods this path answers: GET, HEAD, OPTIONS.', schema: { type: 'string' } },
};
const EVERY_RESPONSE = ACCOUNTED_HEADERS;

export function impactApi(ctx: AppContext) {
  const deps: ImpactDeps = {
    log: ctx.log,
    serving: servingReads(ctx.db),
    catalogue: catalogueReads(ctx.db),
    register: registerReads(ctx.db),
    figures: figureReads(ctx.db),
    lists: listReads(ctx.db),
    // Bounded by bytes only: /spend takes any amount and /compare any pair, so the keys are many; entries
    // never expire (a new serving state changes every key: routes/impact/cache.ts).
    cache: new ResponseCache({ sizeOf: (entry) => entry.body.length, maxBytes: 64 * 1024 * 1024 }),
  };
  // The index lists every endpoint, the contract included: it reads the final list.
  let operations: Operation[] = [];
  const endpoints = () => operations.map((op) => ({ path: openApiPath(op.spec.path), summary: op.spec.summary }));
  return serviceApi({
    name: 'impact',
    base: IMPACT_BASE,
    access: impactAccess(ctx),
    renderError: renderImpactError,
    readOnly: true,
    unavailable: databaseUnavailable,
    log: ctx.log,
    finishContract: (doc) => declareOptionalKey(foldComponents(doc)),
    operations: (contract) =>
      (operations = [
        impactOperation(indexRoute(endpoints, ctx.config.rateLimits.impact), deps),
        impactOperation(productListRoute, deps),
        impactOperation(productRoute, deps),
        impactOperation(contributionsRoute, deps),
        impactOperation(explainRoute, deps),
        impactOperation(
          compareRoute((runId, slug, metric) => readDraws(ctx.db, runId, slug, metric)),
          deps,
        ),
        impactOperation(spendRoute, deps),
        impactOperation(materialRoute, deps),
        impactOperation(conflictRoute, deps),
        impactOperation(countryRoute, deps),
        impactOperation(channelRoute, deps),
        impactOperation(scenariosRoute, deps),
        impactOperation(runsRoute, deps),
        impactOperation(runRoute, deps),
        impactOperation(methodologyRoute, deps),
        methodologyDocumentOperation(deps),
        impactOperation(sourcesRoute, deps),
        impactOperation(searchRoute, deps),
        impactOperation(materialsRoute, deps),
        impactOperation(conflictsRoute, deps),
        impactOperation(countriesRoute, deps),
        impactOperation(categoriesRoute, deps),
        figuresCsvOperation(deps),
        contract,
      ]),
    contract: {
      title: 'trio impact attribution API',
      version: API_VERSION,
      description:
        'Read-only figures for deaths and injuries statistically attributed to the supply chains of products, materials and consumer spending, each with its interval, scenario, run and sources, and the register of facts behind them. Figures are rows written by a published run; while a scenario has none, its figures are withheld and register facts are still served. Quote a figure with its interval, at two significant figures, with its scenario, run and methodology version; say "attributed to the supply chain of", never "caused by". Free: 100 requests per address per UTC day; an optional ia_ key in Authorization: Bearer or X-API-Key gets 10,000 per key. Errors are {"error": {"status", "code", "detail"}}.',
      components: COMPONENTS,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Optional: an ia_ key. Without one, requests are served anonymously.',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      headers: HEADERS,
      everyResponseHeaders: EVERY_RESPONSE,
      commonResponses: {
        400: {
          description:
            'bad_request: a parameter is missing, unknown or malformed; detail names it and what is accepted',
          schema: 'Error',
        },
        401: {
          description:
            'invalid_key: a key was presented and is not valid (unknown, revoked or expired); it is never served as anonymous',
          schema: 'Error',
        },
        404: {
          description:
            'not_found: no such path, product, material, conflict, country, channel, category or published run',
          schema: 'Error',
        },
        405: {
          description: 'method_not_allowed: only GET, HEAD and OPTIONS are answered',
          schema: 'Error',
          headers: [...EVERY_RESPONSE, 'Allow'],
        },
        429: {
          description: `rate_limited: the address (${ctx.config.rateLimits.impact.anonymous.perDay} a day) or key (${ctx.config.rateLimits.impact.key.perDay} a day) has used today's requests`,
          schema: 'Error',
          headers: [...EVERY_RESPONSE, 'Retry-After'],
        },
        500: {
          description:
            'internal_error, or figure_check_failed: a figure failed its own checks and is not served; logged with the request id',
          schema: 'Error',
        },
        503: { description: 'database_unavailable', schema: 'Error', headers: [...EVERY_RESPONSE, 'Retry-After'] },
      },
    },
  });
}

/**
 * /explore/impact: the impact pages (issue 9). Each page is its own file and gets every figure through
 * the impact API, called in process on the visitor's behalf (impact-common.ts); the pages need no
 * JavaScript.
 *   /explore/impact                      products, filter form, what the figures are    (1 API call)
 *   /explore/impact/products/:slug       scenarios chart, contributions, explain, cite (3 API calls)
 *   /explore/impact/compare?a=&b=        two products compared from paired draws       (1, or 2 with a and b)
 *   /explore/impact/spend?amount=        spending by category                          (1 API call)
 *   /explore/impact/materials, conflicts, countries and each one's page (impact-materials.ts, impact-conflicts.ts, impact-countries.ts, 1 API call each)
 *   /explore/impact/sources              every dataset: release, licence, what it feeds (impact-sources.ts, 1 API call)
 */
import type { AppContext } from '../context.ts';
import type { ApiCall } from './api.ts';
import { impactPage } from './impact-common.ts';
import { impactCompare } from './impact-compare.ts';
import { impactIndex } from './impact-index.ts';
import { impactProduct } from './impact-product.ts';
import { impactSpend } from './impact-spend.ts';
import { impactConflict, impactConflicts } from './impact-conflicts.ts';
import { impactCountries, impactCountry } from './impact-countries.ts';
import { impactMaterial, impactMaterials } from './impact-materials.ts';
import { impactSources } from './impact-sources.ts';
import type { ExploreRouter } from './router.ts';

export function impactPages(ctx: AppContext, api: ApiCall) {
  void ctx;
  return (router: ExploreRouter): void => {
    router
      .get('/impact', impactPage(api, impactIndex))
      .get('/impact/products/:slug', impactPage(api, impactProduct))
      .get('/impact/compare', impactPage(api, impactCompare))
      .get('/impact/spend', impactPage(api, impactSpend))
      .get('/impact/materials', impactPage(api, impactMaterials))
      .get('/impact/materials/:slug', impactPage(api, impactMaterial))
      .get('/impact/conflicts', impactPage(api, impactConflicts))
      .get('/impact/conflicts/:slug', impactPage(api, impactConflict))
      .get('/impact/countries', impactPage(api, impactCountries))
      .get('/impact/countries/:iso3', impactPage(api, impactCountry))
      .get('/impact/sources', impactPage(api, impactSources));
  };
}

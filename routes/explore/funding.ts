/**
 * /explore/funding: the funding search (funding-search.ts) and one call's page (funding-call.ts),
 * both built only from what the funding API answers the visitor.
 */
import type { AppContext } from '../context.ts';
import type { ApiCall } from './api.ts';
import { callPage } from './funding-call.ts';
import { searchPage } from './funding-search.ts';
import type { ExploreRouter } from './router.ts';

export function fundingPages(ctx: AppContext, api: ApiCall) {
  void ctx; // every figure comes through `api`; nothing here reads the database
  return (router: ExploreRouter): void => {
    router.get('/funding', searchPage(api)).get('/funding/calls/:id', callPage(api));
  };
}

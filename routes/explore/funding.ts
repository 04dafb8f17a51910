/**
 * /explore/funding: the funding search (funding-search.ts) and one call's page (funding-call.ts),
 * both built only from what the funding API answers the visitor. A signed-in visitor is served under
 * their own account's tier (basic, or pro with a subscription): funding allowances belong to the
 * account, so the page's in-process calls are marked with it (routes/funding/in-process-account.ts)
 * instead of borrowing a key. Anyone else is an anonymous client of the API, counted by address.
 */
import type { AppContext } from '../context.ts';
import { markInProcessAccount } from '../funding/in-process-account.ts';
import type { ApiCall } from './api.ts';
import { callPage } from './funding-call.ts';
import { fundingFreshness } from './funding-freshness.ts';
import { searchPage } from './funding-search.ts';
import type { ExploreRouter } from './router.ts';
import { signedInVisitor } from './visitor.ts';

export function fundingPages(ctx: AppContext, api: ApiCall) {
  const visitor = signedInVisitor(ctx);
  const asVisitor: ApiCall = (req, target, options = {}) => {
    const account = visitor(req)?.account;
    return api(
      req,
      target,
      account ? { ...options, prepare: (inner) => markInProcessAccount(inner, account.id) } : options,
    );
  };
  return (router: ExploreRouter): void => {
    // The data's age is asked by the explorer as its own client (funding-freshness.ts), not as the visitor.
    const freshness = fundingFreshness(api);
    router.get('/funding', searchPage(asVisitor, freshness)).get('/funding/calls/:id', callPage(asVisitor, freshness));
  };
}

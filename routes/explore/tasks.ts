/**
 * /explore/tasks: placeholder until its pages are built.
 */
import type { AppContext } from '../context.ts';
import type { ApiCall } from './api.ts';
import type { ExploreRouter } from './router.ts';

export function tasksPages(ctx: AppContext, api: ApiCall) {
  void ctx;
  void api;
  return (router: ExploreRouter): void => {
    void router;
  };
}

/**
 * /explore/tasks: the sandbox playground of the human API for a signed-in account. The first page
 * (tasks-home.ts) → a quote and the order form (tasks-quote.ts) → the order (tasks-actions.ts) → the
 * task's page (tasks-task.ts) with its result and evidence, cancel and dispute. Every figure comes
 * from the human API, called in process as the account's "Explorer playground" key (tasks-session.ts).
 */
import type { AppContext } from '../context.ts';
import type { ApiCall } from './api.ts';
import type { ExploreRouter } from './router.ts';
import { taskActions } from './tasks-actions.ts';
import { homePage } from './tasks-home.ts';
import { quotePage } from './tasks-quote.ts';
import { playground } from './tasks-session.ts';
import { taskPages } from './tasks-task.ts';

export function tasksPages(ctx: AppContext, api: ApiCall) {
  const pg = playground(ctx, api);
  const actions = taskActions(pg);
  const task = taskPages(pg);
  return (router: ExploreRouter): void => {
    router
      .get('/assets/tasks.js', task.script)
      .get('/tasks', homePage(api, pg))
      .get('/tasks/quote', quotePage(api, pg))
      .post('/tasks/order', actions.order)
      .get('/tasks/:ref', task.show)
      .get('/tasks/:ref/evidence/:evidence', task.evidenceFile)
      .post('/tasks/:ref/cancel', actions.cancel)
      .post('/tasks/:ref/dispute', actions.dispute);
  };
}

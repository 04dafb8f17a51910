/**
 * The database and route-table tests in this one process, for `npm test` (tests/helpers/tiers.ts
 * says why). Each file still works on its own temporary database.
 */
import { databaseAndRouteTests, runInThisProcess } from './helpers/tiers.ts';

runInThisProcess(databaseAndRouteTests());

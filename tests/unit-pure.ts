/**
 * The pure-module tests in this one process, for `npm test` and `npm run test:unit` alike
 * (tests/helpers/tiers.ts says why).
 */
import { pureModuleTests, runInThisProcess } from './helpers/tiers.ts';

runInThisProcess(pureModuleTests());

/** The end-to-end tests of tests/e2e/billing in this one process, for `npm test` (tests/helpers/tiers.ts says why). */
import { runGroup } from '../helpers/tiers.ts';

runGroup(import.meta.url);

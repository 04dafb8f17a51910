/**
 * `npm run test:unit` runs the pure-module tests in this one process (tests/helpers/tiers.ts says
 * why). Each file's tests register as it is imported and run one after another, as in its own process.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pureModuleTests } from './helpers/tiers.ts';

const ROOT = join(import.meta.dirname, '..');
for (const file of pureModuleTests()) await import(pathToFileURL(join(ROOT, file)).href);

/**
 * How hard the reliability suite pushes. `npm test` runs it at the CI size (the whole suite under 10
 * minutes on a 2-core machine); `npm run test:reliability -- --long` sets TRIO_RELIABILITY=long for
 * deeper runs (more fuzz cases, 20 crash cycles) and has each test write its figures under
 * test-results/reliability/ for docs/reliability.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LONG = process.env.TRIO_RELIABILITY === 'long';

/** The CI value, or the long one under --long. */
export const bySize = <T>(ci: T, long: T): T => (LONG ? long : ci);

/** Records a test's figures (always; the --long run's are the ones docs/reliability.md quotes). */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const dir = join(import.meta.dirname, '..', '..', 'test-results', 'reliability');
  mkdirSync(dir, { recursive: true });
  const mode = LONG ? 'long' : 'ci';
  writeFileSync(
    join(dir, `${name}.${mode}.json`),
    JSON.stringify({ mode, at: new Date().toISOString(), ...figures }, null, 2) + '\n',
  );
}

/**
 * The pure-module tests: tests/lib outside tests/lib/http (which opens sockets). `npm run test:unit`
 * runs them all in one process (tests/unit-pure.ts) instead of one process each: starting node with
 * tsx costs about 0.3 s of CPU per file, most of what these small files cost. `npm test` still runs
 * each in its own process; tests/tiers.test.ts checks both runs cover the same files.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** Every *.test.ts under `dir`, relative to the repository root, sorted. */
export function testFilesUnder(dir: string): string[] {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(at, e.name)) : e.name.endsWith('.test.ts') ? [relative(ROOT, join(at, e.name))] : [],
    );
  return walk(join(ROOT, dir)).sort();
}

export function pureModuleTests(): string[] {
  return testFilesUnder('tests/lib').filter((file) => !file.startsWith('tests/lib/http/'));
}

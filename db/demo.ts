/**
 * The demo data set: the funding fixtures, imported in the order fixtures/funding/demo.json gives.
 * Loaded into an empty database at start (DEMO=on) and by `main.ts demo`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './connection.ts';
import { importFundingFile, type ImportSummary } from './funding/import.ts';

const FUNDING_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'funding');

interface ManifestEntry { source: 'eu' | 'cordis' | 'bdns' | 'boe'; path: string }

export function isEmpty(db: Db): boolean {
  return (db.prepare('SELECT count(*) FROM funding_imports').pluck().get() as number) === 0;
}

export function loadDemo(db: Db, now: number, onFile?: (done: number, total: number) => void): ImportSummary[] {
  const manifest = JSON.parse(readFileSync(join(FUNDING_FIXTURES, 'demo.json'), 'utf8')) as ManifestEntry[];
  return manifest.map((entry, i) => {
    const summary = importFundingFile(db, entry.source, join(FUNDING_FIXTURES, entry.path), now);
    onFile?.(i + 1, manifest.length);
    return summary;
  });
}

/**
 * The demo data sets: the funding corpus (fixtures/funding, imported in the order demo.json gives),
 * the impact register with its published demo runs (db/impact/demo.ts), and the human task catalogue
 * and its verified people on duty (fixtures/human). At start (DEMO=on) whatever part is missing is loaded; `main.ts demo` loads all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './connection.ts';
import { importFundingFile, type ImportSummary } from './funding/import.ts';
import { DEMO_CATALOGUE, isCatalogueEmpty, loadCatalogue } from './human/catalogue.ts';
import { hasNoPeople, loadDemoPeople } from './human/demo-people.ts';
import { isImpactEmpty, loadImpactDemo } from './impact/demo.ts';

const FUNDING_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'funding');

interface ManifestEntry {
  source: 'eu' | 'cordis' | 'bdns' | 'boe';
  path: string;
}

export function isFundingEmpty(db: Db): boolean {
  return (db.prepare('SELECT count(*) FROM funding_imports').pluck().get() as number) === 0;
}

export function loadFundingDemo(db: Db, now: number, onFile?: (done: number, total: number) => void): ImportSummary[] {
  const manifest = JSON.parse(readFileSync(join(FUNDING_FIXTURES, 'demo.json'), 'utf8')) as ManifestEntry[];
  return manifest.map((entry, i) => {
    const summary = importFundingFile(db, entry.source, join(FUNDING_FIXTURES, entry.path), now);
    onFile?.(i + 1, manifest.length);
    return summary;
  });
}

/** Loads each demo data set the database does not have yet; says what it loaded. */
export function loadMissingDemo(db: Db, clock: () => number): string[] {
  const loaded: string[] = [];
  if (isFundingEmpty(db)) {
    loadFundingDemo(db, clock());
    loaded.push('funding corpus');
  }
  if (isImpactEmpty(db)) {
    const impact = loadImpactDemo(db, clock);
    loaded.push(`impact register ${impact.register.data_version} and ${impact.runs.length} published runs`);
  }
  if (isCatalogueEmpty(db)) {
    loadCatalogue(db, DEMO_CATALOGUE, clock());
    loaded.push('human task catalogue');
  }
  if (hasNoPeople(db)) loaded.push(`${loadDemoPeople(db, clock())} demo people on duty in the live cities`);
  return loaded;
}

/**
 * The demo data sets: the funding corpus (real records the four sources published, data/funding, each
 * folder with its source note (data/funding/bdns/SOURCE.md…) and credit line, imported in the order data/funding/demo.json gives), the
 * impact register with its published demo runs (db/impact/demo.ts), and the human task catalogue
 * and its verified people on duty (fixtures/human). At start (DEMO=on) whatever part is missing is loaded; `main.ts demo` loads all.
 * The hand-made funding files of fixtures/funding (traps.json) are test fixtures, not the demo.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Db } from './connection.ts';
import { importFundingFile, type ImportSummary } from './funding/import.ts';
import { DEMO_CATALOGUE, isCatalogueEmpty, loadCatalogue } from './human/catalogue.ts';
import { hasNoPeople, loadDemoPeople } from './human/demo-people.ts';
import { isImpactEmpty, loadImpactDemo } from './impact/demo.ts';

/** The manifest of the funding demo: `[{source, path}]`, paths relative to its folder. */
export const FUNDING_DEMO = join(import.meta.dirname, '..', 'data', 'funding', 'demo.json');

interface ManifestEntry {
  source: 'eu' | 'cordis' | 'bdns' | 'boe';
  path: string;
}

export function isFundingEmpty(db: Db): boolean {
  return (db.prepare('SELECT count(*) FROM funding_imports').pluck().get() as number) === 0;
}

/** Imports the funding files a manifest lists, in its order. */
export function loadFundingDemo(
  db: Db,
  now: number,
  onFile?: (done: number, total: number) => void,
  manifestPath = FUNDING_DEMO,
): ImportSummary[] {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as ManifestEntry[];
  return manifest.map((entry, i) => {
    const summary = importFundingFile(db, entry.source, join(dirname(manifestPath), entry.path), now);
    onFile?.(i + 1, manifest.length);
    return summary;
  });
}

/**
 * Loads each demo data set the database does not have yet; says what it loaded. `fundingManifest`:
 * another set of funding files (the tests' hand-made trap fixtures) instead of the real demo.
 */
export function loadMissingDemo(db: Db, clock: () => number, fundingManifest = FUNDING_DEMO): string[] {
  const loaded: string[] = [];
  if (isFundingEmpty(db)) {
    loadFundingDemo(db, clock(), undefined, fundingManifest);
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

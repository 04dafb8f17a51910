/**
 * EU Funding & Tenders: the SEDIA search API, paged, with the bulk reference file as the fallback.
 *  - Search: POST <base>?apiKey=SEDIA&text=***&pageSize=100&pageNumber=N (GET answers 405), filters
 *    in a multipart body whose parts are application/json blobs: grant, prospect and cascade topics
 *    (type 1, 2, 8) that are forthcoming or open, in English. The API has no "changed since"
 *    filter: every page is read; an unchanged page is not re-imported, and the importer writes only
 *    the topics whose content changed.
 *  - Fallback: when a search page cannot be had (after retries) or read, GET grantsTenders.json
 *    (no key, refreshed daily, conditional GET) and import it in chunks of FUNDING_SYNC_BATCH_ROWS records.
 * Watermark: `{page, started_at}` of a pass in progress, so a killed pass resumes at its next page
 * (a pass older than a day starts over).
 */
import { sediaSourceId } from '../../../lib/funding/parse-eu.ts';
import { answerValidators, sha256, SyncError, type SourceRun } from './context.ts';
import { statementsFor } from '../../statements.ts';

interface EuWatermark {
  page: number | null;
  started_at: number;
}

const DAY_MS = 86_400_000;
const QUERY = {
  bool: { must: [{ terms: { type: ['1', '2', '8'] } }, { terms: { status: ['31094501', '31094502'] } }] },
};

function searchBody(): FormData {
  const form = new FormData();
  const json = (v: unknown) => new Blob([JSON.stringify(v)], { type: 'application/json' });
  form.append('query', json(QUERY));
  form.append('languages', json(['en']));
  return form;
}

function totalPages(text: string, pageSize: number, where: string): number {
  let data: { totalResults?: unknown };
  try {
    data = JSON.parse(text) as { totalResults?: unknown };
  } catch (err) {
    throw new SyncError(`${where}: not valid JSON (${(err as Error).message})`, true);
  }
  if (typeof data.totalResults !== 'number')
    throw new SyncError(`${where}: not a SEDIA search response (no totalResults)`, true);
  return Math.max(1, Math.ceil(data.totalResults / pageSize));
}

const statements = statementsFor((db) => ({
  storedLanguage: db.prepare('SELECT language FROM funding_calls WHERE id = ?').pluck(),
}));

/**
 * SEDIA returns one hit per translation, and the translations of a topic can fall on different
 * pages. The importer keeps the English hit of a page; across pages, a later page's German hit must
 * not replace the English record an earlier page stored: such hits are left out of the page.
 */
function withoutStoredTranslations(run: SourceRun, text: string): string {
  const data = JSON.parse(text) as { results?: unknown };
  if (!Array.isArray(data.results)) return text;
  const stored = statements(run.db).storedLanguage;
  const results = data.results.filter((r: { language?: unknown; metadata?: { language?: unknown } }) => {
    const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
    const language = String(first(r?.metadata?.language) ?? r?.language ?? 'en').toLowerCase();
    const id = sediaSourceId(r);
    return language === 'en' || id === null || stored.get(`eu:${id}`) !== 'en';
  });
  return results.length === data.results.length ? text : JSON.stringify({ ...data, results });
}

async function syncSearch(run: SourceRun): Promise<void> {
  const w = run.state.watermark<EuWatermark>('eu');
  const resume =
    w.page !== null && w.page !== undefined && w.started_at !== undefined && run.now() - w.started_at < DAY_MS;
  const pass: EuWatermark = resume ? { page: w.page!, started_at: w.started_at! } : { page: 0, started_at: run.now() };
  if (resume) run.notes.push(`resumed the search pass at page ${pass.page! + 1}`);
  const size = run.config.pageSize;
  for (let n = pass.page! + 1, pages = n; n <= pages; n++) {
    run.progress({ done: n - 1, total: pages, label: `page ${n}` });
    const url = `${run.config.urls.eu}?apiKey=SEDIA&text=${encodeURIComponent('***')}&pageSize=${size}&pageNumber=${n}`;
    const what = `EU search page ${n}`;
    const res = await run.fetch(
      what,
      url,
      { method: 'POST', body: searchBody(), headers: { accept: 'application/json' } },
      false,
    );
    if (res.status === 404) throw new SyncError(`${what} (${url}): the search API answered 404`);
    const text = res.body.toString('utf8');
    pages = totalPages(text, size, `${what} (${url})`);
    const bodySha = sha256(res.body);
    const done: EuWatermark = { page: n >= pages ? null : n, started_at: pass.started_at };
    const bookkeeping = () => {
      run.state.setValidators(url, { etag: null, last_modified: null, body_sha256: bodySha }, run.now());
      run.state.setWatermark('eu', done);
    };
    if (bodySha === res.validators?.body_sha256) {
      run.counts.skipped++;
      run.commit(bookkeeping);
    } else {
      run.importBatch([{ name: url, text: withoutStoredTranslations(run, text), what }], bookkeeping);
    }
  }
}

async function syncBulk(run: SourceRun): Promise<void> {
  const url = run.config.urls.euBulk;
  run.progress({ done: 0, total: null, label: 'bulk file' });
  const what = 'EU bulk reference file';
  const res = await run.fetch(what, url, { headers: { accept: 'application/json' } });
  if (res.status === 404) throw new SyncError(`${what} (${url}): the bulk file answered 404`);
  const { validators, bodySha, unchanged } = answerValidators(res);
  if (unchanged) {
    run.counts.skipped++;
    return;
  }
  let data: unknown;
  try {
    data = JSON.parse(res.body.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new SyncError(`${what} (${url}): not valid JSON (${(err as Error).message})`, true);
  }
  const records = Array.isArray(data)
    ? data
    : (data as { fundingData?: { GrantTenderObj?: unknown } })?.fundingData?.GrantTenderObj;
  if (!Array.isArray(records)) throw new SyncError(`${what} (${url}): not a grantsTenders.json reference file`, true);
  // Short write transactions: the file (about 11,000 records) goes in chunks, each a bare array the
  // importer reads like the whole file. The validators are kept with the last chunk only, so a
  // killed import reads the file again (the chunks already stored are then unchanged: no writes).
  const size = run.config.batchRows;
  const chunks = Math.max(1, Math.ceil(records.length / size));
  for (let i = 0; i < chunks; i++) {
    run.progress({ done: i, total: chunks, label: 'bulk file' });
    const last = i === chunks - 1;
    run.importBatch(
      [
        {
          name: `${url}#${i * size}`,
          text: JSON.stringify(records.slice(i * size, (i + 1) * size)),
          what: `${what}, records ${i * size + 1}…${Math.min(records.length, (i + 1) * size)}`,
        },
      ],
      last ? () => run.state.setValidators(url, { ...validators, body_sha256: bodySha }, run.now()) : undefined,
    );
  }
}

export async function syncEu(run: SourceRun): Promise<void> {
  try {
    await syncSearch(run);
  } catch (err) {
    if (!(err instanceof SyncError)) throw err;
    run.counts.failed++;
    run.notes.push(`search API failed (${err.message}); fell back to the bulk reference file`);
    run.commit(() => run.state.setWatermark('eu', { page: null, started_at: run.now() }));
    await syncBulk(run);
  }
}

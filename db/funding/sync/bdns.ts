/**
 * BDNS (infosubvenciones.es): list pages of the calls received since the last sync, then the detail
 * of each new or changed call.
 *  - List: GET <base>/convocatorias/busqueda?vpd=GE&page=N (0-based)&pageSize=…&order=fechaRecepcion
 *    &direccion=asc&fechaDesde=DD/MM/YYYY&fechaHasta=DD/MM/YYYY (both inclusive), in 7-day windows
 *    (longer ranges fail with ERR_MANTENIMIENTO_BBDD). The list steers; it is not imported itself.
 *  - Detail: GET <base>/convocatorias?numConv=N&vpd=GE (./bdns-detail.ts), one request per call whose
 *    list entry is new or differs from the one we last fetched a detail for (funding_sync_items keeps
 *    a fingerprint of the entry; it is written in the same transaction as the detail's import).
 *  - Re-reads (./bdns-reread.ts): a list entry has no application dates, so a deadline extension
 *    changes only the detail. After the list windows, the details of open and forthcoming calls are
 *    read again on a schedule that tightens as their deadline nears (lib/funding/reread.ts).
 * Watermark: `{from}`, the first day not read for good yet. Each run re-reads the two days before it
 * as well (calls are registered late; offset paging can shift rows at page edges): those pages are
 * cheap, since an unchanged page is not re-imported and an unchanged entry fetches no detail.
 */
import { addDays, toLocal } from '../../../lib/funding/zoned-time.ts';
import { readDetail } from './bdns-detail.ts';
import { rereadDetails } from './bdns-reread.ts';
import { sha256, SyncError, type SourceRun } from './context.ts';

interface BdnsWatermark {
  from: string;
}

const WINDOW_DAYS = 7;
const OVERLAP_DAYS = 2;
const dmy = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

interface Page {
  content: Array<Record<string, unknown>>;
  last: boolean;
}

/** What the sync steers by on a list page: its entries, and whether more pages follow. */
function readPage(text: string, where: string): Page {
  let data: { content?: unknown; last?: unknown; totalPages?: unknown; number?: unknown };
  try {
    data = JSON.parse(text) as typeof data;
  } catch (err) {
    throw new SyncError(`${where}: not valid JSON (${(err as Error).message})`, true);
  }
  if (!Array.isArray(data.content)) throw new SyncError(`${where}: not a BDNS list page (no content[])`, true);
  const last =
    data.last === true ||
    data.content.length === 0 ||
    (typeof data.totalPages === 'number' && typeof data.number === 'number' && data.number + 1 >= data.totalPages);
  return { content: data.content as Array<Record<string, unknown>>, last };
}

export async function syncBdns(run: SourceRun): Promise<void> {
  const today = toLocal(run.now(), 'Europe/Madrid').date;
  const w = run.state.watermark<BdnsWatermark>('bdns');
  let from = run.since ?? (w.from ? addDays(w.from, -OVERLAP_DAYS) : addDays(today, -run.config.backfillDays));
  if (from > today) from = today;
  const windows: Array<[string, string]> = [];
  for (let a = from; a <= today; a = addDays(a, WINDOW_DAYS)) {
    const b = addDays(a, WINDOW_DAYS - 1);
    windows.push([a, b < today ? b : today]);
  }
  const base = run.config.urls.bdns;
  for (const [k, [a, b]] of windows.entries()) {
    for (let page = 0; ; page++) {
      run.progress({ done: k, total: windows.length, label: `${a}…${b} page ${page + 1}` });
      const url =
        `${base}/convocatorias/busqueda?vpd=GE&page=${page}&pageSize=${run.config.pageSize}` +
        `&order=fechaRecepcion&direccion=asc&fechaDesde=${encodeURIComponent(dmy(a))}&fechaHasta=${encodeURIComponent(dmy(b))}`;
      // Not conditional: a 304 would not say whether more pages follow. An unchanged body is enough.
      const what = `BDNS list ${a}…${b} page ${page + 1}`;
      const res = await run.fetch(what, url, { headers: { accept: 'application/json' } }, false);
      if (res.status === 404) throw new SyncError(`${what} (${url}): the BDNS list answered 404`);
      const text = res.body.toString('utf8');
      // The page itself is not imported: every entry on it gets its detail read and imported (the
      // full record), and importing the thinner list entry too would rewrite each call twice a run.
      // A page BDNS refused ({codigo, error} in a 200) or that is not JSON fails the source here.
      if (/^\s*\{\s*"codigo"/.test(text))
        throw new SyncError(`${what} (${url}): BDNS answered an error: ${text.slice(0, 200)}`, true);
      const { content, last } = readPage(text, `${what} (${url})`);
      for (const item of content) {
        const id = String(item.numeroConvocatoria ?? item.codigoBDNS ?? '');
        const fingerprint = sha256(JSON.stringify(item));
        if (!id || run.state.fingerprint('bdns', id) === fingerprint) {
          run.counts.skipped++;
          continue;
        }
        await readDetail(run, id, fingerprint);
      }
      if (last) break;
    }
    // A window read to its end: the next run starts after it (today is re-read: calls keep arriving).
    const next = b < today ? addDays(b, 1) : today;
    if (!w.from || next > w.from) {
      w.from = next;
      run.commit(() => run.state.setWatermark('bdns', w));
    }
  }
  // Details whose deadline may have moved (those just read are not due again).
  await rereadDetails(run);
  run.progress({ done: windows.length, total: windows.length, label: today });
}

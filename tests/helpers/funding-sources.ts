/**
 * A real local HTTP server standing in for the four funding sources, serving the real records of
 * data/funding in their real formats: the SEDIA search API (POST, multipart, paged: the 11 real hits
 * of the three SEDIA samples, in pages), the EU bulk reference file (the real funding_radar sample),
 * BDNS list pages (a Spring Page, 0-based, dated windows, of the 71 real list rows) and their 71 real
 * details, BOE daily sumarios and item documents (the three real sumarios on their days, the real
 * item document BOE-B-2024-3994, and the 22 BOE notices the real details mirror, as days assembled in
 * the BOE's formats by ./boe-mirror.ts; 404 on days without an issue here, and for the documents of
 * the real sumarios' items, which the data does not hold), and the CORDIS export zip (the real 100
 * projects). The bulk file and the zip carry an ETag and answer 304 when it matches.
 * Tests queue faults per document (429 with Retry-After, 503, a slow answer, a truncated body,
 * malformed JSON, 404), change a detail as BDNS would (an extended deadline), and read back every
 * request it received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { boeDaysFromBdnsMirrors, type BoeDay } from './boe-mirror.ts';

const DATA = join(import.meta.dirname, '..', '..', 'data', 'funding');
const read = (p: string) => readFileSync(join(DATA, p), 'utf8');

export type Fault =
  { status: number; retryAfter?: string; body?: string } | { delayMs: number } | { truncate: true } | { body: string };

export interface SeenRequest {
  method: string;
  key: string;
  url: string;
  headers: Record<string, string | undefined>;
  at: number;
}

export interface FakeSources {
  url: string;
  env: Record<string, string>;
  requests: SeenRequest[];
  /** Faults for a document key, used one per request, in order. */
  fail(key: string, ...faults: Fault[]): void;
  /** Keys: eu-search:<page>, eu-bulk, bdns-list:<page>, bdns-detail:<id>, boe:<YYYYMMDD>, boe-doc:<id>, cordis. */
  keys(prefix: string): string[];
  /** Every answer waits this long from now on (0: none). */
  setDelay(ms: number): void;
  /** Change the CORDIS export (a new ETag). */
  setCordis(projectCsv: string): void;
  /** Change a BDNS detail as BDNS would (its list row stays as it is). */
  setDetail(id: string, change: (detail: Record<string, unknown>) => void): void;
  close(): Promise<void>;
}

/** The real BDNS details by call, and the real list rows of the same calls. */
function bdnsData(): { rows: Array<Record<string, unknown>>; details: Map<string, Record<string, unknown>> } {
  const rows = (
    JSON.parse(read('bdns/convocatorias-busqueda-filas-20250116-20260715.json')) as {
      content: Array<Record<string, unknown>>;
    }
  ).content;
  const details = new Map<string, Record<string, unknown>>();
  for (const d of JSON.parse(read('bdns/convocatorias-detalle-20250116-20260715.json')) as Array<
    Record<string, unknown>
  >)
    details.set(String(d.codigoBDNS), d);
  return { rows, details };
}

/** The hits of the three real SEDIA samples, in one list the fake pages through. */
function sediaResults(): unknown[] {
  return [
    'eu/sedia-search-subvenia-page-sample.json',
    'eu/sedia-search-fundhunt-sample.json',
    'eu/sedia-search-fundhunt-cascade-sample.json',
  ].flatMap((f) => (JSON.parse(read(f)) as { results: unknown[] }).results);
}

/** The real sumarios, on their days. */
const REAL_SUMARIOS: Record<string, string> = {
  '20250307': 'boe/sumario-20250307.xml',
  '20250310': 'boe/sumario-20250310.xml',
  '20250418': 'boe/sumario-20250418-partial.xml',
};

function page<T>(items: T[], pageNumber: number, size: number) {
  const content = items.slice(pageNumber * size, (pageNumber + 1) * size);
  const totalPages = Math.max(1, Math.ceil(items.length / size));
  return {
    content,
    pageable: { pageNumber, pageSize: size, offset: pageNumber * size, paged: true, unpaged: false },
    totalElements: items.length,
    totalPages,
    last: pageNumber + 1 >= totalPages,
    size,
    number: pageNumber,
    numberOfElements: content.length,
    first: pageNumber === 0,
    empty: content.length === 0,
    advertencia: null,
  };
}

const dmyToIso = (s: string) => `${s.slice(6, 10)}-${s.slice(3, 5)}-${s.slice(0, 2)}`;

/** `delayMs`: every answer waits this long (a slow source, for killing a sync mid-way). */
export async function startFakeSources(options: { delayMs?: number } = {}): Promise<FakeSources> {
  const faults = new Map<string, Fault[]>();
  let delayMs = options.delayMs ?? 0;
  const requests: SeenRequest[] = [];
  const { rows: items, details } = bdnsData();
  const sedia = sediaResults();
  let cordisVersion = 1;
  let cordisZip = zipSync({ 'csv/project.csv': strToU8(read('cordis/project.csv')) });
  // Built once the server has its address: the sumarios link their documents on it.
  let mirrored = new Map<string, BoeDay>();

  function answer(
    req: IncomingMessage,
    url: URL,
    body: Buffer,
  ): { key: string; status: number; type: string; payload: string | Uint8Array; headers?: Record<string, string> } {
    const p = url.pathname;
    const q = url.searchParams;
    if (p === '/eu/search') {
      const n = Number(q.get('pageNumber'));
      const key = `eu-search:${n}`;
      if (req.method !== 'POST')
        return { key, status: 405, type: 'application/json', payload: '{"message":"Method Not Allowed"}' };
      if (
        !String(req.headers['content-type']).startsWith('multipart/form-data') ||
        (!body.includes('"languages"') && !body.includes('name="languages"'))
      ) {
        return {
          key,
          status: 500,
          type: 'application/json',
          payload: '{"message":"filters must be multipart JSON parts"}',
        };
      }
      const size = Number(q.get('pageSize'));
      const results = sedia.slice((n - 1) * size, n * size);
      return {
        key,
        status: 200,
        type: 'application/json',
        payload: JSON.stringify({ pageNumber: n, pageSize: size, totalResults: sedia.length, results }),
      };
    }
    if (p === '/eu/grantsTenders.json') {
      if (req.headers['if-none-match'] === '"bulk-1"')
        return { key: 'eu-bulk', status: 304, type: 'application/json', payload: '', headers: { etag: '"bulk-1"' } };
      return {
        key: 'eu-bulk',
        status: 200,
        type: 'application/json',
        payload: read('eu/grantsTenders-funding_radar-sample.json'),
        headers: { etag: '"bulk-1"' },
      };
    }
    if (p === '/bdns/convocatorias/busqueda') {
      const n = Number(q.get('page'));
      const from = dmyToIso(q.get('fechaDesde') ?? '');
      const to = dmyToIso(q.get('fechaHasta') ?? '');
      const inWindow = items.filter((i) => String(i.fechaRecepcion) >= from && String(i.fechaRecepcion) <= to);
      return {
        key: `bdns-list:${n}`,
        status: 200,
        type: 'application/json',
        payload: JSON.stringify(page(inWindow, n, Number(q.get('pageSize')))),
      };
    }
    if (p === '/bdns/convocatorias') {
      const id = q.get('numConv') ?? '';
      const d = details.get(id);
      if (!d)
        return {
          key: `bdns-detail:${id}`,
          status: 200,
          type: 'application/json',
          payload: '{"codigo":"ERR_CONV","error":"Convocatoria no encontrada"}',
        };
      return { key: `bdns-detail:${id}`, status: 200, type: 'application/json', payload: JSON.stringify(d) };
    }
    const boe = /^\/boe\/sumario\/(\d{8})$/.exec(p);
    if (boe) {
      const ymd = boe[1]!;
      const key = `boe:${ymd}`;
      if (REAL_SUMARIOS[ymd]) return { key, status: 200, type: 'application/xml', payload: read(REAL_SUMARIOS[ymd]) };
      const day = mirrored.get(ymd);
      if (day) return { key, status: 200, type: 'application/json', payload: day.sumario };
      return {
        key,
        status: 404,
        type: 'application/json',
        payload: '{"status":{"code":"404","text":"No se encontró el sumario original."},"data":""}',
      };
    }
    if (p === '/boe/documento') {
      const id = q.get('id') ?? '';
      const key = `boe-doc:${id}`;
      const doc =
        id === 'BOE-B-2024-3994'
          ? read('boe/documento-BOE-B-2024-3994.xml')
          : [...mirrored.values()].find((d) => d.documents.has(id))?.documents.get(id);
      if (doc) return { key, status: 200, type: 'application/xml', payload: doc };
      return { key, status: 404, type: 'text/html', payload: '<html><body>No encontrado</body></html>' };
    }
    if (p === '/cordis/cordis-HORIZONprojects-csv.zip') {
      const etag = `"cordis-${cordisVersion}"`;
      if (req.headers['if-none-match'] === etag)
        return { key: 'cordis', status: 304, type: 'application/zip', payload: '', headers: { etag } };
      return {
        key: 'cordis',
        status: 200,
        type: 'application/zip',
        payload: cordisZip,
        headers: { etag, 'last-modified': 'Mon, 02 Nov 2026 08:00:00 GMT' },
      };
    }
    return { key: `unknown:${p}`, status: 404, type: 'text/plain', payload: 'not found' };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const a = answer(req, url, Buffer.concat(chunks));
      requests.push({
        method: req.method ?? '',
        key: a.key,
        url: url.pathname + url.search,
        at: Date.now(),
        headers: {
          'user-agent': req.headers['user-agent'],
          'if-none-match': req.headers['if-none-match'],
          'if-modified-since': req.headers['if-modified-since'],
          'content-type': req.headers['content-type'],
        },
      });
      const fault = faults.get(a.key)?.shift() ?? (delayMs ? { delayMs } : undefined);
      const send = (status: number, payload: string | Uint8Array, headers: Record<string, string> = {}) => {
        const bytes = typeof payload === 'string' ? Buffer.from(payload) : Buffer.from(payload);
        res.writeHead(status, { 'content-type': a.type, 'content-length': String(bytes.length), ...headers });
        res.end(bytes);
      };
      if (!fault) return send(a.status, a.payload, a.headers);
      if ('delayMs' in fault) {
        const t = setTimeout(() => {
          if (!res.destroyed) send(a.status, a.payload, a.headers);
        }, fault.delayMs);
        res.on('close', () => clearTimeout(t));
        return;
      }
      if ('truncate' in fault) {
        const bytes = Buffer.from(typeof a.payload === 'string' ? a.payload : Buffer.from(a.payload));
        res.writeHead(200, { 'content-type': a.type, 'content-length': String(bytes.length) });
        res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
        return;
      }
      if ('status' in fault)
        return send(
          fault.status,
          fault.body ?? '{"message":"fault"}',
          fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
        );
      return send(200, fault.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}`;
  mirrored = boeDaysFromBdnsMirrors((id) => `${url}/boe/documento?id=${id}`);
  return {
    url,
    env: {
      FUNDING_SYNC_EU_URL: `${url}/eu/search`,
      FUNDING_SYNC_EU_BULK_URL: `${url}/eu/grantsTenders.json`,
      FUNDING_SYNC_BDNS_URL: `${url}/bdns`,
      FUNDING_SYNC_BOE_URL: `${url}/boe/sumario`,
      FUNDING_SYNC_CORDIS_URL: `${url}/cordis/cordis-HORIZONprojects-csv.zip`,
    },
    requests,
    fail: (key, ...fs) => faults.set(key, [...(faults.get(key) ?? []), ...fs]),
    setDelay: (ms) => {
      delayMs = ms;
    },
    keys: (prefix) => requests.filter((r) => r.key.startsWith(prefix)).map((r) => r.key),
    setCordis(projectCsv) {
      cordisVersion++;
      cordisZip = zipSync({ 'csv/project.csv': strToU8(projectCsv) });
    },
    setDetail(id, change) {
      const d = details.get(id);
      if (!d) throw new Error(`no real detail of call ${id}`);
      const copy = structuredClone(d);
      change(copy);
      details.set(id, copy);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

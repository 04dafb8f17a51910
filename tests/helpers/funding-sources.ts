/**
 * A real local HTTP server standing in for the four funding sources, serving recorded responses in
 * their real formats (built from fixtures/funding): the SEDIA search API (POST, multipart, paged),
 * the EU bulk reference file, BDNS list pages (a Spring Page, 0-based, dated windows) and details,
 * BOE daily sumarios (404 on Sundays), and the CORDIS export zip; the bulk file and the zip carry an
 * ETag and answer 304 when it matches.
 * Tests queue faults per document (429 with Retry-After, 503, a slow answer, a truncated body,
 * malformed JSON, 404) and read back every request it received.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';

const FIX = join(import.meta.dirname, '..', '..', 'fixtures', 'funding');
const read = (p: string) => readFileSync(join(FIX, p), 'utf8');

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
  /** Keys: eu-search:<page>, eu-bulk, bdns-list:<page>, bdns-detail:<id>, boe:<YYYYMMDD>, cordis. */
  keys(prefix: string): string[];
  /** Every answer waits this long from now on (0: none). */
  setDelay(ms: number): void;
  /** Change the CORDIS export (a new ETag). */
  setCordis(projectCsv: string): void;
  close(): Promise<void>;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (d: string, n: number) => day(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000);

/** The BDNS list items of the fixture, received on the days before `today` (so any window finds them). */
function bdnsItems(today: string): Array<Record<string, unknown>> {
  const content = (JSON.parse(read('bdns/convocatorias-busqueda.json')) as { content: Array<Record<string, unknown>> })
    .content;
  return content.map((item, i) => ({ ...item, fechaRecepcion: addDays(today, -(i % 4)) }));
}

function bdnsDetails(): Map<string, unknown> {
  const details = new Map<string, unknown>();
  for (const f of ['bdns/convocatoria-912345.json', 'bdns/convocatoria-913870.json']) {
    const d = JSON.parse(read(f)) as { codigoBDNS: string };
    details.set(String(d.codigoBDNS), d);
  }
  for (const d of JSON.parse(read('bdns/convocatorias-detalle.json')) as Array<{ codigoBDNS: string }>)
    details.set(String(d.codigoBDNS), d);
  return details;
}

/** A detail read from a list entry, for list calls the fixtures have no detail of (914002). */
function detailFromItem(item: Record<string, unknown>): unknown {
  return {
    id: item.id,
    codigoBDNS: String(item.numeroConvocatoria),
    descripcion: item.descripcion,
    descripcionLeng: item.descripcionLeng ?? null,
    organo: { nivel1: item.nivel1, nivel2: item.nivel2, nivel3: item.nivel3 ?? null },
    fechaRecepcion: item.fechaRecepcion,
    tipoConvocatoria: 'Concurrencia competitiva - canónica',
    abierto: true,
    advertencia: null,
  };
}

/** The fixture sumario moved to another day: its date, its PDF paths and its identifiers. */
export function sumarioFor(ymd: string): string {
  const [y, m, d] = [ymd.slice(0, 4), ymd.slice(4, 6), ymd.slice(6, 8)];
  return read('boe/sumario-20251103.json')
    .replaceAll('20251103', ymd)
    .replaceAll('2025/11/03', `${y}/${m}/${d}`)
    .replace(/BOE-([ABS])-2025-(\d+)/g, `BOE-$1-${y}-$2${m}${d}`);
}

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
export async function startFakeSources(options: { today: string; delayMs?: number }): Promise<FakeSources> {
  const faults = new Map<string, Fault[]>();
  let delayMs = options.delayMs ?? 0;
  const requests: SeenRequest[] = [];
  const items = bdnsItems(options.today);
  const details = bdnsDetails();
  const sedia = JSON.parse(read('eu/sedia-search.json')) as { results: unknown[] } & Record<string, unknown>;
  let cordisVersion = 1;
  let cordisZip = zipSync({
    'csv/project.csv': strToU8(read('cordis/project.csv')),
    'csv/organization.csv': strToU8(read('cordis/organization.csv')),
  });

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
      const results = sedia.results.slice((n - 1) * size, n * size);
      return {
        key,
        status: 200,
        type: 'application/json',
        payload: JSON.stringify({
          ...sedia,
          pageNumber: n,
          pageSize: size,
          totalResults: sedia.results.length,
          results,
        }),
      };
    }
    if (p === '/eu/grantsTenders.json') {
      if (req.headers['if-none-match'] === '"bulk-1"')
        return { key: 'eu-bulk', status: 304, type: 'application/json', payload: '', headers: { etag: '"bulk-1"' } };
      return {
        key: 'eu-bulk',
        status: 200,
        type: 'application/json',
        payload: read('eu/grantsTenders.json'),
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
      const item = items.find((i) => String(i.numeroConvocatoria) === id);
      const d = details.get(id) ?? (item ? detailFromItem(item) : undefined);
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
      const sunday = new Date(`${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}T12:00:00Z`).getUTCDay() === 0;
      if (sunday)
        return {
          key: `boe:${ymd}`,
          status: 404,
          type: 'application/json',
          payload: '{"status":{"code":"404","text":"No se encontró el sumario original."},"data":""}',
        };
      return { key: `boe:${ymd}`, status: 200, type: 'application/json', payload: sumarioFor(ymd) };
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
      cordisZip = zipSync({
        'csv/project.csv': strToU8(projectCsv),
        'csv/organization.csv': strToU8(read('cordis/organization.csv')),
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

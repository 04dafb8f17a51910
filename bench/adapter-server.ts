/**
 * One of three servers answering GET /row with the same JSON row, for `npm run bench -- adapter`:
 * - raw:    node:http alone (JSON.stringify per request, like a handler);
 * - trio:   lib/http/adapter.ts + itty-router on the light request object (what trio ships);
 * - whatwg: the same router fed a WHATWG Request built per call, answering a WHATWG Response
 *           (the design we did not take).
 * argv: <mode>. Tells the parent {port} over IPC; answers 'cpu' and 'profile:*' (bench/server-control.ts);
 * stops on 'stop'.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Router } from 'itty-router';
import pino from 'pino';
import { createListener } from '../lib/http/adapter.ts';
import { trustNothing } from '../lib/http/client-address.ts';
import { jsonReply, type ApiRequest, type Reply } from '../lib/http/types.ts';
import { answerControl } from './server-control.ts';

export const ROW = {
  id: 'eu:HORIZON-CL5-2027-D3-01-05',
  source: 'eu',
  source_id: 'HORIZON-CL5-2027-D3-01-05',
  title: 'Next-generation thermal energy storage for industrial heat',
  summary: 'Demonstrate thermal storage that decarbonises industrial process heat at scale.',
  funder: 'European Commission',
  programme: 'Horizon Europe (HORIZON)',
  country: 'EU',
  region: null,
  url: 'https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/opportunities/topic-details/HORIZON-CL5-2027-D3-01-05',
  published_on: '2026-05-12',
  opening_on: '2026-09-16',
  deadline: '2027-02-17',
  deadline_time: '17:00',
  deadline_text: null,
  cutoffs: [{ date: '2027-02-17', time: '17:00' }],
  time_zone: 'Europe/Brussels',
  budget: 12_000_000,
  currency: 'EUR',
  language: 'en',
  source_status: 'open',
  status: 'open',
  bdns_id: null,
};

const mode = process.argv[2];
const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, done) => done() }));

function rawListener(_req: IncomingMessage, res: ServerResponse) {
  const body = JSON.stringify({ data: ROW });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function trioListener() {
  const router = Router<ApiRequest, [], Reply>();
  router.get('/row', () => jsonReply(200, { data: ROW }));
  return createListener({
    fetch: (req) => router.fetch(req),
    log: silent,
    clock: Date.now,
    trustProxy: trustNothing,
    bodyLimitBytes: 1_048_576,
  });
}

function whatwgListener() {
  const router = Router<Request, [], Response>();
  router.get(
    '/row',
    () =>
      new Response(JSON.stringify({ data: ROW }), { headers: { 'content-type': 'application/json; charset=utf-8' } }),
  );
  return async (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = (await router.fetch(
      new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method: req.method, headers }),
    ))!;
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'content-length': body.length });
    res.end(body);
  };
}

const listener =
  mode === 'raw' ? rawListener : mode === 'trio' ? trioListener() : mode === 'whatwg' ? whatwgListener() : null;
if (!listener || !process.send) throw new Error('usage: fork bench/adapter-server.ts raw|trio|whatwg (with IPC)');
const server = createServer(listener);
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
answerControl();
process.on('message', (message) => {
  if (message === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});

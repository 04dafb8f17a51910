/**
 * One of the servers answering GET /row with the same JSON row, for `npm run bench -- adapter`:
 * - raw:      node:http alone (JSON.stringify per request, like a handler);
 * - fastify:  Fastify 5, one route replying the object (its own JSON.stringify), the Node framework
 *             baseline (a devDependency of the benchmarks only);
 * - trio:     lib/http/adapter.ts + itty-router on the light request object (what trio ships);
 * - trio-app: the same, the row's route registered after the whole app's route table (every method
 *             and pattern the running app registers, bench/app-routes.ts): the walk must not grow;
 * - whatwg:   the same router fed a WHATWG Request built per call, answering a WHATWG Response
 *             (the design we did not take).
 * argv: <mode>. Tells the parent {port} over IPC; answers 'cpu' and 'profile:*' (bench/server-control.ts);
 * stops on 'stop'.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { Router } from 'itty-router';
import pino from 'pino';
import { createDispatch, createListener } from '../lib/http/adapter.ts';
import { routeWalk } from '../lib/http/route-walk.ts';
import { trustNothing } from '../lib/http/client-address.ts';
import { jsonReply, type ApiRequest, type Reply } from '../lib/http/types.ts';
import { appRouteTable } from './app-routes.ts';
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

function trioListener(table: ReadonlyArray<readonly [string, string]> = []) {
  const router = Router<ApiRequest, [], Reply>();
  // Handlers that answer nothing: a pattern that also matches /row (the catch-alls) lets the walk go on.
  for (const [method, path] of table) router[method.toLowerCase()]!(path, () => undefined);
  router.get('/row', () => jsonReply(200, { data: ROW }));
  return createListener({
    fetch: routeWalk(router),
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

/** Fastify as its users write it: one route, the reply's object serialized by Fastify, no logger. */
async function fastifyServer(): Promise<Server> {
  const app = Fastify({ logger: false, keepAliveTimeout: 5_000 });
  app.get('/row', (_req, reply) => {
    void reply.send({ data: ROW });
  });
  await app.ready();
  return app.server;
}

const listener =
  mode === 'raw'
    ? rawListener
    : mode === 'trio'
      ? trioListener()
      : mode === 'trio-app'
        ? trioListener(await appRouteTable())
        : mode === 'whatwg'
          ? whatwgListener()
          : null;
if ((!listener && mode !== 'fastify') || !process.send)
  throw new Error('usage: fork bench/adapter-server.ts raw|fastify|trio|trio-app|whatwg (with IPC)');
const server = listener ? createServer(listener) : await fastifyServer();
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
answerControl((message) => (message === 'inprocess' ? inProcess() : undefined));
process.on('message', (message) => {
  if (message === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});

/** trio's own work for GET /row in process (no socket), µs a request: bench/adapter.ts prints it. */
export interface InProcess {
  appRoutes: number;
  /** The adapter's dispatch (request id, light request, router, reply headers, no log): one route, the app's table. */
  dispatchOne: number;
  dispatchApp: number;
  /** The same dispatch through itty-router's own `fetch` (as before issue 37), one route. */
  dispatchItty: number;
  /** The router alone: the grouped walk (lib/http/route-walk.ts), then itty-router's own `fetch`. */
  groupedOne: number;
  groupedApp: number;
  ittyOne: number;
  ittyApp: number;
}

async function inProcess(): Promise<InProcess> {
  const table = await appRouteTable();
  const routerOf = (routes: ReadonlyArray<readonly [string, string]>) => {
    const router = Router<ApiRequest, [], Reply>();
    for (const [method, path] of routes) router[method.toLowerCase()]!(path, () => undefined);
    router.get('/row', () => jsonReply(200, { data: ROW }));
    return router;
  };
  const one = routerOf([]);
  const app = routerOf(table);
  const dispatchOf = (router: ReturnType<typeof routerOf>) =>
    createDispatch({
      fetch: routeWalk(router),
      log: silent,
      clock: Date.now,
      trustProxy: trustNothing,
      bodyLimitBytes: 1_048_576,
    });
  const inbound = {
    method: 'GET',
    target: '/row',
    headers: { host: '127.0.0.1', connection: 'keep-alive' },
    socketAddress: '127.0.0.1',
    encrypted: false,
    body: { async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {} },
    closed: () => false,
  };
  const request = (): ApiRequest =>
    ({ method: 'GET', url: 'http://localhost/row', path: '/row', query: {}, params: {}, headers: {} }) as ApiRequest;
  const [dispatchOne, dispatchApp] = [dispatchOf(one), dispatchOf(app)];
  const [walkOne, walkApp] = [routeWalk(one), routeWalk(app)];
  const dispatchItty = createDispatch({
    fetch: (req) => one.fetch(req),
    log: silent,
    clock: Date.now,
    trustProxy: trustNothing,
    bodyLimitBytes: 1_048_576,
  });
  const variants: Record<Exclude<keyof InProcess, 'appRoutes'>, () => unknown> = {
    dispatchOne: () => dispatchOne(inbound),
    dispatchApp: () => dispatchApp(inbound),
    dispatchItty: () => dispatchItty(inbound),
    groupedOne: () => walkOne(request()),
    groupedApp: () => walkApp(request()),
    ittyOne: () => one.fetch(request()),
    ittyApp: () => app.fetch(request()),
  };
  // Each variant in turn, 60 rounds of 500 requests, the fastest round of each: on a shared machine a
  // round that was not preempted is the measure of the work itself.
  const best = Object.fromEntries(Object.keys(variants).map((k) => [k, Infinity])) as Record<
    keyof typeof variants,
    number
  >;
  for (let round = 0; round < 60; round++)
    for (const [name, call] of Object.entries(variants) as Array<[keyof typeof variants, () => unknown]>) {
      const started = performance.now();
      for (let i = 0; i < 500; i++) await call();
      best[name] = Math.min(best[name], ((performance.now() - started) * 1000) / 500);
    }
  return { appRoutes: table.length, ...best };
}

/**
 * The grouped walk (lib/http/route-walk.ts) answers what itty-router's own `fetch` answers: the same
 * requests through both, on the same routers, give the same answer, the same `query`, `params` and
 * `route`, and the same stages called in the same order (a table of the cases itty-router's rules
 * decide, then fast-check over targets built from the characters a URL parser treats specially). And
 * it stays synchronous while every stage does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Router } from 'itty-router';
import { routeWalk } from '../../../lib/http/route-walk.ts';
import type { ApiRequest } from '../../../lib/http/types.ts';

type Calls = string[];
const requestOf = (method: string, target: string): ApiRequest & { calls: Calls } =>
  ({ method, originalMethod: method, url: 'http://localhost' + target, path: target, calls: [] }) as never;

/** A router whose every stage records its call; `answer` says what each handler returns. */
function recordingRouter(options: { before?: 'sync' | 'async' | 'answers'; asyncHandlers?: boolean } = {}) {
  const stage = (name: string, out: unknown) => (req: ApiRequest & { calls: Calls }) => {
    req.calls.push(name);
    if (out instanceof Error) throw out;
    return options.asyncHandlers ? Promise.resolve(out) : out;
  };
  const router = Router<ApiRequest & { calls: Calls }, [], unknown>({
    base: '/svc/v1',
    before: [
      (req) => {
        req.calls.push('before');
        if (options.before === 'answers' && req.path.endsWith('/stop')) return 'stopped by before';
        return options.before === 'async' ? Promise.resolve(undefined) : undefined;
      },
    ],
    catch: (err: unknown, req) => {
      req.calls.push('catch');
      return `caught ${(err as Error).message}`;
    },
    finally: [(res: unknown, req) => (req.calls.push('finally'), res === undefined ? res : `[${String(res)}]`)],
  });
  router
    .get('/things', stage('list', 'things'))
    .get('/things/:id', stage('pass', null), stage('one', 'one thing'))
    .get('/things/:id/parts/:part', stage('part', 'a part'))
    .post('/things', stage('create', 'created'))
    .get('/files/:name.:ext', stage('file', 'a file'))
    .get('/broken', stage('broken', new Error('boom')))
    .get('/skip', stage('skip', undefined))
    .all('/skip', stage('skip-all', 'skipped to ALL'))
    .get('/wild/*', stage('wild', 'wild'))
    .get('/', stage('home', 'home'))
    .all('*', stage('fallback', 'fallback'));
  return router;
}

const TARGETS = [
  '/svc/v1',
  '/svc/v1/',
  '/svc/v1/things',
  '/svc/v1/things/',
  '/svc/v1/things//',
  '/svc/v1/things/42',
  '/svc/v1/things/a%2Fb',
  '/svc/v1/things/42/parts/7',
  '/svc/v1/things/42/parts',
  '/svc/v1/files/report.pdf',
  '/svc/v1/files/report',
  '/svc/v1/broken',
  '/svc/v1/skip',
  '/svc/v1/wild',
  '/svc/v1/wild/a/b/c',
  '/svc/v1/stop',
  '/svc/v1/Things',
  '/svc/v1//things',
  '/svc/v1/./things',
  '/svc/v1/x/../things',
  '/svc/v1/%2e%2e/things',
  '/svc/v1/th%69ngs',
  '/svc/v1/things?id=1&id=2&id=3',
  '/svc/v1/things?a=&a=1&b',
  '/svc/v1/things?q=caf%C3%A9+cr%C3%A8me&q2=a%20b',
  '/svc/v1/things?x=1#fragment',
  '/svc/v1/things#frag?x=1',
  '/svc/v1/things?x="<>`{}|^',
  '/svc/v1/thingsx',
  '/svc/v1x/things',
  '/svc',
  '/',
  '/other/path',
  '/svc/v1/things/é',
  '/svc/v1/things/a b',
  '/svc/v1/things\\42',
];

async function both(router: ReturnType<typeof recordingRouter>, method: string, target: string) {
  const walk = routeWalk(router);
  const viaItty = requestOf(method, target);
  const viaWalk = requestOf(method, target);
  const answers = [await router.fetch(viaItty), await walk(viaWalk)];
  const seen = (req: typeof viaItty) => ({
    query: { ...req.query },
    params: req.params === undefined ? undefined : { ...req.params },
    route: req.route,
    calls: req.calls,
  });
  return { itty: { answer: answers[0], ...seen(viaItty) }, walk: { answer: answers[1], ...seen(viaWalk) } };
}

for (const before of ['sync', 'async', 'answers'] as const)
  for (const asyncHandlers of [false, true])
    test(`the walk answers as itty-router's fetch (before ${before}, handlers ${asyncHandlers ? 'async' : 'sync'})`, async () => {
      const router = recordingRouter({ before, asyncHandlers });
      for (const method of ['GET', 'POST', 'DELETE', 'PATCH'])
        for (const target of TARGETS) {
          const { itty, walk } = await both(router, method, target);
          assert.deepEqual(walk, itty, `${method} ${target}`);
        }
    });

test('routes registered after the first request are walked too', async () => {
  const late = Router<ApiRequest, [], unknown>();
  late.get('/late', () => 'early');
  const lateWalk = routeWalk(late);
  assert.equal(await lateWalk(requestOf('GET', '/late')), 'early');
  late.get('/later/:x', () => 'later');
  assert.equal(await lateWalk(requestOf('GET', '/later/1')), 'later');
});

test('a request whose stages answer synchronously is answered without a promise', () => {
  const walk = routeWalk(recordingRouter());
  const answer = walk(requestOf('GET', '/svc/v1/things/42'));
  assert.equal(answer, '[one thing]');
  assert.ok(routeWalk(recordingRouter({ before: 'async' }))(requestOf('GET', '/svc/v1/things')) instanceof Promise);
});

test('a router without catch: an error is a rejection, as from itty-router', async () => {
  const router = Router<ApiRequest, [], unknown>();
  router.get('/boom', () => {
    throw new Error('boom');
  });
  await assert.rejects(Promise.resolve(routeWalk(router)(requestOf('GET', '/boom'))), /boom/);
  await assert.rejects(router.fetch(requestOf('GET', '/boom')), /boom/);
});

test('random targets: the same answer, query, params and route as itty-router', async () => {
  const router = recordingRouter();
  const segment = fc.stringMatching(
    /^(things|files|wild|parts|42|x\.y|%2e|%2E|\.|\.\.|a%2Fb|é| |\\|#|\?|=|&|\+|%|"|)$/,
  );
  const target = fc
    .array(segment, { maxLength: 5 })
    .chain((segments) =>
      fc
        .constantFrom('/svc/v1', '/svc/v1/', '', '/svc')
        .map((base) => base + (segments.length ? '/' + segments.join('/') : '')),
    );
  await fc.assert(
    fc.asyncProperty(target, fc.constantFrom('GET', 'POST'), async (t, method) => {
      const { itty, walk } = await both(router, method, t.startsWith('/') ? t : '/' + t);
      assert.deepEqual(walk, itty);
    }),
    { numRuns: 400 },
  );
});

/**
 * The in-process client (tests/helpers/in-process.ts) answers what the socket answers: the same
 * requests, once through fetch and the node:http listener and once straight into the app's dispatch,
 * give the same status, headers and body, and the same access log line. The tests that moved off the
 * socket rely on this.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inProcessRequest, type InProcessInit } from '../helpers/in-process.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.cleanup());

// Added by node:http on the wire (framing and keep-alive), not by the pipeline.
const WIRE_ONLY = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const LIMIT_LEFT = /^(x-ratelimit-remaining|ratelimit-remaining)$/;
// The time until the allowance is full again grows with each request counted: present in both.
const LIMIT_RESET = /^x-ratelimit-reset$/;
// A fresh CSRF token per page and its cookie are random, and an explorer page shows the allowance
// left (counted like the headers above): only their shape is compared.
const unrandom = (text: string) =>
  text
    .replace(/(name="csrf" value=")[\w-]+"/g, '$1…"')
    .replace(/^([\w-]+=)[^;]+/gm, '$1…')
    .replace(/\d+ of (\d+) calls left this minute \(all back in \d+ s\)/g, '… of $1 calls left this minute (…)');

function headersOf(res: TestResponse, keep: (name: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of res.headers) if (keep(name)) out[name] = value;
  out['set-cookie'] = unrandom(res.headers.getSetCookie().join('\n'));
  return out;
}

let n = 0;
/** The request over the socket, then in-process, with one request id each so the log lines are found. */
async function both(method: string, path: string, init: InProcessInit = {}) {
  const id = `same-pipeline-${process.pid}-${++n}`;
  const headers = { ...init.headers, 'x-request-id': `${id}-s` };
  const socket = await server.request(method, path, { ...init, headers });
  const inProcess = await inProcessRequest(server.app.dispatch, method, path, {
    ...init,
    headers: { ...headers, 'x-request-id': `${id}-p` },
  });
  return { socket, inProcess, id };
}

function assertSame(socket: TestResponse, inProcess: TestResponse, what: string) {
  assert.equal(inProcess.status, socket.status, what);
  assert.equal(unrandom(inProcess.text), unrandom(socket.text), what);
  // A body that differs only in the allowance shown may differ in length: each length is then its own body's.
  const sameBytes = inProcess.text === socket.text;
  if (!sameBytes)
    for (const res of [socket, inProcess])
      assert.equal(Number(res.headers.get('content-length')), Buffer.byteLength(res.text), what);
  const keep = (name: string) =>
    !WIRE_ONLY.has(name) &&
    name !== 'x-request-id' &&
    !LIMIT_LEFT.test(name) &&
    !LIMIT_RESET.test(name) &&
    (sameBytes || name !== 'content-length');
  assert.deepEqual(headersOf(inProcess, keep), headersOf(socket, keep), what);
  assert.equal(inProcess.headers.has('x-ratelimit-reset'), socket.headers.has('x-ratelimit-reset'), what);
  // The allowance left is counted by the same limiter: one less after the in-process request.
  for (const [name, left] of socket.headers)
    if (LIMIT_LEFT.test(name)) assert.equal(Number(inProcess.headers.get(name)), Number(left) - 1, `${what}: ${name}`);
}

const CASES: Array<[string, string, InProcessInit?]> = [
  ['GET', '/healthz'],
  ['GET', '/funding/v1/sources'],
  ['GET', '/funding/v1/search?q=hidr%C3%B3geno&per_page=3'],
  ['GET', '/funding/v1/search?per_page=0'],
  ['HEAD', '/funding/v1/openapi.json'],
  ['GET', '/impact/v1/openapi.json'],
  ['GET', '/impact/v1/no-such-thing'],
  ['DELETE', '/impact/v1/scenarios'],
  ['GET', '/nope'],
  ['GET', '/explore/funding?q=agua'],
  ['POST', '/human/v1/tasks', { body: '{"capability":', headers: { 'content-type': 'application/json' } }],
  ['POST', '/human/v1/tasks', { body: 'not json' }],
  ['PUT', '/human/v1/tasks'],
  ['GET', '/funding/v1/search', { headers: { 'x-forwarded-for': '203.0.113.9' } }],
];

test('each request gets the same status, headers and body in-process as over the socket', async () => {
  for (const [method, path, init] of CASES) {
    const { socket, inProcess } = await both(method, path, init);
    assertSame(socket, inProcess, `${method} ${path}`);
  }
});

test('a redirect is followed as fetch follows it, or handed back with redirect: manual', async () => {
  for (const redirect of ['follow', 'manual'] as const) {
    const { socket, inProcess } = await both('GET', '/console', { redirect });
    assertSame(socket, inProcess, `GET /console (${redirect})`);
  }
  const manual = await inProcessRequest(server.app.dispatch, 'GET', '/console', { redirect: 'manual' });
  assert.ok([302, 303].includes(manual.status), `the console redirects a visitor: ${manual.status}`);
});

test('the access log line is the same, and in-process requests count in /metrics', async () => {
  const before = await inProcessRequest(server.app.dispatch, 'GET', '/metrics');
  const count = (text: string) =>
    Number(
      /trio_http_requests_total\{service="funding",route="\/funding\/v1\/sources",method="GET",status="200"\} (\d+)/.exec(
        text,
      )?.[1] ?? 0,
    );
  const { id } = await both('GET', '/funding/v1/sources');
  const line = (suffix: string) => {
    const found = server.logs
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'request' && l.reqId === `${id}-${suffix}`);
    assert.ok(found, `a log line for ${suffix}`);
    const { reqId: _id, ms: _ms, time: _time, ...rest } = found;
    return rest;
  };
  assert.deepEqual(line('p'), line('s'));
  const afterwards = await inProcessRequest(server.app.dispatch, 'GET', '/metrics');
  assert.equal(count(afterwards.text), count(before.text) + 2, 'the socket request and the in-process one');
});

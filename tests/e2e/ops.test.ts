/** Operations endpoints and the HTTP behaviour every API shares: CORS, HEAD, 405, 404. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ inProcess: true });
});
after(() => server.cleanup());

test('/healthz and /readyz answer while the database does', async () => {
  assert.deepEqual((await server.get('/healthz')).json, { status: 'ok' });
  const ready = await server.get('/readyz');
  assert.deepEqual(ready.json, { status: 'ready', dependencies: { database: { state: 'up' } } });
  assert.equal(ready.headers.get('cache-control'), 'no-store');
});

test('/metrics is Prometheus text with request counters by route pattern', async () => {
  await server.get('/funding/v1/sources');
  const res = await server.get('/metrics');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/plain/);
  assert.match(
    res.text,
    /trio_http_requests_total\{service="funding",route="\/funding\/v1\/sources",method="GET",status="200"\} \d+/,
  );
  assert.match(res.text, /trio_http_request_duration_seconds_bucket/);
});

test('the home page links the APIs', async () => {
  const res = await server.get('/');
  assert.equal(res.status, 200);
  assert.match(res.text, /\/funding\/v1\/search/);
});

test('unknown paths are 404 in JSON', async () => {
  const res = await server.get('/nope');
  assert.equal(res.status, 404);
  assert.equal(res.json.error, 'not_found');
});

// Funding preflights carry the accounting headers like every response (docs/services/funding.txt, issue 13), so
// they go through the access stage and are counted (as anonymous: a preflight carries no key).
test('CORS: any origin may read the public API; funding preflights are answered with the accounting headers', async () => {
  server.clock.advance(60_000);
  const res = await server.get('/funding/v1/sources', { origin: 'https://example.org' });
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  assert.match(res.headers.get('access-control-expose-headers')!, /X-Quota-Remaining/);
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  const pre = await server.request('OPTIONS', '/funding/v1/search', {
    headers: {
      origin: 'https://example.org',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'x-api-key',
    },
  });
  assert.equal(pre.status, 204);
  assert.match(pre.headers.get('access-control-allow-headers')!, /X-API-Key/);
  assert.match(pre.headers.get('access-control-allow-methods')!, /GET/);
  assert.equal(pre.headers.get('x-api-tier'), 'anonymous');
  assert.equal(
    Number(pre.headers.get('x-ratelimit-remaining')),
    remaining - 1,
    'the preflight carries the rate headers',
  );
  const after = await server.get('/funding/v1/sources');
  assert.equal(Number(after.headers.get('x-ratelimit-remaining')), remaining - 2, 'and was counted like any request');
});

test('HEAD is GET without a body; other methods are 405 with Allow', async () => {
  const head = await server.request('HEAD', '/funding/v1/sources');
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  assert.ok(Number(head.headers.get('content-length')) > 0);
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const res = await server.request(method, '/funding/v1/search', { body: method === 'DELETE' ? undefined : '{}' } as {
      body?: string;
    });
    assert.equal(res.status, 405, method);
    assert.equal(res.json.error, 'method_not_allowed');
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
  }
});

test('/readyz is 503 when the database does not answer, and says so', async () => {
  server.app.db.close();
  const res = await server.get('/readyz');
  assert.equal(res.status, 503);
  assert.equal(res.json.status, 'unavailable');
  assert.equal(res.json.reason, 'database is down: The database connection is not open');
  assert.equal(res.json.dependencies.database.state, 'down');
  assert.equal((await server.get('/healthz')).status, 200, 'the process is still up');
  const api = await server.get('/funding/v1/sources');
  assert.equal(api.status, 503, 'an API request is refused, not a 500');
  assert.equal(api.json.error, 'service_unavailable');
});

/**
 * The URL space (routes/index.ts) routes a request by its path as the URL parser normalises it: a
 * plain path goes straight to its service, any other through the top router, and both give the answer
 * the normalised path gives (dot segments, encoded dots, backslashes, characters the parser encodes),
 * with the route label the metrics use.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ inProcess: true });
});
after(() => server.cleanup());

const ODD = [
  '/funding/v1/../healthz',
  '/funding/v1/../../healthz',
  '/funding/v1/%2e%2e/%2E%2E/healthz',
  '/funding/v1\\..\\..\\healthz',
  '/funding/v1/./sources',
  '/funding/v1/%2e%2e/v1/sources',
  '/funding/v1/%2E/sources',
  '/impact/v1/.',
  '/impact/v1/..',
  '/human/v1/../../funding/v1/sources',
  '/funding/v1\\sources',
  '/funding/v1/sources/',
  '/funding/v1',
  '/funding/v1x/sources',
  '/funding//v1/sources',
  '/explore/../impact/v1/scenarios',
  '/impact/v1/scenarios?scenario=S-MAX',
];

test('an odd path is answered as its normalised form is', async () => {
  for (const path of ODD) {
    const normalised = new URL(path, 'http://localhost');
    const odd = await server.get(path);
    const plain = await server.get(normalised.pathname + normalised.search);
    assert.equal(odd.status, plain.status, `${path} → ${normalised.pathname}`);
  }
});

test('a plain path goes to its service, labelled with the route it matched', async () => {
  await server.get('/funding/v1/sources');
  await server.get('/impact/v1/nowhere');
  await server.get('/funding/v1/../../healthz');
  const metrics = (await server.get('/metrics')).text;
  assert.match(
    metrics,
    /^trio_http_requests_total\{service="funding",route="\/funding\/v1\/sources",method="GET",status="200"\} \d+$/m,
  );
  assert.match(
    metrics,
    /^trio_http_requests_total\{service="impact",route="\/impact\/v1\*",method="GET",status="404"\} \d+$/m,
  );
  assert.match(
    metrics,
    /^trio_http_requests_total\{service="site",route="\/healthz",method="GET",status="200"\} \d+$/m,
  );
});

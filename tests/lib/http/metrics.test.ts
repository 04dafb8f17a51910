/**
 * The request counter and duration histogram (lib/http/metrics.ts) say exactly what prom-client's own
 * inc and observe would have said for the same requests: the same /metrics text, series, buckets,
 * sums and counts, bucket edges included; and the cluster's aggregation of two workers' figures is
 * the sum of each.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client';
import { createMetrics } from '../../../lib/http/metrics.ts';
import type { ApiRequest } from '../../../lib/http/types.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The two request metrics as prom-client alone keeps them. */
function reference() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'trio_http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['service', 'route', 'method', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'trio_http_request_duration_seconds',
    help: 'Time from arrival to the last byte written',
    labelNames: ['service', 'route'],
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    observe(req: Pick<ApiRequest, 'service' | 'route' | 'originalMethod'>, status: number, seconds: number) {
      const service = req.service ?? 'site';
      const route = req.route ?? 'unmatched';
      requests.inc({ service, route, method: req.originalMethod, status: String(status) });
      duration.observe({ service, route }, seconds);
    },
  };
}

/** The two metrics' blocks of a /metrics text. */
async function requestBlocks(registry: Registry): Promise<string> {
  const text = await registry.metrics();
  return text
    .split('\n\n')
    .filter((block) => /trio_http_request(s_total|_duration_seconds)/.test(block))
    .join('\n\n');
}

const request = fc.record({
  service: fc.constantFrom(undefined, 'human', 'funding', 'impact'),
  route: fc.constantFrom(undefined, '/human/v1/tasks/:ref/result', '/funding/v1/search', '/impact/v1/*'),
  originalMethod: fc.constantFrom('GET', 'HEAD', 'POST'),
  status: fc.constantFrom(200, 304, 404, 429, 503),
  // Bucket edges exactly, and values around and beyond them.
  seconds: fc.oneof(fc.constantFrom(...BUCKETS, 0, 3, 1e-9), fc.double({ min: 0, max: 5, noNaN: true })),
});

test("the request metrics are prom-client's own for the same requests", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(request, { maxLength: 60 }), async (requests) => {
      const ours = createMetrics();
      const theirs = reference();
      for (const r of requests) {
        const req = { service: r.service, route: r.route, originalMethod: r.originalMethod } as ApiRequest;
        ours.observe(req, r.status, r.seconds);
        theirs.observe(req, r.status, r.seconds);
      }
      assert.equal(await requestBlocks(ours.registry), await requestBlocks(theirs.registry));
    }),
    { numRuns: 100 },
  );
});

test("a cluster's figures are the sum of its workers'", async () => {
  const a = createMetrics();
  const b = createMetrics();
  const req = { service: 'human', route: '/human/v1/tasks', originalMethod: 'GET' } as ApiRequest;
  a.observe(req, 200, 0.002);
  b.observe(req, 200, 0.2);
  b.observe(req, 200, 0.2);
  const merged = AggregatorRegistry.aggregate([
    await a.registry.getMetricsAsJSON(),
    await b.registry.getMetricsAsJSON(),
  ]);
  const text = await merged.metrics();
  assert.match(
    text,
    /^trio_http_requests_total\{service="human",route="\/human\/v1\/tasks",method="GET",status="200"\} 3$/m,
  );
  assert.match(text, /^trio_http_request_duration_seconds_count\{service="human",route="\/human\/v1\/tasks"\} 3$/m);
  assert.match(
    text,
    /^trio_http_request_duration_seconds_bucket\{le="0.0025",service="human",route="\/human\/v1\/tasks"\} 1$/m,
  );
  assert.match(
    text,
    /^trio_http_request_duration_seconds_bucket\{le="0.25",service="human",route="\/human\/v1\/tasks"\} 3$/m,
  );
});

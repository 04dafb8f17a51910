/**
 * The daily allowance (document "Limits", SPEC "Rate limits and quotas"): 100 requests per address per
 * UTC day, every request counted (errors and 304s too, CORS preflights not), the X-RateLimit headers on
 * every reply, the 101st refused with 429 and Retry-After counting to 00:00 UTC, a keyed caller
 * continuing on its own 10,000, and the count kept across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE, startImpactServer, type ImpactServer } from './harness.ts';

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
});
after(() => server.cleanup());

const untilMidnight = () =>
  Math.ceil(
    (Date.parse(new Date(server.clock.ms).toISOString().slice(0, 10) + 'T00:00:00Z') + 86_400_000 - server.clock.ms) /
      1000,
  );

test('the 101st request of a day from one address is 429 until 00:00 UTC; a key continues; the count survives a restart', async () => {
  server.clock.set('2026-11-23T20:00:00.250Z');
  // A mix of answers: every one counts, 404s and 400s included.
  const paths = [
    '/products',
    '/product/smartphone',
    '/product/no-such-product',
    '/spend?amount=0',
    '/nope',
    '/openapi.json',
    '/',
  ];
  for (let i = 1; i <= 100; i++) {
    if (i === 61) await server.restart();
    const res = await server.anon(paths[i % paths.length]!);
    assert.ok(res.status < 429, `request ${i}: ${res.status}`);
    assert.equal(res.headers.get('x-ratelimit-limit'), '100', `request ${i}`);
    assert.equal(res.headers.get('x-ratelimit-remaining'), String(100 - i), `request ${i}`);
    assert.equal(res.headers.get('x-ratelimit-reset'), String(untilMidnight()), `request ${i}`);
  }
  const refused = await server.anon('/products');
  assert.equal(refused.status, 429);
  assert.deepEqual(refused.json, { error: { status: 429, code: 'rate_limited', detail: refused.json.error.detail } });
  assert.equal(refused.headers.get('retry-after'), String(untilMidnight()));
  assert.equal(refused.headers.get('retry-after'), '14400');
  assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
  assert.equal(refused.headers.get('x-ratelimit-limit'), '100');
  assert.equal(refused.headers.get('x-ratelimit-reset'), '14400');

  // A preflight is not counted and still answered.
  const preflight = await server.request('OPTIONS', `${BASE}/products`, {
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
  });
  assert.equal(preflight.status, 204);

  // A caller with a valid key is counted on the key, not the address.
  const keyed = await server.anon('/products', { authorization: `Bearer ${server.key}` });
  assert.equal(keyed.status, 200);
  assert.equal(keyed.headers.get('x-ratelimit-limit'), '10000');
  // A bad key is counted against the address first: refused by the limit.
  assert.equal((await server.anon('/products', { authorization: 'Bearer ia_nope' })).status, 429);

  // Restarting does not give the address its allowance back.
  await server.restart();
  assert.equal((await server.anon('/products')).status, 429, 'the count was kept across the restart');

  // The last second of the day is still refused; 00:00 UTC opens a new day.
  server.clock.set('2026-11-23T23:59:59.500Z');
  const last = await server.anon('/products');
  assert.equal(last.status, 429);
  assert.equal(last.headers.get('retry-after'), '1');
  server.clock.set('2026-11-24T00:00:00Z');
  const fresh = await server.anon('/products');
  assert.equal(fresh.status, 200);
  assert.equal(fresh.headers.get('x-ratelimit-remaining'), '99');
  assert.equal(fresh.headers.get('x-ratelimit-reset'), '86400');
});

test('a key has 10,000 a day of its own', async () => {
  server.clock.set('2026-11-25T12:00:00Z');
  const key = server.newKey();
  const first = await server.anon('/scenarios', { 'x-api-key': key });
  assert.equal(first.headers.get('x-ratelimit-remaining'), '9999');
  const bucket = server.app.db
    .prepare("SELECT id FROM api_keys WHERE service = 'impact' ORDER BY id DESC LIMIT 1")
    .pluck()
    .get() as number;
  // Spend the rest of the day's allowance directly in the limiter (10,000 HTTP requests would only be slow).
  const limits = server.app.ctx.config.rateLimits.impact.key;
  for (let i = 1; i < 10_000; i++) server.app.ctx.limiter.take(`impact:key:${bucket}`, limits, server.clock.ms);
  const refused = await server.anon('/scenarios', { 'x-api-key': key });
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), String(12 * 3600));
  assert.equal((await server.anon('/scenarios')).status, 200, 'the address still has its own allowance');
});

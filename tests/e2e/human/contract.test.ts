/**
 * The generated OpenAPI 3.1 contract of /human/v1: valid per an independent validator, every route of
 * the router in it and nothing else, and real responses (successes and errors, sandbox and live)
 * validating against it with Ajv.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { responseValidator } from '../../helpers/contract.ts';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS as D,
  startHumanServer,
  verifyOrder,
  type HumanServer,
} from './harness.ts';

let server: HumanServer;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
before(async () => {
  server = await startHumanServer({ inProcess: true });
  doc = (await server.call('GET', '/openapi.json', null)).json;
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

test('the contract is a valid OpenAPI 3.1 document', async () => {
  assert.equal(doc.openapi, '3.1.0');
  const result = await new Validator().validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test('every operation is in the contract, and nothing else', () => {
  const ops = Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
  assert.deepEqual(ops, [
    'GET /balance',
    'GET /capabilities',
    'GET /capabilities/{capability}',
    'GET /coverage',
    'GET /ledger',
    'GET /openapi.json',
    'GET /tasks',
    'GET /tasks/{ref}',
    'GET /tasks/{ref}/evidence',
    'GET /tasks/{ref}/evidence/{evidence}',
    'GET /tasks/{ref}/result',
    'POST /mcp',
    'POST /quote',
    'POST /tasks',
    'POST /tasks/{ref}/cancel',
    'POST /tasks/{ref}/dispute',
  ]);
  assert.deepEqual(doc.paths['/tasks'].post.security, [{ bearer: ['tasks:write'] }, { apiKey: ['tasks:write'] }]);
  const header = doc.paths['/tasks'].post.parameters.find((p: { in: string }) => p.in === 'header');
  assert.equal(header.name, 'Idempotency-Key');
  assert.equal(header.required, true);
  assert.match(
    '"6f1c4c1e-2b7a-4f6e-9a43-0d3d2a1b9c8e"',
    new RegExp(header.schema.pattern),
    'the quoted form is allowed',
  );
});

test('responses validate against the contract, errors included', async () => {
  const check = responseValidator(doc);
  const test = server.account('test');
  const live = server.account('live', { balance: 10_000 });
  const readOnly = server.account('test', { scopes: ['tasks:read'] });
  const sandboxRef = (await server.order(test.key, verifyOrder())).json.data.ref;
  const liveRef = (await server.order(live.key, verifyOrder())).json.data.ref;
  await advance(server, 3 * D);
  const cases: Array<[string, string, string, string | null, unknown, number]> = [
    ['/capabilities', 'GET', '/capabilities', null, undefined, 200],
    ['/capabilities/{capability}', 'GET', '/capabilities/human.photo', null, undefined, 200],
    ['/capabilities/{capability}', 'GET', '/capabilities/human.nope', null, undefined, 404],
    ['/coverage', 'GET', '/coverage', null, undefined, 200],
    [
      '/quote',
      'POST',
      '/quote',
      null,
      { capability: 'human.verify', location: { country_iso: 'FR', city_slug: 'paris' } },
      200,
    ],
    [
      '/quote',
      'POST',
      '/quote',
      null,
      { capability: 'human.verify', location: { country_iso: 'FR', city_slug: 'lille' } },
      200,
    ],
    ['/quote', 'POST', '/quote', null, { capability: 'human.verify' }, 400],
    ['/tasks', 'POST', '/tasks', live.key, verifyOrder({ max_price_cents: 10 }), 409],
    ['/tasks', 'POST', '/tasks', readOnly.key, verifyOrder(), 403],
    ['/tasks', 'GET', '/tasks', test.key, undefined, 200],
    ['/tasks', 'GET', '/tasks', null, undefined, 401],
    ['/tasks/{ref}', 'GET', `/tasks/${sandboxRef}`, test.key, undefined, 200],
    ['/tasks/{ref}', 'GET', `/tasks/${liveRef}`, live.key, undefined, 200],
    ['/tasks/{ref}', 'GET', `/tasks/${liveRef}`, test.key, undefined, 404],
    ['/tasks/{ref}/result', 'GET', `/tasks/${sandboxRef}/result`, test.key, undefined, 200],
    ['/tasks/{ref}/result', 'GET', `/tasks/${liveRef}/result`, live.key, undefined, 200],
    ['/tasks/{ref}/evidence', 'GET', `/tasks/${sandboxRef}/evidence`, test.key, undefined, 200],
    [
      '/tasks/{ref}/dispute',
      'POST',
      `/tasks/${sandboxRef}/dispute`,
      test.key,
      { reason: 'wrong_answer', statement: 'It was closed when I checked myself.' },
      200,
    ],
    ['/tasks/{ref}/cancel', 'POST', `/tasks/${liveRef}/cancel`, live.key, {}, 200],
    ['/tasks/{ref}/cancel', 'POST', `/tasks/${liveRef}/cancel`, live.key, {}, 409],
    ['/balance', 'GET', '/balance', live.key, undefined, 200],
    ['/balance', 'GET', '/balance', test.key, undefined, 200],
    ['/ledger', 'GET', '/ledger', live.key, undefined, 200],
    ['/ledger', 'GET', '/ledger?limit=500', live.key, undefined, 400],
  ];
  for (const [path, method, url, key, body, status] of cases) {
    const res = await server.call(
      method,
      url,
      key,
      body,
      method === 'POST' && path === '/tasks' ? { 'idempotency-key': crypto.randomUUID() } : {},
    );
    assert.equal(res.status, status, `${method} ${url}: ${res.text}`);
    const problem = check(path, method, status, res.json);
    assert.equal(problem, null, `${method} ${url}: ${problem}`);
  }
  // The created task (201).
  const created = await server.order(test.key, verifyOrder());
  assert.equal(check('/tasks', 'POST', 201, created.json), null);
});

test('every documented header is sent', async () => {
  const { key } = server.account('test');
  const res = await server.order(key, verifyOrder());
  for (const name of Object.keys(doc.paths['/tasks'].post.responses['201'].headers)) {
    if (name === 'Idempotent-Replayed') continue; // only on a replay
    assert.ok(res.headers.has(name), `${name} sent`);
  }
});

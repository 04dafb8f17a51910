/**
 * The generated OpenAPI 3.1 contract of /human/v1: valid per an independent validator, every route of
 * the router in it and nothing else, and real responses (successes and errors, sandbox and live)
 * validating against it with Ajv.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
    'DELETE /webhook_endpoints/{id}',
    'GET /balance',
    'GET /capabilities',
    'GET /capabilities/{capability}',
    'GET /coverage',
    'GET /events',
    'GET /events/{id}',
    'GET /ledger',
    'GET /openapi.json',
    'GET /tasks',
    'GET /tasks/{ref}',
    'GET /tasks/{ref}/events',
    'GET /tasks/{ref}/evidence',
    'GET /tasks/{ref}/evidence/{evidence}',
    'GET /tasks/{ref}/result',
    'GET /webhook_endpoints',
    'GET /webhook_endpoints/{id}',
    'POST /events/{id}/replay',
    'POST /mcp',
    'POST /quote',
    'POST /tasks',
    'POST /tasks/{ref}/cancel',
    'POST /tasks/{ref}/dispute',
    'POST /webhook_endpoints',
    'POST /webhook_endpoints/{id}',
    'POST /webhook_endpoints/{id}/rotate_secret',
    'POST /webhook_endpoints/{id}/test',
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

test('security on every operation that needs a key, and only there (POST /mcp included)', () => {
  const open = [
    'GET /capabilities',
    'GET /capabilities/{capability}',
    'GET /coverage',
    'GET /openapi.json',
    'POST /quote',
  ];
  for (const [path, item] of Object.entries(doc.paths) as Array<[string, Record<string, { security?: unknown[] }>]>) {
    for (const [method, op] of Object.entries(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (open.includes(name)) assert.deepEqual(op.security, [{}, { bearer: [] }, { apiKey: [] }], name);
      else assert.ok(Array.isArray(op.security) && op.security.length === 2, `${name} declares its key`);
    }
  }
  assert.deepEqual(doc.paths['/mcp'].post.security, [{ bearer: [] }, { apiKey: [] }]);
});

test('each operation declares the error statuses it can return, and no other', () => {
  const statuses = (path: string, method: string) =>
    Object.keys(doc.paths[path][method].responses)
      .filter((s) => Number(s) >= 400)
      .join(' ');
  // Every operation: a bad parameter or key, the limit, a fault, a busy database.
  assert.equal(statuses('/capabilities', 'get'), '400 401 429 500 503');
  assert.equal(statuses('/coverage', 'get'), '400 401 429 500 503');
  assert.equal(statuses('/capabilities/{capability}', 'get'), '400 401 404 429 500 503');
  assert.equal(statuses('/quote', 'post'), '400 401 413 415 429 500 503');
  assert.equal(statuses('/tasks', 'get'), '400 401 403 429 500 503');
  assert.equal(statuses('/tasks', 'post'), '400 401 402 403 409 413 415 422 429 500 503');
  assert.equal(statuses('/tasks/{ref}/cancel', 'post'), '400 401 403 404 409 413 415 429 500 503');
  assert.equal(statuses('/balance', 'get'), '400 401 403 429 500 503');
  assert.equal(statuses('/webhook_endpoints/{id}', 'delete'), '400 401 403 404 429 500 503');
  assert.match(doc.paths['/tasks'].post.responses['409'].description, /no_one_available/);
  assert.match(doc.paths['/tasks'].post.responses['422'].description, /location_not_served.*sla_not_served/);
});

test('redocly lint (recommended) reports no error in /human/v1/openapi.json', async () => {
  const file = join(server.dir, 'human-openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const cli = join(import.meta.dirname, '..', '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    NO_PROXY: '*',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
  };
  const out = await promisify(execFile)(
    process.execPath,
    [cli, 'lint', '--extends=recommended', '--format=json', file],
    {
      cwd: server.dir,
      env,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const report = JSON.parse(out.stdout) as {
    totals: { errors: number };
    problems: Array<{ severity: string; ruleId: string; message: string; location: Array<{ pointer?: string }> }>;
  };
  const errors = report.problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
  assert.deepEqual(errors, []);
  assert.equal(report.totals.errors, 0);
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
    ['/tasks/{ref}/events', 'GET', `/tasks/${sandboxRef}/events`, test.key, undefined, 200],
    ['/tasks', 'POST', '/tasks', live.key, verifyOrder({ location: { country_iso: 'IT', city_slug: 'rome' } }), 422],
    ['/webhook_endpoints', 'POST', '/webhook_endpoints', test.key, { url: 'http://127.0.0.1:9/hook' }, 201],
    ['/webhook_endpoints', 'POST', '/webhook_endpoints', test.key, { url: 'ftp://example.org' }, 400],
    ['/webhook_endpoints', 'GET', '/webhook_endpoints', test.key, undefined, 200],
    ['/events', 'GET', '/events', test.key, undefined, 200],
    ['/events', 'GET', `/events?task=${sandboxRef}`, test.key, undefined, 200],
    ['/events/{id}', 'GET', '/events/evt_000000000000000000000000', test.key, undefined, 404],
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
  // An endpoint's own operations, and an event with its deliveries.
  const endpoint = (await server.call('GET', '/webhook_endpoints', test.key)).json.data[0].id;
  const firstEvent = (await server.call('GET', '/events', test.key)).json.data[0].id;
  const more: Array<[string, string, string, unknown, number]> = [
    ['/webhook_endpoints/{id}', 'GET', `/webhook_endpoints/${endpoint}`, undefined, 200],
    ['/webhook_endpoints/{id}', 'POST', `/webhook_endpoints/${endpoint}`, { description: 'laptop' }, 200],
    ['/webhook_endpoints/{id}/rotate_secret', 'POST', `/webhook_endpoints/${endpoint}/rotate_secret`, undefined, 200],
    ['/webhook_endpoints/{id}/test', 'POST', `/webhook_endpoints/${endpoint}/test`, undefined, 202],
    ['/events/{id}', 'GET', `/events/${firstEvent}`, undefined, 200],
    ['/events/{id}/replay', 'POST', `/events/${firstEvent}/replay`, undefined, 202],
    ['/webhook_endpoints/{id}', 'DELETE', `/webhook_endpoints/${endpoint}`, undefined, 200],
    ['/webhook_endpoints/{id}', 'GET', `/webhook_endpoints/${endpoint}`, undefined, 404],
  ];
  for (const [path, method, url, body, status] of more) {
    const res = await server.call(method, url, test.key, body);
    assert.equal(res.status, status, `${method} ${url}: ${res.text}`);
    assert.equal(check(path, method, status, res.json), null, `${method} ${url}`);
  }
  // A live order nobody can take: 409 with alternatives, in the contract's shape.
  server.app.db.prepare('UPDATE human_workers SET on_duty = 0').run();
  const refused = await server.order(live.key, verifyOrder());
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.json.error.code, 'no_one_available');
  assert.equal(check('/tasks', 'POST', 409, refused.json), null);
  server.app.db.prepare('UPDATE human_workers SET on_duty = 1').run();
});

test('every documented header is sent', async () => {
  const { key } = server.account('test');
  const res = await server.order(key, verifyOrder());
  for (const name of Object.keys(doc.paths['/tasks'].post.responses['201'].headers)) {
    if (name === 'Idempotent-Replayed') continue; // only on a replay
    assert.ok(res.headers.has(name), `${name} sent`);
  }
});

/**
 * The generated OpenAPI 3.1 contract: valid per an independent validator, every parameter it lists is
 * accepted by the endpoint, a parameter it does not list is refused, every route is in it, and the
 * responses the server sends validate against it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { setSubscription } from '../../../db/accounts.ts';
import { APPLICANT_TYPES } from '../../../lib/funding/applicants.ts';
import { responseValidator } from '../../helpers/contract.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let headers: Record<string, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
before(async () => {
  server = await startTestServer({ inProcess: true });
  const pro = accountWithKey(server.app.db, 'funding', server.clock.ms);
  setSubscription(server.app.db, pro.account.id, 'pro', server.clock.ms);
  headers = { 'x-api-key': pro.key };
  doc = (await server.get('/funding/v1/openapi.json', headers)).json;
});
after(() => server.cleanup());

test('the contract is a valid OpenAPI 3.1 document', async () => {
  assert.equal(doc.openapi, '3.1.0');
  const result = await new Validator().validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test('every operation is in the contract, and nothing else', () => {
  assert.deepEqual(Object.keys(doc.paths).sort(), [
    '/calls/{id}',
    '/calls/{id}/history',
    '/export',
    '/openapi.json',
    '/saved_searches',
    '/saved_searches/{id}',
    '/search',
    '/search.atom',
    '/sources',
  ]);
});

// A value each parameter accepts, derived from its schema where the schema says enough.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function validValue(name: string, schema: any): string {
  const known: Record<string, string> = {
    q: 'ayudas',
    country: 'ES',
    id: 'eu:HORIZON-CL5-2021-D2-01-11',
    region: 'Madrid',
    deadline_from: '2026-01-01',
    deadline_to: '2027-12-31',
    changed_since: '2026-01-01',
    applicant_type: 'sme,unstated',
  };
  if (known[name]) return known[name]!;
  if (schema.enum) return schema.enum[schema.enum.length - 1];
  if (schema.type === 'integer') return String(schema.maximum ?? schema.minimum ?? 1);
  throw new Error(`no valid value for ${name}`);
}

test('every parameter the contract lists is accepted; one it does not list is refused', async () => {
  for (const [path, item] of Object.entries<
    Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }> }>
  >(doc.paths)) {
    const op = item.get!;
    const params = op.parameters ?? [];
    const concrete = path.replace('{id}', encodeURIComponent(validValue('id', {})));
    for (const p of params.filter((p) => p.in === 'query')) {
      if (p.name === 'cursor') continue; // a cursor is only valid as given: checked below
      server.clock.advance(200);
      const res = await server.get(
        `/funding/v1${concrete}?${p.name}=${encodeURIComponent(validValue(p.name, p.schema))}`,
        headers,
      );
      assert.notEqual(res.status, 400, `${path} ${p.name}: ${res.text}`);
    }
    const unlisted = await server.get(`/funding/v1${concrete}?not_in_contract=1`, headers);
    assert.equal(unlisted.status, 400, `${path} refuses an unlisted parameter`);
  }
  const first = await server.get('/funding/v1/search?per_page=1', headers);
  const next = await server.get(`/funding/v1/search?per_page=1&cursor=${first.json.meta.next_cursor}`, headers);
  assert.equal(next.status, 200);
});

test('responses validate against the contract, errors included', async () => {
  const check = responseValidator(doc);
  const search = await server.get('/funding/v1/search?per_page=100', headers);
  const id = search.json.data[0].id;
  const cases: Array<[string, string, number]> = [
    ['/search', '/funding/v1/search?per_page=100', 200],
    ['/search', '/funding/v1/search?q=ayudas&status=open', 200],
    ['/search', '/funding/v1/search?per_page=0', 400],
    ['/calls/{id}', `/funding/v1/calls/${encodeURIComponent(id)}`, 200],
    ['/calls/{id}', '/funding/v1/calls/eu:NOPE', 404],
    ['/sources', '/funding/v1/sources', 200],
  ];
  for (const [path, url, status] of cases) {
    const res = await server.get(url, headers);
    assert.equal(res.status, status, url);
    const problem = check(path, 'GET', status, res.json);
    assert.equal(problem, null, `${url}: ${problem}`);
  }
  const anon401 = await server.get('/funding/v1/search', { 'x-api-key': 'fnd_wrong' });
  assert.equal(check('/search', 'GET', 401, anon401.json), null);
});

test("issue 27's parameters and fields are in the contract with examples; dates declare format: date", () => {
  const params = doc.paths['/search'].get.parameters as Array<{ name: string; schema: Record<string, unknown> }>;
  for (const name of ['applicant_type', 'budget_min', 'budget_max', 'budget_unstated', 'changed_since']) {
    const p = params.find((x) => x.name === name);
    assert.ok(p, `${name} in /search`);
    assert.ok(Array.isArray(p.schema.examples) && p.schema.examples.length > 0, `${name} has examples`);
  }
  for (const name of ['deadline_from', 'deadline_to', 'changed_since']) {
    const p = params.find((x) => x.name === name)!;
    assert.equal(p.schema.format, 'date', name);
    assert.match(String((p.schema.examples as string[])[0]), /^\d{4}-\d{2}-\d{2}$/, name);
  }
  const atomParams = (doc.paths['/search.atom'].get.parameters as Array<{ name: string }>).map((p) => p.name);
  assert.deepEqual(
    atomParams.sort(),
    params
      .map((p) => p.name)
      .filter((n) => n !== 'page' && n !== 'cursor')
      .sort(),
    'the feed takes the search parameters',
  );
  const call = doc.components.schemas.Call.properties;
  for (const field of ['budget', 'award_ceiling', 'currency', 'applicant_types', 'applicants_stated', 'changed_at'])
    assert.ok(Array.isArray(call[field].examples) && call[field].description, `Call.${field} described with examples`);
  assert.deepEqual(call.applicant_types.items.enum, [...APPLICANT_TYPES]);
  assert.ok(doc.paths['/search.atom'].get.responses['200'].content['application/atom+xml']);
  assert.ok(doc.paths['/search'].get.responses['200'].content['application/atom+xml'], '/search offers Atom by Accept');
  assert.deepEqual(doc.paths['/saved_searches'].post.security, [{ apiKey: [] }]);
});

test('every documented header is sent on a 200', async () => {
  const res = await server.get('/funding/v1/search', headers);
  for (const name of Object.keys(doc.paths['/search'].get.responses['200'].headers)) {
    assert.ok(res.headers.has(name), `${name} sent`);
  }
});

test('every value of sort the contract documents is accepted on its own, without q', async () => {
  const values: string[] = doc.paths['/search'].get.parameters.find((p: { name: string }) => p.name === 'sort').schema
    .enum;
  assert.deepEqual([...values].sort(), ['-deadline', 'deadline', 'published', 'relevance']);
  for (const sort of values) {
    for (const path of ['/search', '/export']) {
      server.clock.advance(200);
      const res = await server.get(`/funding/v1${path}?sort=${sort}`, headers);
      assert.equal(res.status, 200, `${path}?sort=${sort}: ${res.text.slice(0, 200)}`);
    }
  }
});

test('every operation declares the key: optional (anonymous or X-API-Key), required only for /export and saved searches', () => {
  for (const [path, item] of Object.entries<Record<string, { security?: unknown }>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const needed = path === '/export' || path.startsWith('/saved_searches');
      const expected = needed ? [{ apiKey: [] }] : [{}, { apiKey: [] }];
      assert.deepEqual(op.security, expected, `${method.toUpperCase()} ${path}`);
    }
  }
  assert.deepEqual(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
});

test('the error codes include service_unavailable, which a 503 answers with', () => {
  const codes: string[] = doc.components.schemas.Error.properties.error.enum;
  for (const code of [
    'bad_request',
    'invalid_key',
    'revoked_key',
    'subscription_required',
    'rate_limited',
    'quota_exceeded',
    'service_unavailable',
    'internal_error',
  ]) {
    assert.ok(codes.includes(code), code);
  }
  assert.match(doc.paths['/search'].get.responses['503'].description, /service_unavailable/);
});

test('a CORS preflight carries the tier and rate headers like every other response', async () => {
  const res = await server.request('OPTIONS', '/funding/v1/search', {
    headers: {
      origin: 'https://example.org',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'x-api-key',
    },
  });
  assert.equal(res.status, 204);
  assert.equal(res.headers.get('x-api-tier'), 'anonymous', 'a preflight carries no key: anonymous');
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-request-id'])
    assert.ok(res.headers.has(name), name);
  assert.equal(res.headers.get('x-ratelimit-limit'), '60');
  assert.match(res.headers.get('access-control-allow-headers')!, /X-API-Key/);
});

test('an independent linter (@redocly/cli lint, recommended rules, offline) reports no error in the served contract', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trio-redocly-'));
  try {
    const file = join(dir, 'funding-openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const bin = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.bin', 'redocly');
    const { stdout } = await promisify(execFile)(bin, ['lint', '--extends', 'recommended', '--format', 'json', file], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' })); // exit 1 when it finds errors: read them
    const report = JSON.parse(stdout) as {
      totals: { errors: number };
      problems: Array<{ severity: string; ruleId: string; message: string }>;
    };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`);
    assert.deepEqual(errors, []);
    assert.equal(report.totals.errors, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

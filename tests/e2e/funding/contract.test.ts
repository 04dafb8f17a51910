/**
 * The generated OpenAPI 3.1 contract: valid per an independent validator, every parameter it lists is
 * accepted by the endpoint, a parameter it does not list is refused, every route is in it, and the
 * responses the server sends validate against it.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { setSubscription } from '../../../db/accounts.ts';
import { responseValidator } from '../../helpers/contract.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let headers: Record<string, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
before(async () => {
  server = await startTestServer();
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
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/calls/{id}', '/export', '/openapi.json', '/search', '/sources']);
});

// A value each parameter accepts, derived from its schema where the schema says enough.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function validValue(name: string, schema: any): string {
  const known: Record<string, string> = {
    q: 'ayudas', country: 'ES', id: 'eu:HORIZON-CL5-2021-D2-01-11', region: 'Madrid', deadline_from: '2026-01-01', deadline_to: '2027-12-31',
  };
  if (known[name]) return known[name]!;
  if (schema.enum) return schema.enum[schema.enum.length - 1];
  if (schema.type === 'integer') return String(schema.maximum ?? schema.minimum ?? 1);
  throw new Error(`no valid value for ${name}`);
}

test('every parameter the contract lists is accepted; one it does not list is refused', async () => {
  for (const [path, item] of Object.entries<Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }> }>>(doc.paths)) {
    const op = item.get!;
    const params = op.parameters ?? [];
    const concrete = path.replace('{id}', encodeURIComponent(validValue('id', {})));
    for (const p of params.filter((p) => p.in === 'query')) {
      if (p.name === 'cursor') continue; // a cursor is only valid as given: checked below
      server.clock.advance(200);
      const res = await server.get(`/funding/v1${concrete}?${p.name}=${encodeURIComponent(validValue(p.name, p.schema))}${p.name === 'sort' ? '&q=ayudas' : ''}`, headers);
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

test('every documented header is sent on a 200', async () => {
  const res = await server.get('/funding/v1/search', headers);
  for (const name of Object.keys(doc.paths['/search'].get.responses['200'].headers)) {
    assert.ok(res.headers.has(name), `${name} sent`);
  }
});

/**
 * The impact API's OpenAPI 3.1 contract at /impact/v1/openapi.json: valid per an independent validator,
 * every route of the router in it and nothing else, every parameter it lists accepted and one it does
 * not list refused, and every 2xx and 4xx response (published, withheld, errors) valid against it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { responseValidator } from '../../helpers/contract.ts';
import { startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
let withheld: ImpactServer;
let doc: Json;
before(async () => {
  [server, withheld] = await Promise.all([
    startImpactServer({ inProcess: true }),
    startImpactServer({ published: false, inProcess: true }),
  ]);
  doc = (await server.api('/openapi.json')).json;
});
after(async () => {
  await Promise.all([server.cleanup(), withheld.cleanup()]);
});

const PATHS = [
  '/',
  '/products',
  '/product/{slug}',
  '/product/{slug}/contributions',
  '/product/{slug}/explain',
  '/compare',
  '/spend',
  '/material/{slug}',
  '/conflict/{slug}',
  '/country/{iso3}',
  '/channel/{code}',
  '/scenarios',
  '/runs',
  '/runs/{id}',
  '/methodology',
  '/sources',
  '/search',
  '/openapi.json',
  // issue 14: the methodology document, so that links resolve on the server
  '/methodology/{code}',
  '/materials',
  '/conflicts',
  '/countries',
  '/categories',
  '/figures.csv',
];
/** Paths whose 200 is not a JSON envelope (a document, a CSV file). */
const NOT_JSON = new Set(['/openapi.json', '/methodology/{code}', '/figures.csv']);

test('the contract is a valid OpenAPI 3.1 document', async () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.servers[0].url, '/impact/v1');
  const result = await new Validator().validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test('every endpoint of the document is in the contract, and nothing else', () => {
  assert.deepEqual(Object.keys(doc.paths).sort(), [...PATHS].sort());
  for (const path of PATHS) {
    assert.deepEqual(
      Object.keys(doc.paths[path]),
      ['get'],
      `${path}: GET only (HEAD and OPTIONS are implied; any other method is 405)`,
    );
    for (const status of ['400', '401', '404', '405', '429', '500', '503'])
      assert.ok(doc.paths[path].get.responses[status], `${path} documents ${status}`);
  }
});

const SAMPLE: Record<string, string> = {
  slug: 'smartphone',
  iso3: 'COD',
  code: 'C1',
  id: '1',
  a: 'smartphone',
  b: 'laptop',
  q: 'cobalt',
  category: '07',
  amount: '250',
};
const concrete = (path: string, slugFor: string) =>
  path.startsWith('/methodology/')
    ? '/methodology/v1'
    : path.replace('{slug}', slugFor).replace(/\{(\w+)\}/g, (_, n: string) => SAMPLE[n]!);
const slugFor = (path: string) =>
  path.startsWith('/material') ? 'cobalt' : path.startsWith('/conflict') ? 'drc-east' : 'smartphone';

// A value each query parameter accepts: its enum's last value, or a sample.
function valueFor(name: string, schema: Json): string {
  if (schema.enum) return schema.enum[schema.enum.length - 1];
  if (name === 'category' && schema.maxLength === 40) return 'electronics';
  return (
    SAMPLE[name] ??
    (() => {
      throw new Error(`no sample for ${name}`);
    })()
  );
}

test('every parameter the contract lists is accepted; one it does not list is refused', async () => {
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    const base = concrete(path, slugFor(path));
    const required = (item.get.parameters ?? []).filter((p: Json) => p.in === 'query' && p.required);
    const requiredQuery = required.map((p: Json) => `${p.name}=${valueFor(p.name, p.schema)}`).join('&');
    for (const p of (item.get.parameters ?? []).filter((x: Json) => x.in === 'query' && !x.required)) {
      if (path.endsWith('/contributions') && p.name === 'type') continue; // type=sector, with the default method: below
      const query = [requiredQuery, `${p.name}=${encodeURIComponent(valueFor(p.name, p.schema))}`]
        .filter(Boolean)
        .join('&');
      const res = await server.api(`${base}?${query}`);
      assert.equal(res.status, 200, `${path} ${p.name}: ${res.text.slice(0, 200)}`);
    }
    const unlisted = await server.api(`${base}?${requiredQuery ? requiredQuery + '&' : ''}not_in_contract=1`);
    assert.equal(unlisted.status, 400, `${path} refuses an unlisted parameter`);
  }
  assert.equal((await server.api('/product/smartphone/contributions?type=sector')).status, 200);
});

describe('responses validate against the contract', () => {
  const cases: Array<[string, string, number, 'published' | 'withheld']> = [];
  for (const path of PATHS.filter((p) => !NOT_JSON.has(p))) {
    const query = path === '/compare' ? '?a=smartphone&b=laptop' : path === '/search' ? '?q=co' : '';
    cases.push([path, concrete(path, slugFor(path)) + query, 200, 'published']);
    if (path !== '/runs/{id}') cases.push([path, concrete(path, slugFor(path)) + query, 200, 'withheld']);
  }
  cases.push(
    ['/products', '/products?sort=toll&tier=finished&scenario=S-ARMS', 200, 'published'],
    [
      '/product/{slug}/contributions',
      '/product/tantalum-capacitor/contributions?method=mrio&metric=injuries',
      200,
      'published',
    ],
    ['/compare', '/compare?a=steel&b=sugar&scenario=S-RES', 200, 'published'],
    ['/spend', '/spend?category=07-01&amount=0.5', 200, 'published'],
    ['/country/{iso3}', '/country/ATA', 200, 'published'],
    ['/channel/{code}', '/channel/C3?scenario=S-EVID', 200, 'published'],
    ['/products', '/products?tier=x', 400, 'published'],
    ['/spend', '/spend?amount=0', 400, 'published'],
    ['/product/{slug}', '/product/nope', 404, 'published'],
    ['/runs/{id}', '/runs/1', 404, 'withheld'],
    ['/country/{iso3}', '/country/ZZZ', 404, 'withheld'],
  );
  test('published, withheld and errors', async () => {
    const check = responseValidator(doc);
    for (const [path, url, status, state] of cases) {
      const res = await (state === 'published' ? server : withheld).api(url);
      assert.equal(res.status, status, `${state} ${url}: ${res.text.slice(0, 300)}`);
      const problem = check(path, 'GET', status, res.json);
      assert.equal(problem, null, `${state} ${url}: ${problem}`);
    }
    const bad = await server.anon('/products', { authorization: 'Bearer ia_nope' });
    assert.equal(check('/products', 'GET', 401, bad.json), null);
  });

  test('every documented header is sent on a 200', async () => {
    const res = await server.api('/product/steel');
    for (const name of Object.keys(doc.paths['/product/{slug}'].get.responses['200'].headers))
      assert.ok(res.headers.has(name), `${name} sent`);
  });
});

test('issue 14: every operation declares the optional key (none, bearer or X-API-Key)', () => {
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      assert.deepEqual(op.security, [{}, { bearer: [] }, { apiKey: [] }], `${method} ${path}`);
    }
  }
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'bearer']);
});

test('issue 14: the error codes are complete: every code the Error schema lists is documented on a status, and every documented one is listed', () => {
  const codes: string[] = doc.components.schemas.Error.properties.error.properties.code.enum;
  const responses = doc.paths['/products'].get.responses;
  const documented = new Set<string>();
  for (const status of ['400', '401', '404', '405', '429', '500', '503']) {
    for (const word of String(responses[status].description).match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [])
      documented.add(word);
  }
  assert.deepEqual([...codes].sort(), [...documented].sort());
});

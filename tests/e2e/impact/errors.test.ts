/**
 * Every 4xx of the impact document's errors table, and every parameter bound (patterns, lengths,
 * enums, amount, q), table-driven: the status, the stable code, and a detail that names the parameter
 * at fault. Values exactly at a bound are accepted (answered 200, or 404 when nothing has that name).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, revokeKey, rotateKey } from '../../../db/accounts.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { BASE, startImpactServer, type ImpactServer } from './harness.ts';

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
  // A run that exists but was never published: /runs/{id} must not serve it.
  server.app.db
    .prepare(
      `INSERT INTO impact_runs SELECT 99, scenario, status, draws, seed, quantiles, methodology_version, data_version, inputs_sha256,
    rows_sha256, engine, illustrative, started_at, finished_at, NULL, failed_gates, summary FROM impact_runs WHERE id = 3`,
    )
    .run();
});
after(() => server.cleanup());

const a = (n: number) => 'a'.repeat(n);

// [path, status, code, the parameter the detail must name (400) or a word it must contain]
const CASES: Array<[string, number, string, string]> = [
  // /products
  ['/products?tier=raw', 400, 'bad_request', 'tier'],
  ['/products?tier=', 400, 'bad_request', 'tier'],
  ['/products?tier=finished&tier=semi_finished', 400, 'bad_request', 'tier'],
  ['/products?category=Electronics', 400, 'bad_request', 'category'],
  ['/products?category=a__b', 400, 'bad_request', 'category'],
  [`/products?category=${a(41)}`, 400, 'bad_request', 'category'],
  [`/products?category=${a(40)}`, 404, 'not_found', 'category'],
  ['/products?category=no-such-category', 404, 'not_found', 'category'],
  ['/products?sort=price', 400, 'bad_request', 'sort'],
  ['/products?scenario=S-FOO', 400, 'bad_request', 'scenario'],
  ['/products?scenario=s-max', 400, 'bad_request', 'scenario'],
  ['/products?limit=5', 400, 'bad_request', 'limit'],
  ['/products?api_key=ia_x', 400, 'bad_request', 'api_key'],
  // /product/{slug}
  ['/product/Smartphone', 400, 'bad_request', 'slug'],
  ['/product/smart_phone', 400, 'bad_request', 'slug'],
  ['/product/smart--phone', 400, 'bad_request', 'slug'],
  ['/product/-smartphone', 400, 'bad_request', 'slug'],
  ['/product/smart%ZZphone', 400, 'bad_request', 'slug'],
  [`/product/${a(81)}`, 400, 'bad_request', 'slug'],
  [`/product/${a(80)}`, 404, 'not_found', 'product'],
  ['/product/no-such-product', 404, 'not_found', 'product'],
  ['/product/smartphone?metric=deaths', 400, 'bad_request', 'metric'],
  ['/product/smartphone?scenario=', 400, 'bad_request', 'scenario'],
  // contributions and explain
  ['/product/smartphone/contributions?metric=births', 400, 'bad_request', 'metric'],
  ['/product/smartphone/contributions?method=eeio', 400, 'bad_request', 'method'],
  ['/product/smartphone/contributions?type=region', 400, 'bad_request', 'type'],
  ['/product/smartphone/contributions?method=mrio&type=material', 400, 'bad_request', 'type'],
  ['/product/no-such-product/contributions', 404, 'not_found', 'product'],
  ['/product/smartphone/explain?method=material', 400, 'bad_request', 'method'],
  ['/product/no-such-product/explain', 404, 'not_found', 'product'],
  // compare
  ['/compare', 400, 'bad_request', 'a'],
  ['/compare?a=smartphone', 400, 'bad_request', 'b'],
  ['/compare?a=Smartphone&b=laptop', 400, 'bad_request', 'a'],
  ['/compare?a=smartphone&b=laptop&metric=lives', 400, 'bad_request', 'metric'],
  ['/compare?a=smartphone&b=no-such-product', 404, 'not_found', "'b'"],
  // spend
  ['/spend?amount=0', 400, 'bad_request', 'amount'],
  ['/spend?amount=-1', 400, 'bad_request', 'amount'],
  ['/spend?amount=1e3', 400, 'bad_request', 'amount'],
  ['/spend?amount=abc', 400, 'bad_request', 'amount'],
  ['/spend?amount=', 400, 'bad_request', 'amount'],
  ['/spend?amount=1000000000.5', 400, 'bad_request', 'amount'],
  ['/spend?amount=1000000001', 400, 'bad_request', 'amount'],
  ['/spend?amount=0.0000000001', 400, 'bad_request', 'amount'],
  ['/spend?amount=1000000000', 200, '', ''],
  ['/spend?amount=0.000000001', 200, '', ''],
  ['/spend?category=7', 400, 'bad_request', 'category'],
  ['/spend?category=07-1', 400, 'bad_request', 'category'],
  ['/spend?category=07.1', 400, 'bad_request', 'category'],
  ['/spend?category=07-011', 400, 'bad_request', 'category'],
  ['/spend?category=99', 404, 'not_found', 'category'],
  ['/spend?category=07-09', 404, 'not_found', 'category'],
  ['/spend?category=15', 200, '', ''],
  // material, conflict
  ['/material/Cobalt', 400, 'bad_request', 'slug'],
  ['/material/no-such-material', 404, 'not_found', 'material'],
  [`/conflict/${a(81)}`, 400, 'bad_request', 'slug'],
  ['/conflict/no-such-conflict', 404, 'not_found', 'conflict'],
  ['/conflict/drc-east?scenario=S-NONE', 400, 'bad_request', 'scenario'],
  // country
  ['/country/CD', 400, 'bad_request', 'iso3'],
  ['/country/CODE', 400, 'bad_request', 'iso3'],
  ['/country/C0D', 400, 'bad_request', 'iso3'],
  ['/country/ZZZ', 404, 'not_found', 'country'],
  ['/country/cOd', 200, '', ''],
  // channel
  ['/channel/C0', 400, 'bad_request', 'code'],
  ['/channel/C6', 400, 'bad_request', 'code'],
  ['/channel/1', 400, 'bad_request', 'code'],
  ['/channel/C11', 400, 'bad_request', 'code'],
  ['/channel/c5', 404, 'not_found', 'channel'],
  // runs
  ['/runs/0', 400, 'bad_request', 'id'],
  ['/runs/-1', 400, 'bad_request', 'id'],
  ['/runs/1.5', 400, 'bad_request', 'id'],
  ['/runs/abc', 400, 'bad_request', 'id'],
  ['/runs/9999', 404, 'not_found', 'run'],
  ['/runs/99', 404, 'not_found', 'run'],
  ['/runs?scenario=S-MAX', 400, 'bad_request', 'scenario'],
  // search
  ['/search', 400, 'bad_request', 'q'],
  ['/search?q=a', 400, 'bad_request', 'q'],
  [`/search?q=${a(65)}`, 400, 'bad_request', 'q'],
  [`/search?q=${a(64)}`, 200, '', ''],
  ['/search?q=ab', 200, '', ''],
  ['/search?q=ab&type=product', 400, 'bad_request', 'type'],
  // no parameters at all
  ['/?x=1', 400, 'bad_request', 'x'],
  ['/scenarios?scenario=S-MAX', 400, 'bad_request', 'scenario'],
  ['/methodology?x=1', 400, 'bad_request', 'x'],
  ['/sources?x=1', 400, 'bad_request', 'x'],
  ['/openapi.json?x=1', 400, 'bad_request', 'x'],
  // no such path
  ['/nope', 404, 'not_found', 'path'],
  ['/product/smartphone/nope', 404, 'not_found', 'path'],
  ['/products/smartphone', 404, 'not_found', 'path'],
];

describe('every 4xx and every parameter bound', () => {
  for (const [path, status, code, names] of CASES) {
    test(`${path} → ${status}`, async () => {
      const res = await server.api(path);
      assert.equal(res.status, status, res.text);
      if (status === 200) return;
      assert.deepEqual(Object.keys(res.json), ['error']);
      assert.deepEqual(Object.keys(res.json.error), ['status', 'code', 'detail']);
      assert.equal(res.json.error.status, status);
      assert.equal(res.json.error.code, code);
      assert.ok(res.json.error.detail.includes(names), `detail names ${names}: ${res.json.error.detail}`);
      if (status === 400)
        assert.match(
          res.json.error.detail,
          /must be|Missing|not valid|Accepted|takes no|breaks down by|give it once|never in the URL/,
          'says what is accepted',
        );
    });
  }
});

describe('keys (401 is never served as anonymous)', () => {
  const expect401 = async (headers: Record<string, string>, why: string) => {
    const res = await server.anon('/products', headers);
    assert.equal(res.status, 401, `${why}: ${res.text}`);
    assert.equal(res.json.error.code, 'invalid_key');
    assert.match(res.headers.get('x-ratelimit-remaining')!, /^\d+$/, 'counted against the address, with its headers');
  };

  test('an unknown key, a key of another service, a malformed Authorization', async () => {
    await expect401({ authorization: 'Bearer ia_notakey' }, 'garbage');
    await expect401({ 'x-api-key': 'ia_' + 'x'.repeat(49) }, 'bad checksum');
    const funding = accountWithKey(server.app.db, 'funding', server.clock.ms).key;
    await expect401({ 'x-api-key': funding }, 'a funding key');
    await expect401({ authorization: 'Basic dXNlcjpwYXNz' }, 'not Bearer');
  });

  test('a revoked key and an expired (rotated) key', async () => {
    const revoked = accountWithKey(server.app.db, 'impact', server.clock.ms);
    revokeKey(server.app.db, revoked.row.id, server.clock.ms);
    await expect401({ authorization: `Bearer ${revoked.key}` }, 'revoked');
    const rotated = accountWithKey(server.app.db, 'impact', server.clock.ms);
    rotateKey(server.app.db, rotated.row.id, server.clock.ms, server.clock.ms + 1000);
    assert.equal(
      (await server.anon('/products', { 'x-api-key': rotated.key })).status,
      200,
      'valid during its grace period',
    );
    server.clock.advance(1000);
    await expect401({ 'x-api-key': rotated.key }, 'expired');
  });

  test('a valid key in either header; two different keys are refused', async () => {
    const { account, key } = accountWithKey(server.app.db, 'impact', server.clock.ms);
    assert.equal(
      (await server.anon('/products', { authorization: `Bearer ${key}` })).headers.get('x-ratelimit-limit'),
      '10000',
    );
    assert.equal((await server.anon('/products', { 'x-api-key': key })).headers.get('x-ratelimit-limit'), '10000');
    const other = createKey(
      server.app.db,
      { accountId: account.id, service: 'impact', name: 'second' },
      server.clock.ms,
    ).key;
    const both = await server.anon('/products', { authorization: `Bearer ${key}`, 'x-api-key': other });
    assert.equal(both.status, 400);
    assert.match(both.json.error.detail, /Authorization/);
  });
});

test('bad input never produces a 500', async () => {
  const weird = [
    '/product/%00',
    '/product/%C0%AF',
    '/search?q=%00%00',
    '/search?q=%F0%9F%98%80%F0%9F%98%80',
    '/spend?amount=%20100',
    '/country/%E2%82%AC%E2%82%AC%E2%82%AC',
    '/compare?a=a&a=b&b=c',
    `/search?q=${'%25'.repeat(40)}`,
    '/runs/99999999999999999999',
  ];
  for (const path of weird) {
    const res = await server.get(BASE + path, { authorization: `Bearer ${server.key}` });
    assert.ok(res.status < 500, `${path}: ${res.status} ${res.text}`);
  }
});

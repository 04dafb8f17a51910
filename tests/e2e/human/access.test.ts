/**
 * Keys and limits of the human API: both headers (names in any case), unknown, revoked and expired
 * keys refused with 401 on every endpoint (public ones too, never served as anonymous), one bucket of
 * 120 a minute per key, 60 a minute per address without a key, 429 rate_limited with Retry-After,
 * and the error shape on 404, 405 and friends.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createKey, revokeKey, rotateKey } from '../../../db/accounts.ts';
import { formatKey, parseKey } from '../../../lib/keys.ts';
import { BASE, checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer();
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const nextMinute = () =>
  server.clock.set(new Date(Math.floor(server.clock.ms / 60_000) * 60_000 + 60_000).toISOString());
const ENDPOINTS: Array<[string, string, unknown?]> = [
  ['GET', '/capabilities'],
  ['GET', '/capabilities/human.verify'],
  ['GET', '/coverage'],
  ['POST', '/quote', { capability: 'human.verify', location: { country_iso: 'FR', city_slug: 'paris' } }],
  ['GET', '/tasks'],
  ['POST', '/tasks', verifyOrder()],
  ['GET', '/tasks/tsk_00000000000000000000'],
  ['GET', '/balance'],
  ['GET', '/ledger'],
  ['GET', '/openapi.json'],
];

describe('keys', () => {
  test('Authorization: Bearer and X-Api-Key both work, header names in any case', async () => {
    nextMinute();
    const { key } = server.account('test');
    const variants: Array<Record<string, string>> = [
      { Authorization: `Bearer ${key}` },
      { authorization: `bearer ${key}` },
      { 'X-Api-Key': key },
      { 'x-api-key': key },
      { 'X-API-KEY': key },
    ];
    for (const headers of variants) {
      const res = await server.request('GET', `${BASE}/tasks`, { headers });
      assert.equal(res.status, 200, JSON.stringify(Object.keys(headers)));
    }
    const same = await server.request('GET', `${BASE}/tasks`, {
      headers: { authorization: `Bearer ${key}`, 'x-api-key': key },
    });
    assert.equal(same.status, 200, 'the same key twice is fine');
  });

  test('an unknown, revoked, expired or wrong-service key is 401 on every endpoint, public ones included', async () => {
    nextMinute();
    const revoked = server.account('test');
    revokeKey(
      server.app.db,
      server.app.db.prepare('SELECT id FROM api_keys WHERE account_id = ?').pluck().get(revoked.accountId) as number,
      server.clock.ms,
    );
    const rotated = server.account('test');
    const oldId = server.app.db
      .prepare('SELECT id FROM api_keys WHERE account_id = ?')
      .pluck()
      .get(rotated.accountId) as number;
    rotateKey(server.app.db, oldId, server.clock.ms, server.clock.ms); // the old key expires now
    const funding = createKey(
      server.app.db,
      { accountId: revoked.accountId, service: 'funding', name: 'f' },
      server.clock.ms,
    ).key;
    // Well formed, checksum included, and never issued (an edited real key could come out unchanged).
    const neverIssued = formatKey('ho_test_', randomBytes(32));
    assert.ok(parseKey(neverIssued), 'the made-up key passes the checksum, so the lookup is what refuses it');
    const cases: Array<[string, string, string]> = [
      ['a made-up key', 'ho_test_not-a-real-key', 'unauthorized'],
      ['a checksum-valid key nobody issued', neverIssued, 'unauthorized'],
      ['a revoked key', revoked.key, 'key_revoked'],
      ['an expired key (rotated)', rotated.key, 'key_revoked'],
      ['a funding key', funding, 'unauthorized'],
    ];
    for (const [name, key, code] of cases) {
      nextMinute();
      for (const [method, path, body] of ENDPOINTS) {
        const res = await server.call(
          method,
          path,
          key,
          body,
          method === 'POST' ? { 'idempotency-key': crypto.randomUUID() } : {},
        );
        assert.equal(res.status, 401, `${name}: ${method} ${path}`);
        assert.equal(res.json.error.code, code, `${name}: ${method} ${path}`);
      }
    }
  });

  test('a malformed Authorization is 401; two different keys are 400', async () => {
    nextMinute();
    const a = server.account('test');
    const b = server.account('test');
    const basic = await server.request('GET', `${BASE}/tasks`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    assert.equal(basic.status, 401);
    assert.match(basic.json.error.message, /Bearer/);
    const two = await server.request('GET', `${BASE}/tasks`, {
      headers: { authorization: `Bearer ${a.key}`, 'x-api-key': b.key },
    });
    assert.equal(two.status, 400);
    assert.match(two.json.error.message, /different keys/);
  });

  test('no Idempotency-Key header at all is 400 idempotency_key_required', async () => {
    const { key } = server.account('test');
    const res = await server.call('POST', '/tasks', key, verifyOrder());
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, 'idempotency_key_required');
  });
});

describe('limits', () => {
  test('120 calls a minute per key; the 121st is 429 rate_limited with Retry-After of one slot (0.5 s → 1); then one more', async () => {
    server.clock.set('2026-11-23T08:00:15Z');
    const { key } = server.account('test');
    for (let i = 1; i <= 120; i++) {
      const res = await server.call('GET', '/tasks', key);
      assert.equal(res.status, 200, `call ${i}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(120 - i));
    }
    const refused = await server.call('GET', '/capabilities', key);
    assert.equal(refused.status, 429);
    assert.equal(refused.json.error.code, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('x-ratelimit-limit'), '120');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(refused.headers.get('x-ratelimit-reset'), '60', 'the whole allowance is back 60 s after the burst');
    const other = server.account('test');
    assert.equal((await server.call('GET', '/tasks', other.key)).status, 200, 'another key has its own bucket');
    server.clock.advance(1_000);
    assert.equal((await server.call('GET', '/tasks', key)).status, 200, 'after Retry-After: one slot');
    assert.equal((await server.call('GET', '/tasks', key)).status, 200, 'a second slot: 1 s is two slots of 0.5 s');
    assert.equal((await server.call('GET', '/tasks', key)).status, 429, 'and no more');
    server.clock.advance(60_000);
    const fresh = await server.call('GET', '/tasks', key);
    assert.equal(fresh.headers.get('x-ratelimit-remaining'), '119', 'a minute later the whole allowance is back');
  });

  test('the bucket is human:key:<id>, so anything else spending it (the MCP server) is counted with REST', async () => {
    server.clock.set('2026-11-23T09:00:00Z');
    const { key, accountId } = server.account('test');
    const keyId = server.app.db
      .prepare('SELECT id FROM api_keys WHERE account_id = ?')
      .pluck()
      .get(accountId) as number;
    for (let i = 0; i < 100; i++)
      server.app.ctx.limiter.take(`human:key:${keyId}`, { perMinute: 120, perDay: null }, server.clock.ms);
    const res = await server.call('GET', '/tasks', key);
    assert.equal(res.headers.get('x-ratelimit-remaining'), '19');
  });

  test('60 calls a minute per address without a key; bad keys are counted there too', async () => {
    server.clock.set('2026-11-23T10:00:30Z');
    for (let i = 1; i <= 59; i++) assert.equal((await server.call('GET', '/coverage', null)).status, 200, `call ${i}`);
    assert.equal(
      (await server.call('GET', '/coverage', 'ho_test_guess')).status,
      401,
      'the 60th: a guessed key, counted against the address',
    );
    const refused = await server.call('GET', '/coverage', null);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1', 'one slot of 60 s / 60');
    assert.equal(refused.headers.get('x-ratelimit-limit'), '60');
  });
});

describe('the rest of the URL space', () => {
  test("unknown paths are 404, known paths under another method 405 with Allow, in the service's error shape", async () => {
    nextMinute();
    const missing = await server.call('GET', '/nope', null);
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error.code, 'not_found');
    const wrong = await server.call('DELETE', '/tasks', null);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.json.error.code, 'method_not_allowed');
    assert.deepEqual(wrong.headers.get('allow')!.split(', ').sort(), ['GET', 'HEAD', 'OPTIONS', 'POST']);
  });

  test('HEAD works like GET without a body; OPTIONS preflights are answered and not counted', async () => {
    nextMinute();
    const head = await server.request('HEAD', `${BASE}/coverage`);
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    const pre = await server.request('OPTIONS', `${BASE}/tasks`, {
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(pre.status, 204);
    assert.match(pre.headers.get('access-control-allow-headers')!, /Idempotency-Key/);
    assert.equal(pre.headers.get('x-ratelimit-remaining'), null);
  });

  test('public catalogue answers are cacheable: ETag, and 304 when unchanged', async () => {
    nextMinute();
    const first = await server.call('GET', '/capabilities', null);
    const etag = first.headers.get('etag')!;
    assert.match(first.headers.get('cache-control')!, /public, max-age=300/);
    const again = await server.call('GET', '/capabilities', null, undefined, { 'if-none-match': etag });
    assert.equal(again.status, 304);
    const quote = await server.call('POST', '/quote', null, {
      capability: 'human.verify',
      location: { country_iso: 'FR', city_slug: 'paris' },
    });
    assert.equal(quote.headers.get('cache-control'), 'no-store', 'a quote is not cached');
  });
});

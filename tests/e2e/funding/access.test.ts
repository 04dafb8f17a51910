/**
 * Tiers, limits, keys and the accounting headers (document "Authentication" and "Limits"), against the
 * real server with an injected clock: the 61st anonymous call in a minute, the 1,001st basic call in a
 * day, upgrade and lapse taking effect at once, counts kept across a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { revokeKey, rotateKey, setSubscription } from '../../../db/accounts.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.cleanup());

const nextMinute = () =>
  server.clock.set(new Date(Math.floor(server.clock.ms / 60_000) * 60_000 + 60_000).toISOString());
const key = (k: string) => ({ 'x-api-key': k });

function assertHeaders(res: { headers: Headers }, tier: string, perMinute: number, perDay: number | null) {
  assert.equal(res.headers.get('x-api-tier'), tier);
  assert.equal(res.headers.get('x-ratelimit-limit'), String(perMinute));
  assert.match(res.headers.get('x-ratelimit-remaining')!, /^\d+$/);
  assert.match(res.headers.get('x-request-id')!, /.{8,}/);
  if (perDay === null) {
    for (const h of ['x-quota-limit', 'x-quota-remaining', 'x-quota-reset'])
      assert.equal(res.headers.get(h), null, `${h} absent for anonymous`);
  } else {
    assert.equal(res.headers.get('x-quota-limit'), String(perDay));
    assert.match(res.headers.get('x-quota-remaining')!, /^\d+$/);
    assert.match(res.headers.get('x-quota-reset')!, /^\d+$/);
  }
}

describe('headers on every response, for each tier, errors included', () => {
  const paths = [
    '/funding/v1/search',
    '/funding/v1/sources',
    '/funding/v1/calls/eu:NOPE',
    '/funding/v1/search?per_page=0',
    '/funding/v1/nope',
    '/funding/v1/export',
    '/funding/v1/openapi.json',
  ];
  test('anonymous', async () => {
    nextMinute();
    for (const path of paths) assertHeaders(await server.get(path), 'anonymous', 60, null);
  });
  test('basic', async () => {
    nextMinute();
    const { key: k } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    for (const path of paths) assertHeaders(await server.get(path, key(k)), 'basic', 120, 1000);
  });
  test('pro', async () => {
    nextMinute();
    const { key: k, account } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    setSubscription(server.app.db, account.id, 'pro', server.clock.ms);
    for (const path of paths) assertHeaders(await server.get(path, key(k)), 'pro', 600, 25000);
  });
  test('X-Quota-Remaining counts this call; X-Quota-Reset counts down to 00:00 UTC', async () => {
    server.clock.set('2026-11-25T23:00:00Z');
    const { key: k } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    const first = await server.get('/funding/v1/sources', key(k));
    assert.equal(first.headers.get('x-quota-remaining'), '999');
    assert.equal(first.headers.get('x-quota-reset'), '3600');
    const second = await server.get('/funding/v1/sources', key(k));
    assert.equal(second.headers.get('x-quota-remaining'), '998');
    assert.equal(second.headers.get('x-ratelimit-remaining'), '118');
  });
});

describe('limits', () => {
  test('the 61st anonymous call at once is 429 rate_limited with Retry-After of one slot (1 s); a minute later all 60 are back', async () => {
    server.clock.set('2026-11-26T08:00:10Z');
    for (let i = 1; i <= 60; i++) {
      const res = await server.get('/funding/v1/sources');
      assert.equal(res.status, 200, `call ${i}`);
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(60 - i));
    }
    const refused = await server.get('/funding/v1/sources');
    assert.equal(refused.status, 429);
    assert.equal(refused.json.error, 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '1');
    assertHeaders(refused, 'anonymous', 60, null);
    server.clock.advance(1_000);
    assert.equal((await server.get('/funding/v1/sources')).status, 200, 'after Retry-After');
    assert.equal((await server.get('/funding/v1/sources')).status, 429, 'one slot only');
    server.clock.advance(60_000);
    assert.equal((await server.get('/funding/v1/sources')).headers.get('x-ratelimit-remaining'), '59');
  });

  test('the 1,001st basic call in a day is 429 quota_exceeded, Retry-After to 00:00 UTC; a keyed account is counted, not each key', async () => {
    server.clock.set('2026-11-27T00:00:00Z');
    const { key: k, account } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    const { createKey } = await import('../../../db/accounts.ts');
    const second = createKey(
      server.app.db,
      { accountId: account.id, service: 'funding', name: 'second' },
      server.clock.ms,
    ).key;
    for (let i = 1; i <= 1000; i++) {
      if (i % 120 === 1) server.clock.advance(60_000); // stay under 120 a minute
      const res = await server.get('/funding/v1/sources', key(i % 2 ? k : second));
      assert.equal(res.status, 200, `call ${i}`);
      if (i === 1000) assert.equal(res.headers.get('x-quota-remaining'), '0');
    }
    server.clock.advance(60_000);
    const refused = await server.get('/funding/v1/sources', key(k));
    assert.equal(refused.status, 429);
    assert.equal(refused.json.error, 'quota_exceeded');
    const untilMidnight = Math.ceil((Date.parse('2026-11-28T00:00:00Z') - server.clock.ms) / 1000);
    assert.equal(refused.headers.get('retry-after'), String(untilMidnight));
    assert.equal(refused.headers.get('x-quota-reset'), String(untilMidnight));
    assert.equal(
      (await server.get('/funding/v1/sources', key(second))).status,
      429,
      'the same account: the same allowance',
    );
    // Upgrading takes effect at once, for the keys already issued.
    setSubscription(server.app.db, account.id, 'pro', server.clock.ms);
    const upgraded = await server.get('/funding/v1/sources', key(k));
    assert.equal(upgraded.status, 200);
    assert.equal(upgraded.headers.get('x-api-tier'), 'pro');
    // Lapsing too.
    setSubscription(server.app.db, account.id, null, server.clock.ms);
    const lapsed = await server.get('/funding/v1/sources', key(k));
    assert.equal(lapsed.headers.get('x-api-tier'), 'basic');
    assert.equal(lapsed.status, 429);
    // A new UTC day renews the allowance.
    server.clock.set('2026-11-28T00:00:00Z');
    assert.equal((await server.get('/funding/v1/sources', key(k))).status, 200);
  });

  test('a subscription that ends at a set time lapses at that time', async () => {
    server.clock.set('2026-11-29T10:00:00Z');
    const { key: k, account } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    setSubscription(server.app.db, account.id, 'pro', server.clock.ms, Date.parse('2026-11-29T12:00:00Z'));
    assert.equal((await server.get('/funding/v1/sources', key(k))).headers.get('x-api-tier'), 'pro');
    server.clock.set('2026-11-29T12:00:00Z');
    assert.equal((await server.get('/funding/v1/sources', key(k))).headers.get('x-api-tier'), 'basic');
  });

  test('daily counts are kept across a restart', async () => {
    server.clock.set('2026-11-30T10:00:00Z');
    const { key: k } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    for (let i = 0; i < 5; i++) await server.get('/funding/v1/sources', key(k));
    await server.restart();
    const res = await server.get('/funding/v1/sources', key(k));
    assert.equal(res.headers.get('x-quota-remaining'), '994');
  });
});

describe('keys', () => {
  test('a key in the query string is a 400 saying where to send it', async () => {
    nextMinute();
    const { key: k } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    for (const name of ['api_key', 'apikey', 'key']) {
      const res = await server.get(`/funding/v1/search?${name}=${k}`);
      assert.equal(res.status, 400);
      assert.equal(res.json.error, 'bad_request');
      assert.match(res.json.message, /X-API-Key header/);
      assert.ok(!res.text.includes(k), 'the key is not echoed');
    }
  });

  test('Authorization is refused: keys go only in X-API-Key', async () => {
    nextMinute();
    const { key: k } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    const res = await server.get('/funding/v1/search', { authorization: `Bearer ${k}` });
    assert.equal(res.status, 400);
    assert.match(res.json.message, /only in the X-API-Key header/);
  });

  test("unknown, malformed and other services' keys are 401 invalid_key, never anonymous", async () => {
    nextMinute();
    const human = accountWithKey(server.app.db, 'human', server.clock.ms).key;
    const good = accountWithKey(server.app.db, 'funding', server.clock.ms).key;
    const forged = good.slice(0, 10) + (good[10] === 'A' ? 'B' : 'A') + good.slice(11);
    for (const bad of ['', 'fnd_', 'nonsense', forged, human, good + 'x']) {
      const res = await server.get('/funding/v1/search', key(bad));
      assert.equal(res.status, 401, JSON.stringify(bad));
      assert.equal(res.json.error, 'invalid_key');
      assertHeaders(res, 'anonymous', 60, null);
    }
  });

  test('revoked and expired keys are 401 revoked_key from the next request; rotation keeps both working', async () => {
    nextMinute();
    const { key: oldKey, row } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    const rotated = rotateKey(server.app.db, row.id, server.clock.ms, server.clock.ms + 3_600_000);
    assert.equal(
      (await server.get('/funding/v1/sources', key(oldKey))).status,
      200,
      'old key works during the grace period',
    );
    assert.equal((await server.get('/funding/v1/sources', key(rotated.key))).status, 200, 'new key works');
    server.clock.advance(3_600_000);
    const expired = await server.get('/funding/v1/sources', key(oldKey));
    assert.equal(expired.status, 401);
    assert.equal(expired.json.error, 'revoked_key');
    revokeKey(server.app.db, rotated.row.id, server.clock.ms);
    const revoked = await server.get('/funding/v1/sources', key(rotated.key));
    assert.equal(revoked.status, 401);
    assert.equal(revoked.json.error, 'revoked_key');
  });

  test('key use updates last_used_at, written behind', async () => {
    nextMinute();
    const { key: k, row } = accountWithKey(server.app.db, 'funding', server.clock.ms);
    await server.get('/funding/v1/sources', key(k));
    server.app.ctx.writeBehind.flush();
    const used = server.app.db.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').pluck().get(row.id);
    assert.equal(used, server.clock.ms);
  });

  test('no key ever reaches a log line', async () => {
    const keys = server.app.db.prepare('SELECT count(*) FROM api_keys').pluck().get() as number;
    assert.ok(keys > 5);
    const joined = server.logs.join('\n');
    assert.doesNotMatch(joined, /fnd_[0-9A-Za-z]{20,}/);
    assert.doesNotMatch(joined, /ho_(test|live)_[0-9A-Za-z]{20,}/);
  });
});

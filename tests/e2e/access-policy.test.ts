/**
 * One security spec, three configurations: the same cases run against the access stage of each
 * service (lib/http/access.ts with routes/<service>/access.ts's policy), over real HTTP. Each case
 * states what every service must do (SPEC "Keys", "Rate limits and quotas"); the configuration says
 * only how that service spells it: its paths, the headers it takes a key in, its error body and codes,
 * and which window its limits count. Limits are small (5 anonymous, 8 keyed) so exhaustion is cheap,
 * and every case comes from an address of its own (X-Forwarded-For, TRUST_PROXY=loopback).
 *
 * Service-specific behaviour (funding's tiers by plan, the human MCP endpoint, impact's daily reset)
 * stays in each service's own access tests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { revokeKey, rotateKey, type Service } from '../../db/accounts.ts';
import { KEY_QUERY_NAMES, type ServiceLimits } from '../../lib/limits.ts';
import { accountWithKey } from '../helpers/keys.ts';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/server.ts';

const ANONYMOUS = 5;
const KEYED = 8;

interface ServiceCase {
  service: Service;
  /** A GET that needs no key and answers 200. */
  path: string;
  /** Headers a key may be presented in. */
  keyHeaders: Array<'authorization' | 'x-api-key'>;
  /** The error code of a body in this service's documented shape. */
  codeOf: (res: TestResponse) => string;
  codes: {
    keyInQuery: [number, string];
    unknown: [number, string];
    revoked: [number, string];
    expired: [number, string];
    /** `Authorization: Basic …` */
    authorizationBasic: [number, string];
    /** Authorization and X-API-Key naming different keys. */
    conflict: [number, string];
    limited: string;
  };
  /** The window the limits count: a refused client waits one slot (minute) or until 00:00 UTC (day). */
  window: 'minute' | 'day';
}

const CASES: ServiceCase[] = [
  {
    service: 'funding',
    path: '/funding/v1/sources',
    keyHeaders: ['x-api-key'],
    codeOf: (res) => res.json.error,
    codes: {
      keyInQuery: [400, 'bad_request'],
      unknown: [401, 'invalid_key'],
      revoked: [401, 'revoked_key'],
      expired: [401, 'revoked_key'],
      authorizationBasic: [400, 'bad_request'],
      conflict: [400, 'bad_request'],
      limited: 'rate_limited',
    },
    window: 'minute',
  },
  {
    service: 'human',
    path: '/human/v1/capabilities',
    keyHeaders: ['authorization', 'x-api-key'],
    codeOf: (res) => res.json.error.code,
    codes: {
      keyInQuery: [400, 'invalid_request'],
      unknown: [401, 'unauthorized'],
      revoked: [401, 'key_revoked'],
      expired: [401, 'key_revoked'],
      authorizationBasic: [401, 'unauthorized'],
      conflict: [400, 'invalid_request'],
      limited: 'rate_limited',
    },
    window: 'minute',
  },
  {
    service: 'impact',
    path: '/impact/v1/scenarios',
    keyHeaders: ['authorization', 'x-api-key'],
    codeOf: (res) => res.json.error.code,
    codes: {
      keyInQuery: [400, 'bad_request'],
      unknown: [401, 'invalid_key'],
      revoked: [401, 'invalid_key'],
      expired: [401, 'invalid_key'],
      authorizationBasic: [401, 'invalid_key'],
      conflict: [400, 'bad_request'],
      limited: 'rate_limited',
    },
    window: 'day',
  },
];

/** The documents' limits scaled down: the same windows, so the same code paths. */
const smallLimits = (): ServiceLimits => ({
  funding: {
    anonymous: { perMinute: ANONYMOUS, perDay: null },
    basic: { perMinute: KEYED, perDay: 1_000 },
    pro: { perMinute: KEYED, perDay: 25_000 },
  },
  human: { anonymous: { perMinute: ANONYMOUS, perDay: null }, key: { perMinute: KEYED, perDay: null } },
  impact: { anonymous: { perMinute: null, perDay: ANONYMOUS }, key: { perMinute: null, perDay: KEYED } },
});

let server: TestServer;
before(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: 'loopback' }, rateLimits: smallLimits, inProcess: true });
  server.clock.set('2026-11-25T12:00:00.000Z');
});
after(() => server?.cleanup());

let addresses = 0;
/** A client address no other case has used: its own anonymous bucket. */
const freshAddress = () => `198.51.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const present = (header: 'authorization' | 'x-api-key', key: string): Record<string, string> =>
  header === 'authorization' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };

const remaining = (res: TestResponse) => Number(res.headers.get('x-ratelimit-remaining'));

for (const c of CASES) {
  describe(`${c.service}: access`, () => {
    const newKey = () => accountWithKey(server.app.db, c.service, server.clock.ms, keyExtra(c.service));
    const get = (from: string, headers: Record<string, string> = {}, query = '') =>
      server.get(c.path + query, { 'x-forwarded-for': from, ...headers });
    const assertRefused = (res: TestResponse, [status, code]: [number, string], what: string) => {
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.equal(c.codeOf(res), code, what);
      assert.ok(res.headers.get('x-ratelimit-limit'), `${what}: the accounting headers are on the refusal too`);
    };

    test('no key: served anonymously, counted against the address, headers on the reply', async () => {
      const from = freshAddress();
      const first = await get(from);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-ratelimit-limit'), String(ANONYMOUS));
      assert.equal(remaining(first), ANONYMOUS - 1);
      assert.equal(remaining(await get(from)), ANONYMOUS - 2, 'each request takes one');
      assert.equal(remaining(await get(freshAddress())), ANONYMOUS - 1, 'another address has its own bucket');
    });

    for (const header of c.keyHeaders) {
      test(`a valid key in ${header}: served on the key's allowance, not the address's`, async () => {
        const from = freshAddress();
        const { key } = newKey();
        const keyed = await get(from, present(header, key));
        assert.equal(keyed.status, 200, keyed.text);
        assert.equal(keyed.headers.get('x-ratelimit-limit'), String(KEYED));
        assert.equal(remaining(keyed), KEYED - 1);
        assert.equal(remaining(await get(from)), ANONYMOUS - 1, 'the address was not charged for the keyed call');
      });
    }

    test('a key in the URL is refused under every usual name, in any case, and never echoed', async () => {
      const { key } = newKey();
      for (const name of [...KEY_QUERY_NAMES, 'API_KEY', 'Key']) {
        const res = await get(freshAddress(), {}, `?${name}=${encodeURIComponent(key)}`);
        assertRefused(res, c.codes.keyInQuery, `?${name}=`);
        assert.ok(res.text.includes(name), `the message names the parameter '${name}': ${res.text}`);
        assert.ok(!res.text.includes(key), 'the key is not echoed back');
      }
    });

    test('a key this service did not issue is 401, never served as anonymous', async () => {
      const other = c.service === 'impact' ? 'funding' : 'impact';
      const { key: foreign } = accountWithKey(server.app.db, other, server.clock.ms);
      const { key: own } = newKey();
      const unknownOwn = own.slice(0, -6) + (own.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA'); // checksum fails
      for (const header of c.keyHeaders) {
        for (const [what, presented] of [
          ['another service', foreign],
          ['not a key at all', 'hunter2'],
          ['a damaged key', unknownOwn],
        ] as const) {
          assertRefused(await get(freshAddress(), present(header, presented)), c.codes.unknown, `${what} in ${header}`);
        }
      }
    });

    test('a revoked key is 401, and so is a rotated key once its grace period has ended', async () => {
      const revoked = newKey();
      revokeKey(server.app.db, revoked.row.id, server.clock.ms);
      const rotated = newKey();
      const replacement = rotateKey(server.app.db, rotated.row.id, server.clock.ms, server.clock.ms + 60_000);
      for (const header of c.keyHeaders) {
        assertRefused(await get(freshAddress(), present(header, revoked.key)), c.codes.revoked, `revoked, ${header}`);
        assert.equal((await get(freshAddress(), present(header, rotated.key))).status, 200, 'within its grace');
      }
      server.clock.advance(60_000);
      for (const header of c.keyHeaders) {
        assertRefused(await get(freshAddress(), present(header, rotated.key)), c.codes.expired, `expired, ${header}`);
        assert.equal(
          (await get(freshAddress(), present(header, replacement.key))).status,
          200,
          'its replacement works',
        );
      }
    });

    test('Authorization that is not a bearer key, and two different keys, are refused', async () => {
      const { key } = newKey();
      const { key: second } = newKey();
      assertRefused(
        await get(freshAddress(), { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` }),
        c.codes.authorizationBasic,
        'Authorization: Basic',
      );
      assertRefused(
        await get(freshAddress(), { authorization: `Bearer ${key}`, 'x-api-key': second }),
        c.codes.conflict,
        'two keys',
      );
    });

    test('every refused credential is counted against the address: guessing keys is limited like anonymous traffic', async () => {
      const from = freshAddress();
      for (let i = 0; i < ANONYMOUS; i++) {
        const res = await get(from, present(c.keyHeaders[0]!, `guess-${i}`));
        assertRefused(res, c.codes.unknown, `guess ${i}`);
        assert.equal(remaining(res), ANONYMOUS - 1 - i, 'the guess took one from the address');
      }
      const refused = await get(from, present(c.keyHeaders[0]!, 'one-more-guess'));
      assert.equal(refused.status, 429, 'the address is spent: a further guess is rate limited, not answered');
      assert.equal(c.codeOf(refused), c.codes.limited);
      assert.equal((await get(from)).status, 429, 'and so is anonymous traffic from it');
    });

    test('the allowance runs out: 429 with Retry-After, and other buckets are untouched', async () => {
      const from = freshAddress();
      const { key } = newKey();
      const headers = present(c.keyHeaders[0]!, key);
      for (let i = 0; i < KEYED; i++) assert.equal((await get(from, headers)).status, 200, `keyed call ${i + 1}`);
      const refused = await get(from, headers);
      assert.equal(refused.status, 429);
      assert.equal(c.codeOf(refused), c.codes.limited);
      assert.equal(remaining(refused), 0);
      const retryAfter = Number(refused.headers.get('retry-after'));
      // One GCRA slot is 60 s / limit; a daily quota renews at 00:00 UTC.
      const toMidnight = Math.ceil((86_400_000 - (server.clock.ms % 86_400_000)) / 1000);
      assert.equal(retryAfter, c.window === 'minute' ? Math.ceil(60 / KEYED) : toMidnight);
      assert.equal((await get(from)).status, 200, 'the address still has its own allowance');
      assert.equal((await get(from, present(c.keyHeaders[0]!, newKey().key))).status, 200, 'another key too');
      if (c.window === 'minute') {
        server.clock.advance(retryAfter * 1000);
        assert.equal((await get(from, headers)).status, 200, 'waiting Retry-After is enough');
      }
    });
  });
}

/** Human keys are sandbox or live; the spec's cases are the same for both. */
function keyExtra(service: Service) {
  return service === 'human' ? { environment: 'test' as const } : {};
}

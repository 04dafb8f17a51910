/**
 * POST /tasks over real HTTP: sandbox and live orders, every bad input refused with a clear 4xx and
 * nothing stored (table-driven), the price ceiling, the balance, scopes, quote_id, and idempotency
 * (replay, 422 on another body, 24-hour retention, scoped per account and environment).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const count = (table: string) => server.app.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
const stored = () => ({
  tasks: count('human_tasks'),
  holds: count('human_holds'),
  journals: count('human_journals'),
  idempotency: count('human_idempotency'),
});

describe('orders', () => {
  test('a sandbox order: 201, ref, poll_after_s, Location, no money', async () => {
    const { key } = server.account('test');
    const res = await server.order(key, verifyOrder());
    assert.equal(res.status, 201);
    assert.match(res.json.data.ref, /^tsk_[0-9A-Za-z]{20}$/);
    assert.equal(res.json.data.status, 'pending');
    assert.equal(res.json.data.environment, 'sandbox');
    assert.equal(res.json.data.price_cents, 1800);
    assert.equal(typeof res.json.data.poll_after_s, 'number');
    assert.equal(res.headers.get('location'), `/human/v1/tasks/${res.json.data.ref}`);
    assert.equal(res.headers.get('idempotent-replayed'), null);
    assert.equal(count('human_holds'), 0);
  });

  test('a live order holds the price on the balance, in the same transaction', async () => {
    const { key } = server.account('live', { balance: 5000 });
    const res = await server.order(key, verifyOrder({ sla: 'express', max_price_cents: 3400 }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.data.price_cents, 3400);
    assert.equal(res.json.data.environment, 'live');
    const balance = await server.call('GET', '/balance', key);
    assert.deepEqual(balance.json.data, {
      environment: 'live',
      currency: 'EUR',
      available_cents: 1600,
      held_cents: 3400,
      open_holds: 1,
      note: null,
    });
  });

  test('a price above max_price_cents is 409 price_above_max; nothing is ordered or held', async () => {
    const { key } = server.account('live', { balance: 5000 });
    const before = stored();
    const res = await server.order(key, verifyOrder({ max_price_cents: 1799 }));
    assert.equal(res.status, 409);
    assert.equal(res.json.error.code, 'price_above_max');
    assert.match(res.json.error.message, /1800 cents, above max_price_cents 1799/);
    assert.deepEqual(stored(), before);
  });

  test('a live order the balance does not cover is 402; no task exists', async () => {
    const { key } = server.account('live', { balance: 1799 });
    const before = stored();
    const res = await server.order(key, verifyOrder());
    assert.equal(res.status, 402);
    assert.equal(res.json.error.code, 'insufficient_balance');
    assert.deepEqual(stored(), before);
    const nothing = server.account('live');
    assert.equal((await server.order(nothing.key, verifyOrder())).status, 402, 'an account never credited');
  });

  test('a read-only key can quote and list but not order (403 forbidden_scope)', async () => {
    const { key, accountId } = server.account('test', { scopes: ['tasks:read'] });
    assert.equal(
      (
        await server.call('POST', '/quote', key, {
          capability: 'human.verify',
          location: { country_iso: 'FR', city_slug: 'paris' },
        })
      ).status,
      200,
    );
    assert.equal((await server.call('GET', '/tasks', key)).status, 200);
    const res = await server.order(key, verifyOrder());
    assert.equal(res.status, 403);
    assert.equal(res.json.error.code, 'forbidden_scope');
    assert.match(res.json.error.message, /tasks:write/);
    // Cancel and dispute too, on a task of its own account (made with a key that may write).
    const { createKey } = await import('../../../db/accounts.ts');
    const writer = createKey(
      server.app.db,
      { accountId, service: 'human', name: 'w', environment: 'test' },
      server.clock.ms,
    ).key;
    const ref = (await server.order(writer, verifyOrder())).json.data.ref;
    assert.equal((await server.call('GET', `/tasks/${ref}/result`, key)).status, 200, 'it can collect');
    for (const [path, body] of [
      [`/tasks/${ref}/cancel`, undefined],
      [`/tasks/${ref}/dispute`, { reason: 'other', statement: 'Not what I asked for at all.' }],
    ] as const) {
      const refused = await server.call('POST', path, key, body);
      assert.equal(refused.status, 403, path);
      assert.equal(refused.json.error.code, 'forbidden_scope');
    }
    const writeOnly = server.account('test', { scopes: ['tasks:write'] });
    assert.equal((await server.call('GET', '/tasks', writeOnly.key)).json.error.code, 'forbidden_scope');
  });

  test('a quote_id is honoured until it expires, for its own terms only', async () => {
    const { key } = server.account('test');
    const quote = (
      await server.call('POST', '/quote', null, {
        capability: 'human.verify',
        location: { country_iso: 'FR', city_slug: 'lyon' },
      })
    ).json.data;
    assert.equal(quote.status, 'quoted');
    // The operator raises prices after the quote: the quote still holds.
    server.app.db
      .prepare("UPDATE human_prices SET price_cents = 9999 WHERE capability = 'human.verify' AND city_slug = 'lyon'")
      .run();
    const lyon = {
      location: { country_iso: 'FR', city_slug: 'lyon' },
      quote_id: quote.quote_id,
      max_price_cents: 1500,
    };
    const honoured = await server.order(key, verifyOrder(lyon));
    assert.equal(honoured.status, 201, honoured.text);
    assert.equal(honoured.json.data.price_cents, 1500);
    const other = await server.order(key, verifyOrder({ ...lyon, sla: 'express', max_price_cents: 99_999 }));
    assert.match(other.json.error.message, /other terms/);
    const forged = await server.order(
      key,
      verifyOrder({ ...lyon, quote_id: quote.quote_id.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')) }),
    );
    assert.equal(forged.json.error.code, 'invalid_request');
    server.clock.advance(15 * 60_000);
    const late = await server.order(key, verifyOrder(lyon));
    assert.equal(late.status, 400);
    assert.match(late.json.error.message, /quote expired/);
    server.app.db
      .prepare(
        "UPDATE human_prices SET price_cents = 1500 WHERE capability = 'human.verify' AND city_slug = 'lyon' AND sla = 'standard'",
      )
      .run();
  });
});

describe('bad input: a clear 4xx naming what is wrong, and nothing stored', () => {
  const cases: Array<{
    name: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    status: number;
    code: string;
    message: RegExp;
  }> = [
    {
      name: 'no Idempotency-Key',
      headers: { 'idempotency-key': '' },
      status: 400,
      code: 'idempotency_key_required',
      message: /needs the Idempotency-Key header: a UUID/,
    },
    {
      name: 'an Idempotency-Key that is not a UUID',
      headers: { 'idempotency-key': 'order-1' },
      status: 400,
      code: 'idempotency_key_required',
      message: /must be a UUID/,
    },
    {
      name: 'no Content-Type',
      headers: { 'content-type': '' },
      status: 415,
      code: 'unsupported_media_type',
      message: /application\/json/,
    },
    {
      name: 'a form instead of JSON',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      status: 415,
      code: 'unsupported_media_type',
      message: /got 'application\/x-www-form-urlencoded'/,
    },
    {
      name: 'JSON in another charset',
      headers: { 'content-type': 'application/json; charset=latin1' },
      status: 415,
      code: 'unsupported_media_type',
      message: /application\/json/,
    },
    {
      name: 'malformed JSON',
      raw: '{"capability": "human.verify",',
      status: 400,
      code: 'invalid_request',
      message: /not valid JSON/,
    },
    { name: 'an empty body', raw: '', status: 400, code: 'invalid_request', message: /body is empty/ },
    {
      name: 'a JSON array',
      body: [verifyOrder()],
      status: 400,
      code: 'invalid_request',
      message: /must be a JSON object/,
    },
    {
      name: 'an unknown field',
      body: verifyOrder({ rush: true }),
      status: 400,
      code: 'invalid_request',
      message: /Unknown field 'rush'/,
    },
    {
      name: 'an unknown capability',
      body: verifyOrder({ capability: 'human.teleport' }),
      status: 400,
      code: 'invalid_request',
      message: /Unknown capability 'human.teleport'. Known: human.verify/,
    },
    {
      name: 'an unknown sla',
      body: verifyOrder({ sla: 'overnight' }),
      status: 400,
      code: 'invalid_request',
      message: /Unknown sla 'overnight'. Known: standard, express/,
    },
    {
      name: 'a spec missing a field',
      body: verifyOrder({ spec: { claim: 'x' } }),
      status: 400,
      code: 'invalid_request',
      message: /Missing required field 'spec.subject'/,
    },
    {
      name: 'a spec with a stray field',
      body: verifyOrder({ spec: { claim: 'x', subject: 'y', photo: true } }),
      status: 400,
      code: 'invalid_request',
      message: /Unknown field 'spec.photo'/,
    },
    {
      name: 'a spec of the wrong type',
      body: verifyOrder({ spec: { claim: 42, subject: 'y' } }),
      status: 400,
      code: 'invalid_request',
      message: /spec.claim/,
    },
    {
      name: 'an over-long claim',
      body: verifyOrder({ spec: { claim: 'x'.repeat(501), subject: 'y' } }),
      status: 400,
      code: 'invalid_request',
      message: /1 to 500 characters/,
    },
    {
      name: 'a location not served',
      body: verifyOrder({ location: { country_iso: 'IT', city_slug: 'rome' } }),
      status: 422,
      code: 'location_not_served',
      message: /not served in Roma \(IT\/rome\) yet.*Nothing was ordered. POST \/quote lists the same alternatives/,
    },
    {
      name: 'an SLA not served there',
      body: verifyOrder({ location: { country_iso: 'ES', city_slug: 'valencia' }, sla: 'express' }),
      status: 422,
      code: 'sla_not_served',
      message: /served in ES\/valencia, but not with sla 'express'/,
    },
    {
      name: 'a lower-case country',
      body: verifyOrder({ location: { country_iso: 'fr', city_slug: 'paris' } }),
      status: 400,
      code: 'invalid_request',
      message: /location.country_iso/,
    },
    {
      name: 'max_price_cents as text',
      body: verifyOrder({ max_price_cents: '2000' }),
      status: 400,
      code: 'invalid_request',
      message: /max_price_cents/,
    },
    {
      name: 'no max_price_cents',
      body: verifyOrder({ max_price_cents: undefined }),
      status: 400,
      code: 'invalid_request',
      message: /Missing required field 'max_price_cents'/,
    },
    {
      name: 'a query parameter',
      headers: {},
      body: verifyOrder(),
      status: 400,
      code: 'invalid_request',
      message: /Unknown query parameter 'dry_run'/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const { key } = server.account('live', { balance: 100_000 });
      const before = stored();
      const body = c.raw ?? JSON.stringify(c.body ?? verifyOrder());
      const path = c.name === 'a query parameter' ? '/human/v1/tasks?dry_run=1' : '/human/v1/tasks';
      const res = await server.request('POST', path, {
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
          ...c.headers,
        },
        body,
      });
      assert.equal(res.status, c.status, res.text);
      assert.deepEqual(Object.keys(res.json), ['error']);
      // An order the catalogue does not serve also says what it does serve nearby.
      const served = c.code === 'location_not_served' || c.code === 'sla_not_served';
      assert.deepEqual(Object.keys(res.json.error), ['code', 'message', ...(served ? ['alternatives'] : [])]);
      if (served) assert.ok(res.json.error.alternatives.length > 0);
      assert.equal(res.json.error.code, c.code);
      assert.match(res.json.error.message, c.message);
      assert.deepEqual(stored(), before, 'nothing stored');
    });
  }

  test("a body over the size limit is 413 in the service's error shape", async () => {
    const { key } = server.account('test');
    const res = await server.order(key, verifyOrder({ spec: { claim: 'x'.repeat(1_100_000), subject: 'y' } }));
    assert.equal(res.status, 413);
    assert.equal(res.json.error.code, 'payload_too_large');
  });
});

describe('idempotency', () => {
  test('the same key and body replays the first answer byte for byte, with Idempotent-Replayed', async () => {
    const { key } = server.account('live', { balance: 10_000 });
    const id = randomUUID();
    const first = await server.order(key, verifyOrder(), id);
    server.clock.advance(5000);
    // The same order, keys in another order, the Idempotency-Key quoted and upper-cased:
    const reordered = JSON.stringify({
      max_price_cents: 2000,
      location: { city_slug: 'paris', country_iso: 'FR' },
      spec: verifyOrder().spec,
      capability: 'human.verify',
    });
    const again = await server.request('POST', '/human/v1/tasks', {
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': `"${id.toUpperCase()}"`,
      },
      body: reordered,
    });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    assert.equal((await server.call('GET', '/balance', key)).json.data.held_cents, 1800, 'charged once');
  });

  test('the same key with another body is 422, and stores nothing', async () => {
    const { key } = server.account('test');
    const id = randomUUID();
    await server.order(key, verifyOrder(), id);
    const before = stored();
    const res = await server.order(key, verifyOrder({ max_price_cents: 2001 }), id);
    assert.equal(res.status, 422);
    assert.equal(res.json.error.code, 'idempotency_key_reused');
    assert.deepEqual(stored(), before);
  });

  test('a refused order records nothing: the same key works once the cause is fixed', async () => {
    const { key, accountId } = server.account('live', { balance: 1000 });
    const id = randomUUID();
    assert.equal((await server.order(key, verifyOrder(), id)).status, 402);
    const { credit } = await import('../../../db/human/ledger.ts');
    server.app.db.transaction(() => credit(server.app.db, accountId, 1000, 'more', server.clock.ms)).immediate();
    assert.equal((await server.order(key, verifyOrder(), id)).status, 201);
  });

  test('records are scoped per account and environment, and kept 24 hours', async () => {
    const a = server.account('test');
    const b = server.account('test');
    const id = randomUUID();
    const first = await server.order(a.key, verifyOrder(), id);
    const other = await server.order(b.key, verifyOrder(), id);
    assert.equal(other.status, 201);
    assert.notEqual(other.json.data.ref, first.json.data.ref, 'another account: its own order');
    server.clock.advance(24 * 3_600_000 - 1000);
    assert.equal((await server.order(a.key, verifyOrder(), id)).headers.get('idempotent-replayed'), 'true');
    server.clock.advance(2000);
    const fresh = await server.order(a.key, verifyOrder(), id);
    assert.equal(fresh.headers.get('idempotent-replayed'), null, 'after 24 hours a key starts a new order');
    assert.notEqual(fresh.json.data.ref, first.json.data.ref);
  });
});

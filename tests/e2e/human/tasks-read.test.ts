/**
 * Reading tasks: GET /tasks (the caller's only, newest first, filters, cursor pages), GET /tasks/{ref},
 * result and evidence; another account's ref and the other environment's ref are 404 (never 403);
 * bad parameters are named 400s. Table-driven where cases differ by data.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS as D,
  startHumanServer,
  verifyOrder,
  type HumanServer,
} from './harness.ts';

let server: HumanServer;
let owner: { key: string; accountId: number };
const refs: string[] = [];
before(async () => {
  server = await startHumanServer({ inProcess: true });
  owner = server.account('test');
  // Five orders, a minute apart: three verify (one cancelled), two photo.
  for (let i = 0; i < 5; i++) {
    const body =
      i < 3
        ? verifyOrder({ spec: { claim: 'sandbox:stay_pending', subject: `shop ${i}` } })
        : {
            capability: 'human.photo',
            spec: { subject: `door ${i}` },
            location: { country_iso: 'ES', city_slug: 'madrid' },
            max_price_cents: 900,
          };
    const res = await server.order(owner.key, body);
    assert.equal(res.status, 201, res.text);
    refs.push(res.json.data.ref);
    server.clock.advance(60_000);
  }
  await server.call('POST', `/tasks/${refs[1]}/cancel`, owner.key);
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const list = async (query: string, key = owner.key) => server.call('GET', `/tasks${query}`, key);
const T0 = Date.parse('2026-11-22T10:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describe('GET /tasks', () => {
  const cases: Array<[string, string, number[]]> = [
    ['everything, newest first', '', [4, 3, 2, 1, 0]],
    ['by status', '?status=cancelled', [1]],
    ['by status with nothing', '?status=delivered', []],
    ['by capability', '?capability=human.photo', [4, 3]],
    ['created at or after', `?created_after=${at(2)}`, [4, 3, 2]],
    ['created before', `?created_before=${at(2)}`, [1, 0]],
    ['a window and a capability', `?created_after=${at(1)}&created_before=${at(4)}&capability=human.verify`, [2, 1]],
  ];
  for (const [name, query, expected] of cases) {
    test(name, async () => {
      const res = await list(query);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.json.data.map((t: { ref: string }) => refs.indexOf(t.ref)),
        expected,
      );
    });
  }

  test('cursor pages walk everything once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.json.data.length <= 2);
      seen.push(...res.json.data.map((t: { ref: string }) => t.ref));
      cursor = res.json.meta.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [...refs].reverse());
  });

  test('another account sees none of them; the live key of the same account neither', async () => {
    assert.deepEqual((await list('', server.account('test').key)).json.data, []);
    const { key: live } = server.account('live');
    assert.deepEqual((await list('', live)).json.data, []);
  });

  const bad: Array<[string, RegExp]> = [
    [
      '?status=done',
      /Invalid query parameter 'status': must be one status or several separated by commas, each one of: pending/,
    ],
    ['?limit=0', /'limit': must be an integer from 1 to 100/],
    ['?limit=101', /'limit'/],
    ['?created_after=yesterday', /'created_after': must be an ISO 8601 instant/],
    ['?created_after=2026-11-22T10:00:00', /ISO 8601 instant with a zone/],
    [`?created_after=${at(3)}&created_before=${at(1)}`, /created_after must be before created_before/],
    ['?cursor=!!', /'cursor'/],
    ['?cursor=bm9wZQ', /cursor is not a next_cursor/],
    [
      '?sort=oldest',
      /Unknown query parameter 'sort'. Accepted parameters: status, capability, client_reference, metadata, created_after, created_before, limit, cursor/,
    ],
    ['?status=pending&status=cancelled', /given more than once/],
  ];
  for (const [query, message] of bad) {
    test(`refuses ${query}`, async () => {
      const res = await list(query);
      assert.equal(res.status, 400);
      assert.equal(res.json.error.code, 'invalid_request');
      assert.match(res.json.error.message, message);
    });
  }
});

describe('one task', () => {
  test('GET /tasks/{ref}, its result and its evidence', async () => {
    const res = await server.call('GET', `/tasks/${refs[0]}`, owner.key);
    assert.equal(res.status, 200);
    assert.equal(res.json.data.ref, refs[0]);
    assert.deepEqual(res.json.data.spec, { claim: 'sandbox:stay_pending', subject: 'shop 0' });
    assert.equal(res.json.data.result_available, false);
    assert.equal((await server.call('GET', `/tasks/${refs[0]}/result`, owner.key)).json.data.answer, null);
    assert.deepEqual((await server.call('GET', `/tasks/${refs[0]}/evidence`, owner.key)).json.data, []);
  });

  test("another account's ref is 404 on every endpoint, never 403, and changes nothing", async () => {
    const stranger = server.account('test');
    for (const [method, path, body] of [
      ['GET', `/tasks/${refs[0]}`],
      ['GET', `/tasks/${refs[0]}/result`],
      ['GET', `/tasks/${refs[0]}/evidence`],
      ['GET', `/tasks/${refs[0]}/evidence/evd_1`],
      ['POST', `/tasks/${refs[0]}/cancel`],
      ['POST', `/tasks/${refs[0]}/dispute`, { reason: 'other', statement: 'This is not right at all, sorry.' }],
    ] as Array<[string, string, unknown?]>) {
      const res = await server.call(method, path, stranger.key, body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.json.error.code, 'not_found');
    }
    assert.equal((await server.call('GET', `/tasks/${refs[0]}`, owner.key)).json.data.status, 'pending');
  });

  test('a malformed ref or evidence id is a named 400; an unknown one 404', async () => {
    const malformed = await server.call('GET', '/tasks/tsk_short', owner.key);
    assert.equal(malformed.status, 400);
    assert.match(malformed.json.error.message, /Invalid path parameter 'ref': must be a task ref/);
    assert.equal((await server.call('GET', '/tasks/tsk_00000000000000000000', owner.key)).status, 404);
    assert.equal((await server.call('GET', `/tasks/${refs[0]}/evidence/photo1`, owner.key)).status, 400);
    assert.equal((await server.call('GET', `/tasks/${refs[0]}/evidence/evd_999`, owner.key)).status, 404);
  });

  test('keyed endpoints need a key: 401 without one', async () => {
    for (const path of ['/tasks', `/tasks/${refs[0]}`, `/tasks/${refs[0]}/result`, '/balance', '/ledger']) {
      const res = await server.call('GET', path, null);
      assert.equal(res.status, 401, path);
      assert.equal(res.json.error.code, 'unauthorized');
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
  });

  test('the dispute window: 409 before delivery and after the deadline', async () => {
    const { key } = server.account('test');
    const ref = (await server.order(key, verifyOrder())).json.data.ref;
    const early = await server.call('POST', `/tasks/${ref}/dispute`, key, {
      reason: 'not_done',
      statement: 'Nothing has been delivered to me yet.',
    });
    assert.equal(early.status, 409);
    assert.equal(early.json.error.code, 'invalid_state');
    await advance(server, 3 * D);
    const task = (await server.call('GET', `/tasks/${ref}`, key)).json.data;
    server.clock.set(task.dispute_deadline);
    const late = await server.call('POST', `/tasks/${ref}/dispute`, key, {
      reason: 'not_done',
      statement: 'Nothing has been delivered to me yet.',
    });
    assert.equal(late.status, 409);
    assert.match(late.json.error.message, /dispute window of .* closed at/);
  });
});

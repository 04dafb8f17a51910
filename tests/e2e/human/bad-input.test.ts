/**
 * Bad input on every endpoint not covered by its own table: a clear 4xx in the service's error shape
 * naming what is wrong, nothing changed; and a property test throwing arbitrary JSON (and arbitrary
 * text) at every body-taking endpoint over real HTTP: never a 500, always the documented error shape.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS as D,
  startHumanServer,
  verifyOrder,
  type HumanServer,
} from './harness.ts';

let server: HumanServer;
let key: string;
let pending: string;
let delivered: string;
before(async () => {
  server = await startHumanServer({ inProcess: true });
  key = server.account('test').key;
  pending = (await server.order(key, verifyOrder({ spec: { claim: 'sandbox:stay_pending', subject: 's' } }))).json.data
    .ref;
  delivered = (await server.order(key, verifyOrder())).json.data.ref;
  await advance(server, 3 * D);
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const snapshot = () =>
  server.app.db.prepare('SELECT group_concat(ref || status || version) FROM human_tasks').pluck().get();

describe('a named 4xx, and nothing changed', () => {
  const cases: Array<{
    name: string;
    method: string;
    path: () => string;
    body?: unknown;
    raw?: string;
    status: number;
    message: RegExp;
  }> = [
    {
      name: 'cancel: an unknown reason',
      method: 'POST',
      path: () => `/tasks/${pending}/cancel`,
      body: { reason: 'bored' },
      status: 400,
      message: /Invalid field 'reason': give one of: no_longer_needed/,
    },
    {
      name: 'cancel: an unknown field',
      method: 'POST',
      path: () => `/tasks/${pending}/cancel`,
      body: { reason: 'other', note: 'x' },
      status: 400,
      message: /Unknown field 'note'. Accepted: reason/,
    },
    {
      name: 'cancel: not JSON',
      method: 'POST',
      path: () => `/tasks/${pending}/cancel`,
      raw: 'reason=other',
      status: 400,
      message: /not valid JSON/,
    },
    {
      name: 'cancel: a delivered task',
      method: 'POST',
      path: () => `/tasks/${delivered}/cancel`,
      status: 409,
      message: /is delivered; cancel is allowed only when pending or dispatched/,
    },
    {
      name: 'dispute: no body',
      method: 'POST',
      path: () => `/tasks/${delivered}/dispute`,
      raw: '',
      status: 400,
      message: /body is empty/,
    },
    {
      name: 'dispute: no statement',
      method: 'POST',
      path: () => `/tasks/${delivered}/dispute`,
      body: { reason: 'wrong_answer' },
      status: 400,
      message: /Missing required field 'statement'/,
    },
    {
      name: 'dispute: a short statement',
      method: 'POST',
      path: () => `/tasks/${delivered}/dispute`,
      body: { reason: 'wrong_answer', statement: 'wrong' },
      status: 400,
      message: /20 to 2000 characters/,
    },
    {
      name: 'dispute: an unknown reason',
      method: 'POST',
      path: () => `/tasks/${delivered}/dispute`,
      body: { reason: 'meh', statement: 'x'.repeat(25) },
      status: 400,
      message: /'reason': give one of/,
    },
    {
      name: 'dispute: a pending task',
      method: 'POST',
      path: () => `/tasks/${pending}/dispute`,
      body: { reason: 'not_done', statement: 'Nothing was delivered to me.' },
      status: 409,
      message: /is pending: only a delivered answer can be disputed, and this task has none yet/,
    },
    {
      name: 'capability: a malformed id',
      method: 'GET',
      path: () => '/capabilities/VERIFY!',
      status: 400,
      message: /Invalid path parameter 'capability'/,
    },
    {
      name: 'capabilities: a query parameter',
      method: 'GET',
      path: () => '/capabilities?lang=fr',
      status: 400,
      message: /Unknown query parameter 'lang'. This endpoint takes no query parameters/,
    },
    {
      name: 'coverage: a query parameter',
      method: 'GET',
      path: () => '/coverage?country=FR',
      status: 400,
      message: /Unknown query parameter 'country'/,
    },
    {
      name: 'quote: a GET',
      method: 'GET',
      path: () => '/quote',
      status: 405,
      message: /GET is not allowed here. Allowed: POST/,
    },
    {
      name: 'task: a query parameter',
      method: 'GET',
      path: () => `/tasks/${pending}?expand=all`,
      status: 400,
      message: /Unknown query parameter 'expand'/,
    },
    {
      name: 'result: a query parameter',
      method: 'GET',
      path: () => `/tasks/${pending}/result?wait=30`,
      status: 400,
      message: /Unknown query parameter 'wait'/,
    },
    {
      name: 'ledger: a limit too large',
      method: 'GET',
      path: () => '/ledger?limit=500',
      status: 400,
      message: /'limit': must be an integer from 1 to 100/,
    },
    {
      name: 'ledger: a malformed cursor',
      method: 'GET',
      path: () => '/ledger?cursor=abc',
      status: 400,
      message: /'cursor'/,
    },
    {
      name: 'balance: a query parameter',
      method: 'GET',
      path: () => '/balance?currency=USD',
      status: 400,
      message: /Unknown query parameter 'currency'/,
    },
    {
      name: 'a ref with an encoded slash',
      method: 'GET',
      path: () => '/tasks/tsk_%2F',
      status: 400,
      message: /Invalid path parameter 'ref'/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const before = snapshot();
      const res =
        c.raw !== undefined
          ? await server.request(c.method, `/human/v1${c.path()}`, {
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: c.raw,
            })
          : await server.call(c.method, c.path(), key, c.body);
      assert.equal(res.status, c.status, res.text);
      assert.deepEqual(Object.keys(res.json.error), ['code', 'message']);
      assert.match(res.json.error.message, c.message);
      assert.equal(snapshot(), before, 'nothing changed');
    });
  }
});

test('arbitrary JSON and text on every body-taking endpoint: never a 500, always the error shape', async () => {
  const targets = [
    { path: '/quote', headers: {} },
    { path: '/tasks', headers: { 'idempotency-key': randomUUID() } },
    { path: `/tasks/${pending}/cancel`, headers: {} },
    { path: `/tasks/${delivered}/dispute`, headers: {} },
  ];
  const json = fc
    .oneof(
      fc.jsonValue(),
      fc.record(
        {
          capability: fc.oneof(fc.string(), fc.constant('human.verify')),
          spec: fc.jsonValue(),
          location: fc.jsonValue(),
          max_price_cents: fc.jsonValue(),
          sla: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        { reason: fc.oneof(fc.string(), fc.constant('other')), statement: fc.string({ maxLength: 3000 }) },
        { requiredKeys: [] },
      ),
    )
    .map((v) => JSON.stringify(v));
  const text = fc.string({ maxLength: 200 });
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...targets), fc.oneof(json, text), async (target, body) => {
      server.clock.advance(1000); // stay within the per-key limit
      const res = await server.request('POST', `/human/v1${target.path}`, {
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          ...target.headers,
          'idempotency-key': randomUUID(),
        },
        body,
      });
      if (res.status >= 500) return false;
      if (res.status >= 400)
        return typeof res.json?.error?.code === 'string' && typeof res.json.error.message === 'string';
      return res.status === 200 || res.status === 201;
    }),
    { numRuns: 300 },
  );
});

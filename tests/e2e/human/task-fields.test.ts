/**
 * Task fields integrators expect (issue 26): metadata (bounded, echoed as sent, filterable by one key)
 * and client_reference (echoed, filterable), list filters by several statuses, and the history served
 * at GET /tasks/{ref}/events (every state, who moved it, when); each with its bad inputs, refused with
 * a message naming the field and what it accepts, nothing stored.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS as D,
  startHumanServer,
  verifyOrder,
  type HumanServer,
} from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server.cleanup());
checkLedgerAfterEach(() => server);

const refs = (res: { json: { data: Array<{ ref: string }> } }) => res.json.data.map((t) => t.ref).sort();

test('metadata and client_reference are echoed as sent, and filter the list', async () => {
  const buyer = server.account('test');
  const a = (
    await server.order(
      buyer.key,
      verifyOrder({ metadata: { order_id: '1234', team: 'ops' }, client_reference: 'row 7 · é' }),
    )
  ).json.data;
  const b = (await server.order(buyer.key, verifyOrder({ metadata: { order_id: '5678' }, client_reference: 'row 8' })))
    .json.data;
  const c = (await server.order(buyer.key, verifyOrder())).json.data;
  assert.deepEqual(a.metadata, { order_id: '1234', team: 'ops' });
  assert.equal(a.client_reference, 'row 7 · é');
  assert.deepEqual(c.metadata, {});
  assert.equal(c.client_reference, null);
  assert.deepEqual((await server.call('GET', `/tasks/${a.ref}`, buyer.key)).json.data.metadata, a.metadata);
  assert.deepEqual(refs(await server.call('GET', '/tasks?metadata=order_id:1234', buyer.key)), [a.ref]);
  assert.deepEqual(refs(await server.call('GET', '/tasks?metadata=team:ops', buyer.key)), [a.ref]);
  assert.deepEqual(refs(await server.call('GET', '/tasks?metadata=order_id:9', buyer.key)), []);
  assert.deepEqual(
    refs(await server.call('GET', `/tasks?client_reference=${encodeURIComponent('row 8')}`, buyer.key)),
    [b.ref],
  );
  assert.deepEqual(
    refs(await server.call('GET', `/tasks?client_reference=${encodeURIComponent('row 7 · é')}`, buyer.key)),
    [a.ref],
  );
  // Another account's tasks never match.
  const other = server.account('test');
  assert.deepEqual(refs(await server.call('GET', '/tasks?metadata=order_id:1234', other.key)), []);
});

test('metadata and client_reference out of bounds: 400 naming the field and what it accepts; nothing stored', async () => {
  const buyer = server.account('test');
  const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
  const cases: Array<[unknown, RegExp]> = [
    [{ metadata: many }, /Invalid field 'metadata': give an object of at most 20 entries/],
    [
      { metadata: { 'bad key!': 'v' } },
      /Invalid field 'metadata': the key "bad key!" is not one; give a key of 1 to 40 letters, digits, _ . or -/,
    ],
    [{ metadata: { k: 'x'.repeat(501) } }, /Invalid field 'metadata.k': give a text of at most 500 characters/],
    [{ metadata: { k: 7 } }, /Invalid field 'metadata.k': give a text of at most 500 characters \(got the number 7\)/],
    [{ metadata: ['a'] }, /Invalid field 'metadata'/],
    [{ client_reference: '' }, /Invalid field 'client_reference': give a text of 1 to 200 characters/],
    [{ client_reference: 'x'.repeat(201) }, /Invalid field 'client_reference'/],
    [{ client_reference: 'tab\there' }, /without control characters/],
  ];
  for (const [over, message] of cases) {
    const res = await server.order(buyer.key, verifyOrder(over as Record<string, unknown>));
    assert.equal(res.status, 400, JSON.stringify(over).slice(0, 80));
    assert.equal(res.json.error.code, 'invalid_request');
    assert.match(res.json.error.message, message);
  }
  assert.equal((await server.call('GET', '/tasks', buyer.key)).json.data.length, 0);
  for (const [query, message] of [
    ['?metadata=nocolon', /Invalid query parameter 'metadata': must be key:value/],
    ['?client_reference=', /client_reference/],
    ['?status=pending,done', /each one of: pending/],
  ] as const) {
    const res = await server.call('GET', `/tasks${query}`, buyer.key);
    assert.equal(res.status, 400, query);
    assert.match(res.json.error.message, message);
  }
});

test('the list filters by several statuses', async () => {
  const buyer = server.account('test');
  const pending = (
    await server.order(buyer.key, verifyOrder({ spec: { claim: 'sandbox:stay_pending', subject: 'x' } }))
  ).json.data.ref;
  const dispatched = (
    await server.order(buyer.key, verifyOrder({ spec: { claim: 'sandbox:stay_dispatched', subject: 'x' } }))
  ).json.data.ref;
  const cancelled = (await server.order(buyer.key, verifyOrder())).json.data.ref;
  await server.call('POST', `/tasks/${cancelled}/cancel`, buyer.key);
  await advance(server, D);
  assert.deepEqual(
    refs(await server.call('GET', '/tasks?status=pending,dispatched', buyer.key)),
    [pending, dispatched].sort(),
  );
  assert.deepEqual(refs(await server.call('GET', '/tasks?status=cancelled', buyer.key)), [cancelled]);
  assert.deepEqual(
    refs(await server.call('GET', '/tasks?status=dispatched,cancelled,completed', buyer.key)),
    [dispatched, cancelled].sort(),
  );
});

test("GET /tasks/{ref}/events: the task's history, in order, with who moved it", async () => {
  const buyer = server.account('test');
  const ref = (await server.order(buyer.key, verifyOrder())).json.data.ref;
  await advance(server, 3 * D);
  await server.call('POST', `/tasks/${ref}/dispute`, buyer.key, {
    reason: 'wrong_answer',
    statement: 'The shop was closed when I went myself.',
  });
  await advance(server, D);
  const events = (await server.call('GET', `/tasks/${ref}/events`, buyer.key)).json.data;
  assert.deepEqual(
    events.map((e: { type: string; status: string; previous_status: string | null; actor: string }) => [
      e.type,
      e.previous_status,
      e.status,
      e.actor,
    ]),
    [
      ['human.task.created', null, 'pending', 'client'],
      ['human.task.dispatched', 'pending', 'dispatched', 'sandbox'],
      ['human.task.in_progress', 'dispatched', 'in_progress', 'sandbox'],
      ['human.task.delivered', 'in_progress', 'delivered', 'sandbox'],
      ['human.task.disputed', 'delivered', 'disputed', 'client'],
      ['human.task.completed', 'disputed', 'completed', 'sandbox'],
    ],
  );
  const times = events.map((e: { at: string }) => Date.parse(e.at));
  assert.deepEqual(
    times,
    [...times].sort((x: number, y: number) => x - y),
  );
  for (const e of events) assert.match(e.id, /^evt_[0-9A-Za-z]{24}$/);
  // Not another account's, nor with a malformed ref.
  assert.equal((await server.call('GET', `/tasks/${ref}/events`, server.account('test').key)).status, 404);
  assert.equal((await server.call('GET', '/tasks/tsk_x/events', buyer.key)).status, 400);
});

test('a late dispute is told the window closed, whether or not the task has completed since', async () => {
  const buyer = server.account('test');
  const ref = (await server.order(buyer.key, verifyOrder())).json.data.ref;
  await advance(server, 3 * D);
  const delivered = (await server.call('GET', `/tasks/${ref}`, buyer.key)).json.data;
  await advance(server, 10 * D); // the sandbox's dispute window: completed
  const late = await server.call('POST', `/tasks/${ref}/dispute`, buyer.key, {
    reason: 'wrong_answer',
    statement: 'It was closed when I went there.',
  });
  assert.equal(late.status, 409);
  assert.equal(late.json.error.code, 'invalid_state');
  assert.match(
    late.json.error.message,
    new RegExp(`The dispute window of ${ref} closed at ${delivered.dispute_deadline.replace(/[.]/g, '\\.')}`),
  );
  assert.match(late.json.error.message, /completed and paid/);
});

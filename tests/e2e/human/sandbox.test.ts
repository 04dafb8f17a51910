/**
 * Sandbox keys: every documented magic value reaches its branch (table-driven, through the API and the
 * scheduler, time moved by the injected clock); synthetic evidence; no ledger row; and a task that is
 * half-way when the server restarts resumes and completes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REVIEW_DELAYS } from '../../../lib/human/sandbox.ts';
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
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

async function order(key: string, claim: string) {
  const res = await server.order(key, verifyOrder({ spec: { claim, subject: 'Boulangerie Martin' } }));
  assert.equal(res.status, 201, res.text);
  return res.json.data.ref as string;
}
const result = async (key: string, ref: string) => (await server.call('GET', `/tasks/${ref}/result`, key)).json.data;
const history = (ref: string) =>
  server.app.db
    .prepare(
      `SELECT e.to_status FROM human_task_events e JOIN human_tasks t ON t.id = e.task_id WHERE t.ref = ? ORDER BY e.id`,
    )
    .pluck()
    .all(ref) as string[];

describe('magic values reach every branch', () => {
  const cases: Array<{
    claim: string;
    after: number;
    status: string;
    path: string[];
    confidence?: number;
    answer?: Record<string, unknown>;
  }> = [
    {
      claim: 'The shop is open',
      after: 3 * D,
      status: 'delivered',
      path: ['pending', 'dispatched', 'in_progress', 'delivered'],
      confidence: 9500,
      answer: { verdict: 'confirmed' },
    },
    {
      claim: 'sandbox:deliver',
      after: -1,
      status: 'completed',
      path: ['pending', 'dispatched', 'in_progress', 'delivered', 'completed'],
      confidence: 9500,
    },
    {
      claim: 'sandbox:low_confidence',
      after: 3 * D,
      status: 'delivered',
      path: ['pending', 'dispatched', 'in_progress', 'delivered'],
      confidence: 3000,
      answer: { verdict: 'inconclusive' },
    },
    { claim: 'sandbox:fail', after: 3 * D, status: 'failed', path: ['pending', 'dispatched', 'in_progress', 'failed'] },
    { claim: 'sandbox:expire', after: D, status: 'expired', path: ['pending', 'expired'] },
    { claim: 'sandbox:stay_pending', after: 10 * D, status: 'pending', path: ['pending'] },
    { claim: 'sandbox:stay_dispatched', after: 10 * D, status: 'dispatched', path: ['pending', 'dispatched'] },
  ];
  for (const c of cases) {
    test(`${c.claim} → ${c.status}`, async () => {
      const { key } = server.account('test');
      const ref = await order(key, c.claim);
      if (c.after === -1) {
        await advance(server, 3 * D); // delivered; the review window (REVIEW_DELAYS delays) starts now
        await advance(server, REVIEW_DELAYS * D);
      } else await advance(server, c.after);
      const r = await result(key, ref);
      assert.equal(r.status, c.status);
      assert.deepEqual(history(ref), c.path);
      if (c.confidence !== undefined) assert.equal(r.confidence_bps, c.confidence);
      if (c.answer) assert.equal(r.answer.verdict, c.answer.verdict);
      if (c.confidence === undefined) assert.equal(r.answer, null);
    });
  }

  test('waiting: result gives poll_after_s and Retry-After until the answer exists, then stops', async () => {
    const { key } = server.account('test');
    const ref = await order(key, 'The shop is open');
    const waiting = await server.call('GET', `/tasks/${ref}/result`, key);
    assert.deepEqual(
      [waiting.json.data.answer, waiting.json.data.poll_after_s, waiting.headers.get('retry-after')],
      [null, 1, '1'],
    );
    await advance(server, 3 * D);
    const done = await server.call('GET', `/tasks/${ref}/result`, key);
    assert.equal(done.json.data.poll_after_s, null);
    assert.equal(done.headers.get('retry-after'), null);
  });

  test('cancel from pending and from dispatched; an expired task cannot be cancelled', async () => {
    const { key } = server.account('test');
    const pending = await order(key, 'sandbox:stay_pending');
    const dispatched = await order(key, 'sandbox:stay_dispatched');
    const expiring = await order(key, 'sandbox:expire');
    await advance(server, D);
    for (const [ref, from] of [
      [pending, 'pending'],
      [dispatched, 'dispatched'],
    ] as const) {
      const res = await server.call('POST', `/tasks/${ref}/cancel`, key, { reason: 'no_longer_needed' });
      assert.equal(res.status, 200, `${from}: ${res.text}`);
      assert.equal(res.json.data.status, 'cancelled');
      assert.deepEqual(res.json.data.cancellation, { reason: 'no_longer_needed' });
    }
    const refused = await server.call('POST', `/tasks/${expiring}/cancel`, key);
    assert.equal(refused.status, 409);
    assert.equal(refused.json.error.code, 'invalid_state');
    assert.match(refused.json.error.message, /is expired; cancel is allowed only when pending or dispatched/);
  });

  test('a dispute is resolved after one delay: the answer stands, or a refund with sandbox:dispute_refund', async () => {
    const { key } = server.account('test');
    const stands = await order(key, 'The shop is open');
    const refund = await order(key, 'sandbox:dispute_refund');
    await advance(server, 3 * D);
    for (const ref of [stands, refund]) {
      const res = await server.call('POST', `/tasks/${ref}/dispute`, key, {
        reason: 'wrong_answer',
        statement: 'The shop was closed when I walked past it.',
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.data.status, 'disputed');
    }
    await advance(server, D);
    assert.equal((await result(key, stands)).status, 'completed');
    const refunded = await server.call('GET', `/tasks/${refund}`, key);
    assert.equal(refunded.json.data.status, 'refunded');
    assert.equal(refunded.json.data.dispute.resolution, 'refunded');
  });

  test('evidence is synthetic and typed; sandbox moves no money', async () => {
    const { key } = server.account('test');
    const ref = await order(key, 'The shop is open');
    await advance(server, 3 * D);
    const evidence = (await server.call('GET', `/tasks/${ref}/evidence`, key)).json.data;
    assert.deepEqual(
      evidence.map((e: { type: string }) => e.type),
      ['photo', 'note'],
    );
    const photo = evidence[0];
    assert.equal(photo.synthetic, true);
    assert.match(photo.sha256, /^[0-9a-f]{64}$/);
    assert.equal(photo.position.source, 'synthetic');
    const file = await server.request('GET', photo.download_url, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(file.headers.get('content-type'), 'image/png');
    const bytes = file.bytes;
    assert.equal(bytes.length, photo.size_bytes);
    assert.equal((await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'), photo.sha256);
    assert.equal(server.app.db.prepare('SELECT count(*) FROM human_journals').pluck().get(), 0, 'no ledger row');
    assert.deepEqual((await server.call('GET', '/balance', key)).json.data.available_cents, 0);
    assert.deepEqual((await server.call('GET', '/ledger', key)).json.data, []);
  });
});

test('a sandbox task survives a restart in the middle and completes', async () => {
  const { key } = server.account('test');
  const ref = await order(key, 'The shop is open');
  await advance(server, D);
  assert.equal((await result(key, ref)).status, 'dispatched');
  await server.restart(); // the process's timers and memory are gone; the database stays
  server.clock.advance(5 * D); // time passes while it is down, and after
  while ((await server.tick()) > 0) {
    /* catch up */
  }
  const r = await result(key, ref);
  assert.equal(r.status, 'delivered');
  assert.deepEqual(history(ref), ['pending', 'dispatched', 'in_progress', 'delivered'], 'every step taken, in order');
});

test('after a restart the scheduler also runs by itself, on its timer', async () => {
  const { key } = server.account('test');
  const ref = await order(key, 'The shop is open');
  try {
    await server.restart({ HUMAN_SCHEDULER_TICK_MS: '20' });
    server.clock.advance(3 * D);
    const deadline = Date.now() + 5000;
    while ((await result(key, ref)).status !== 'delivered' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal((await result(key, ref)).status, 'delivered');
  } finally {
    await server.restart({ HUMAN_SCHEDULER_TICK_MS: '60000' });
  }
});

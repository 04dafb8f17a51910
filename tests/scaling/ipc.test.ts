/**
 * The cluster IPC without processes: the primary's side (the commit lock's turns, the counts, counts
 * given back) and the worker's (a stuck primary: refused at once while down, late counts given back,
 * up again when it answers), over a channel that records what is sent.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiter } from '../../lib/rate-limit.ts';
import { answerWorker, CommitLockQueue, IpcLimiter, type ToPrimary, type ToWorker } from '../../db/counters/ipc.ts';

test('the commit lock goes to one worker at a time, in the order asked; a dead worker is dropped', () => {
  const cases: Array<{ name: string; steps: Array<['request' | 'release' | 'forget', number]>; granted: number[] }> = [
    {
      name: 'one at a time, in order',
      steps: [
        ['request', 1],
        ['request', 2],
        ['request', 3],
        ['release', 1],
        ['release', 2],
      ],
      granted: [1, 2, 3],
    },
    {
      name: 'a release by a worker that does not hold it changes nothing',
      steps: [
        ['request', 1],
        ['request', 2],
        ['release', 2],
        ['release', 3],
      ],
      granted: [1],
    },
    {
      name: 'the holder dies: the next one gets it',
      steps: [
        ['request', 1],
        ['request', 2],
        ['forget', 1],
      ],
      granted: [1, 2],
    },
    {
      name: 'a waiter dies: it is skipped',
      steps: [
        ['request', 1],
        ['request', 2],
        ['request', 3],
        ['forget', 2],
        ['release', 1],
      ],
      granted: [1, 3],
    },
    {
      name: 'free again after the last release',
      steps: [
        ['request', 1],
        ['release', 1],
        ['request', 2],
      ],
      granted: [1, 2],
    },
  ];
  for (const c of cases) {
    const granted: number[] = [];
    const lock = new CommitLockQueue((id) => granted.push(id));
    for (const [op, id] of c.steps) lock[op](id);
    assert.deepEqual(granted, c.granted, c.name);
  }
});

test('the primary answers a batch of counts from its one limiter, in order, and forwards key uses', () => {
  const limiter = new RateLimiter(() => 0);
  const now = Date.parse('2026-11-24T10:00:00Z');
  const answer = answerWorker(
    {
      trio: 'take',
      batch: [
        [1, 'b', 2, null, now],
        [2, 'b', 2, null, now],
        [3, 'b', 2, null, now],
        [4, 'c', null, 1, now],
      ],
    },
    limiter,
    () => {},
  );
  assert.equal(answer?.trio, 'took');
  const batch = answer!.trio === 'took' ? answer.batch : [];
  assert.deepEqual(
    batch.map(([id, d]) => [id, d.allowed, d.retryAfterSeconds]),
    [
      [1, true, 0],
      [2, true, 0],
      [3, false, 30],
      [4, true, 0],
    ],
  );
  // Another worker's next count continues the same bucket: one counter, not one per worker.
  const next = answerWorker({ trio: 'take', batch: [[1, 'c', null, 1, now]] }, limiter, () => {});
  assert.equal(next?.trio === 'took' && next.batch[0]![1].refusedBy, 'day');
  const uses: Array<[number, number]> = [];
  assert.equal(
    answerWorker(
      {
        trio: 'keyUses',
        uses: [
          [7, now],
          [8, now + 1],
        ],
      },
      limiter,
      (id, at) => uses.push([id, at]),
    ),
    null,
  );
  assert.deepEqual(uses, [
    [7, now],
    [8, now + 1],
  ]);
});

test('the primary gives back counts a worker returns (a request refused after it was counted)', () => {
  const limiter = new RateLimiter(() => 0);
  const now = Date.parse('2026-11-24T10:00:00Z');
  const take = (id: number) => answerWorker({ trio: 'take', batch: [[id, 'd', null, 2, now]] }, limiter, () => {});
  const allowed = (a: ReturnType<typeof take>) => a?.trio === 'took' && a.batch[0]![1].allowed;
  assert.equal(allowed(take(1)), true);
  assert.equal(allowed(take(2)), true);
  assert.equal(allowed(take(3)), false, 'two a day');
  assert.equal(
    answerWorker({ trio: 'refund', batch: [['d', null, 2, now]] }, limiter, () => {}),
    null,
  );
  assert.equal(allowed(take(4)), true, 'one given back: one more');
  assert.equal(allowed(take(5)), false);
});

/** A worker's end of the IPC channel: what the worker sends, and a way to answer as the primary. */
function channel() {
  const sent: ToPrimary[] = [];
  const ch = Object.assign(new EventEmitter(), {
    connected: true,
    send: (msg: ToPrimary) => (sent.push(msg), true),
  });
  return { sent, ch, answer: (msg: ToWorker) => ch.emit('message', msg) };
}

test('a stuck primary: refused after the timeout, then at once; late counts are given back; up when it answers', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: Date.parse('2026-11-24T10:00:00Z') });
  const { sent, ch, answer } = channel();
  const ipc = new IpcLimiter(ch as unknown as NodeJS.Process);
  const limits = { perMinute: 60, perDay: 100 };
  const now = Date.now();
  const pending = [ipc.take('b', limits, now), ipc.take('b', limits, now)];
  await sleep(0); // the batch goes out on the next turn (setImmediate is left real)
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    sent.map((m) => m.trio),
    ['take'],
  );
  const batch = sent[0]!.trio === 'take' ? sent[0]!.batch : [];
  assert.deepEqual(
    batch.map(([, bucket]) => bucket),
    ['b', 'b'],
  );

  t.mock.timers.tick(6000); // past ANSWER_TIMEOUT_MS, at the sweeper's next pass
  for (const p of pending) await assert.rejects(p, /the cluster primary did not answer/);
  assert.equal(ipc.health.up, false);
  await assert.rejects(ipc.take('b', limits, now), /the cluster primary is down: no answer within 5000 ms/);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(
    sent.filter((m) => m.trio === 'take' && m.batch.length > 0).length,
    1,
    'nothing more is sent while down',
  );
  assert.ok(
    sent.some((m) => m.trio === 'take' && m.batch.length === 0),
    'an empty batch asks whether the primary answers',
  );

  // The primary wakes and answers the old batch: the one that took is given back, the refused one not.
  const decision = (allowed: boolean) => ({ allowed, refusedBy: null, retryAfterSeconds: 0, minute: null, day: null });
  answer({
    trio: 'took',
    batch: [
      [batch[0]![0], decision(true)],
      [batch[1]![0], decision(false)],
    ],
  });
  const refunds = sent.filter((m) => m.trio === 'refund');
  assert.deepEqual(refunds, [{ trio: 'refund', batch: [['b', 60, 100, now]] }]);
  await sleep(0);
  assert.equal(ipc.health.up, true, 'any answer brings it back');
  const served = ipc.take('b', limits, now);
  await new Promise((resolve) => setImmediate(resolve));
  const last = sent.at(-1)!;
  assert.equal(last.trio === 'take' && last.batch.length, 1);
  answer({ trio: 'took', batch: [[last.trio === 'take' ? last.batch[0]![0] : 0, decision(true)]] });
  assert.equal((await served).allowed, true);

  ipc.refund('b', limits, now);
  assert.deepEqual(
    sent.at(-1),
    { trio: 'refund', batch: [['b', 60, 100, now]] },
    'a 503 after counting is given back too',
  );
  ipc.stop();
});

/** The primary's side of the cluster IPC, without processes: the commit lock's turns and the counts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimiter } from '../../lib/rate-limit.ts';
import { answerWorker, CommitLockQueue } from '../../db/counters/ipc.ts';

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

/**
 * GCRA at the edges of its window, table-driven with an injected clock. Each case replays a list of
 * requests at given offsets (ms) against one bucket and checks every answer; an independent count
 * (a sliding log of the allowed requests' "slot" times) cross-checks that no window of 60 s ever
 * holds more than the limit plus what the refill rate adds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gcra, gcraPeek, intervalUs } from '../../lib/gcra.ts';

const T = Date.parse('2026-11-22T10:15:59.750Z'); // a quarter second before a UTC minute rolls
const W = 60_000;

interface Step {
  at: number;
  allowed: boolean;
  remaining: number;
  reset: number;
  retry: number;
}

function replay(limit: number, steps: Array<[at: number, count?: number]>): Step[] {
  let tat = 0;
  const out: Step[] = [];
  for (const [at, count = 1] of steps) {
    for (let i = 0; i < count; i++) {
      const r = gcra(tat, T + at, limit, W);
      tat = r.tatUs;
      out.push({ at, allowed: r.allowed, remaining: r.remaining, reset: r.resetSeconds, retry: r.retryAfterSeconds });
    }
  }
  return out;
}

const cases: Array<{ name: string; limit: number; steps: Array<[number, number?]>; expect: (s: Step[]) => void }> = [
  {
    name: 'a burst of the whole limit is allowed at once; the next is refused and told to wait one slot (0.5 s → 1 s)',
    limit: 120,
    steps: [[0, 120], [0]],
    expect: (s) => {
      assert.deepEqual(
        s.slice(0, 120).map((x) => x.allowed),
        Array(120).fill(true),
      );
      assert.deepEqual(
        s.slice(0, 3).map((x) => x.remaining),
        [119, 118, 117],
      );
      assert.deepEqual(s[119], { at: 0, allowed: true, remaining: 0, reset: 60, retry: 0 });
      assert.deepEqual(s[120], { at: 0, allowed: false, remaining: 0, reset: 60, retry: 1 });
    },
  },
  {
    name: "the fixed window's edge burst is gone: 120 just before a UTC minute and 120 just after → the second burst is refused",
    limit: 120,
    steps: [
      [0, 120],
      [300, 120],
    ], // T+300 ms is in the next UTC minute
    expect: (s) => {
      assert.equal(s.filter((x) => x.allowed).length, 120);
      assert.deepEqual(s[120], { at: 300, allowed: false, remaining: 0, reset: 60, retry: 1 });
    },
  },
  {
    name: 'one slot refills every 60 s / limit: after waiting Retry-After, exactly one more is allowed',
    limit: 120,
    steps: [[0, 120], [499], [500], [500], [1000]],
    expect: (s) => {
      assert.deepEqual(
        s.slice(120).map((x) => [x.allowed, x.remaining]),
        [
          [false, 0],
          [true, 0],
          [false, 0],
          [true, 0],
        ],
      );
      assert.equal(s[121]!.reset, 60, 'the allowance is whole again 60 s after the last slot taken');
    },
  },
  {
    name: 'a steady client at the limit rate is never refused',
    limit: 60,
    steps: Array.from({ length: 300 }, (_, i): [number] => [i * 1000]),
    expect: (s) => {
      assert.ok(s.every((x) => x.allowed));
      assert.ok(
        s.every((x) => x.remaining === 59),
        'each slot refills before the next request',
      );
    },
  },
  {
    name: 'idle for a whole window refills everything, never more than the limit',
    limit: 60,
    steps: [
      [0, 60],
      [60_000, 61],
      [200_000, 61],
    ],
    expect: (s) => {
      assert.equal(s.slice(60, 121).filter((x) => x.allowed).length, 60);
      assert.equal(s.slice(121).filter((x) => x.allowed).length, 60);
      assert.equal(s[121]!.remaining, 59);
    },
  },
  {
    name: 'a limit that does not divide the window (7 a minute) still allows exactly 7 at once',
    limit: 7,
    steps: [[0, 8], [8572]],
    expect: (s) => {
      assert.deepEqual(
        s.map((x) => x.allowed),
        [true, true, true, true, true, true, true, false, true],
      );
      assert.equal(s[7]!.retry, 9, 'one slot: 60/7 = 8.57 s, rounded up');
    },
  },
  {
    name: 'the clock steps back a little (NTP) on a spent bucket: empty, one slot away, never a long wait',
    limit: 120,
    steps: [[0, 120], [-20_000], [-19_500]],
    expect: (s) => {
      assert.deepEqual(s[120], { at: -20_000, allowed: false, remaining: 0, reset: 60, retry: 1 });
      assert.deepEqual([s[121]!.allowed, s[121]!.remaining], [true, 0], 'one slot later, one more');
    },
  },
  {
    name: "the clock set back by hours: the bucket's history belongs to another time and starts afresh",
    limit: 60,
    steps: [
      [0, 60],
      [-3 * 3_600_000, 61],
    ],
    expect: (s) => {
      assert.equal(s.slice(60).filter((x) => x.allowed).length, 60);
      assert.equal(s[60]!.remaining, 59);
    },
  },
  {
    name: 'a limit of 1',
    limit: 1,
    steps: [[0], [1], [59_999], [60_000]],
    expect: (s) =>
      assert.deepEqual(
        s.map((x) => [x.allowed, x.retry]),
        [
          [true, 0],
          [false, 60],
          [false, 1],
          [true, 0],
        ],
      ),
  },
];

for (const c of cases) test(c.name, () => c.expect(replay(c.limit, c.steps)));

test('never more than limit + elapsed/interval in any window: cross-checked against a log of allowed times', () => {
  // A pseudo-random client (fixed seed) hammering one bucket for ten minutes.
  let seed = 7;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const limit = 120;
  let tat = 0;
  let now = 0;
  const allowed: number[] = [];
  while (now < 600_000) {
    now += Math.floor(rand() * 400);
    const r = gcra(tat, T + now, limit, W);
    tat = r.tatUs;
    if (r.allowed) allowed.push(now);
  }
  // In any 60 s window: at most the burst (limit) plus one slot per interval elapsed in it.
  for (let i = 0; i < allowed.length; i++) {
    let j = i;
    while (j < allowed.length && allowed[j]! < allowed[i]! + W) j++;
    assert.ok(j - i <= limit + Math.floor((W * 1000) / intervalUs(limit, W)), `window at ${allowed[i]}`);
  }
  // And the long-run rate is the limit's: 10 minutes → at most 120 + 1200.
  assert.ok(allowed.length <= limit + 10 * limit);
  assert.ok(allowed.length >= 10 * limit, 'a client sending faster than the rate gets the whole rate');
});

test('peek reports without spending', () => {
  const first = gcra(0, T, 10, W);
  assert.deepEqual(gcraPeek(first.tatUs, T, 10, W), { remaining: 9, resetSeconds: 6 });
  assert.deepEqual(gcraPeek(0, T, 10, W), { remaining: 10, resetSeconds: 0 });
});

test('bad input is refused', () => {
  assert.throws(() => gcra(0, Number.NaN, 10, W), RangeError);
  assert.throws(() => gcra(0, T, 0, W), RangeError);
  assert.throws(() => gcra(0, T, 1.5, W), RangeError);
});

/**
 * The re-read schedule of open and forthcoming BDNS calls (lib/funding/reread.ts), replayed over whole
 * windows against a sync every 6 hours: how many detail reads a call costs, and how late before its
 * deadline the last read comes, which bounds the extensions it catches in time. docs/operations.md
 * ("What a sync re-reads") multiplies these figures out for a corpus of a million calls.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byUrgency, REREAD, rereadDue, rereadInterval } from '../../../lib/funding/reread.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

test('the interval: half the time left, between 6 hours and 7 days; undated every 14 days; after the close, one read', () => {
  const now = 0;
  const cases: Array<[number | null, number | null, number | null]> = [
    // closes_at (from now), read_at, interval
    [60 * DAY, null, 7 * DAY],
    [10 * DAY, null, 5 * DAY],
    [2 * DAY, null, DAY],
    [12 * HOUR, null, 6 * HOUR],
    [null, null, 14 * DAY], // no known deadline: every two weeks
    [-HOUR, -2 * HOUR, 0], // closed an hour ago, last read before it: read now
    [-HOUR, -HOUR / 2, null], // read since the close: no more
    [-3 * DAY, -4 * DAY, null], // closed beyond the grace period
  ];
  for (const [closes, read, interval] of cases)
    assert.equal(rereadInterval({ closes_at: closes === null ? null : now + closes, read_at: read }, now), interval);
  assert.equal(rereadDue({ closes_at: 2 * DAY, read_at: -23 * HOUR }, 0), false, 'read 23 h ago, daily');
  assert.equal(rereadDue({ closes_at: 2 * DAY, read_at: -25 * HOUR }, 0), true);
  assert.equal(rereadDue({ closes_at: 2 * DAY, read_at: null }, 0), true, 'never read by the sync');
});

/** A call open for `windowDays`, read when first listed and then on the schedule, by a sync every `everyMs`. */
function replay(windowDays: number, everyMs = 6 * HOUR) {
  const closes = windowDays * DAY;
  let readAt = 0;
  let reads = 1;
  let lastBefore = 0;
  for (let t = everyMs; t <= closes + REREAD.afterCloseMs; t += everyMs) {
    if (rereadDue({ closes_at: closes, read_at: readAt }, t)) {
      readAt = t;
      reads++;
      if (t < closes) lastBefore = t;
    }
  }
  return { reads, lastBeforeClose: closes - lastBefore };
}

test('a whole window replayed against a sync every 6 hours: reads per call, and the last read before the close', () => {
  const cases: Array<[number, number]> = [
    // window in days, detail reads over the window (the first, scheduled ones, the one after the close)
    [15, 10],
    [30, 13],
    [60, 17],
    [90, 21],
  ];
  for (const [days, reads] of cases) {
    const r = replay(days);
    assert.equal(r.reads, reads, `${days}-day window`);
    // The last read before the deadline is at most 6 hours before it: an extension published earlier
    // than that is stored before the old deadline passes.
    assert.ok(r.lastBeforeClose <= 6 * HOUR, `${days} days: last read ${r.lastBeforeClose / HOUR} h before the close`);
  }
  // A daily sync is coarser: the last read before the close is within a day of it.
  assert.ok(replay(30, DAY).lastBeforeClose <= DAY);
});

test('most urgent first: the nearest deadline (a passed one first), calls without one last', () => {
  const calls = [
    { closes_at: null, read_at: null },
    { closes_at: 10 * DAY, read_at: null },
    { closes_at: -HOUR, read_at: null },
    { closes_at: DAY, read_at: null },
  ];
  assert.deepEqual(
    [...calls].sort(byUrgency).map((c) => c.closes_at),
    [-HOUR, DAY, 10 * DAY, null],
  );
});

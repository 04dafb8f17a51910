import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utcDay, utcMinute } from '../../lib/quota-window.ts';

const at = (iso: string) => Date.parse(iso);

test('UTC day windows at their boundaries', () => {
  const cases: Array<[string, string, string, number]> = [
    // name, now, window key, seconds until it rolls
    ['midday', '2026-11-22T12:00:00.000Z', '2026-11-22', 43_200],
    ['last second of a day', '2026-11-22T23:59:59.000Z', '2026-11-22', 1],
    ['last millisecond of a day', '2026-11-22T23:59:59.999Z', '2026-11-22', 1],
    ['00:00:00 UTC exactly starts a full day', '2026-11-23T00:00:00.000Z', '2026-11-23', 86_400],
    ['year end', '2026-12-31T23:59:30.000Z', '2026-12-31', 30],
    ['new year', '2027-01-01T00:00:00.500Z', '2027-01-01', 86_400],
    ['leap day', '2028-02-29T10:00:00.000Z', '2028-02-29', 50_400],
    ['day after a leap day', '2028-03-01T00:00:00.000Z', '2028-03-01', 86_400],
  ];
  for (const [name, now, key, reset] of cases) {
    const w = utcDay(at(now));
    assert.equal(w.key, key, name);
    assert.equal(w.resetSeconds, reset, name);
    assert.ok(w.startMs <= at(now) && at(now) < w.endMs, name);
  }
});

test('a late evening in a positive-offset zone is still that UTC date', () => {
  // 01:30 in Madrid (UTC+1) on 23 Nov is 00:30 UTC on 23 Nov; 00:30 Madrid is still 22 Nov in UTC.
  assert.equal(utcDay(at('2026-11-23T00:30:00+01:00')).key, '2026-11-22');
});

test('UTC minute windows at their boundaries', () => {
  const cases: Array<[string, string, string, number]> = [
    ['start of a minute', '2026-11-22T10:15:00.000Z', '2026-11-22T10:15', 60],
    ['last second', '2026-11-22T10:15:59.000Z', '2026-11-22T10:15', 1],
    ['within a second', '2026-11-22T10:15:30.250Z', '2026-11-22T10:15', 30],
    ['across a day end', '2026-11-22T23:59:59.999Z', '2026-11-22T23:59', 1],
  ];
  for (const [name, now, key, reset] of cases) {
    const w = utcMinute(at(now));
    assert.equal(w.key, key, name);
    assert.equal(w.resetSeconds, reset, name);
  }
});

test('a non-finite clock is refused', () => {
  assert.throws(() => utcDay(Number.NaN), RangeError);
});

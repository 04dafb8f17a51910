import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addDays,
  closesAt,
  isIsoDate,
  localToUtc,
  opensAt,
  toLocal,
  zoneOffsetMs,
} from '../../../lib/funding/zoned-time.ts';

const BXL = 'Europe/Brussels';
const MAD = 'Europe/Madrid';
const utc = (s: string) => Date.parse(s);

test('toLocal: UTC instants to the local day and time, across DST and year ends', () => {
  const cases: Array<[string, string, string, string]> = [
    ['2025-03-30T00:59:00Z', BXL, '2025-03-30', '01:59'], // last minute of CET
    ['2025-03-30T01:00:00Z', BXL, '2025-03-30', '03:00'], // CEST starts: 02:00 → 03:00
    ['2025-10-26T00:59:00Z', BXL, '2025-10-26', '02:59'], // last minute of CEST
    ['2025-10-26T01:00:00Z', BXL, '2025-10-26', '02:00'], // CET again: 02:00 happens twice
    ['2024-09-16T22:00:00Z', BXL, '2024-09-17', '00:00'], // the SEDIA startDate of the anchors
    ['2025-12-31T23:30:00Z', BXL, '2026-01-01', '00:30'], // new year arrives in Brussels first
    ['2026-12-31T22:59:00Z', MAD, '2026-12-31', '23:59'],
    ['2027-01-20T16:00:00Z', BXL, '2027-01-20', '17:00'],
    ['2026-07-01T15:00:00Z', MAD, '2026-07-01', '17:00'],
  ];
  for (const [instant, zone, date, time] of cases) {
    assert.deepEqual(toLocal(utc(instant), zone), { date, time }, `${instant} in ${zone}`);
  }
});

test('zoneOffsetMs: +1 h in winter, +2 h in summer', () => {
  assert.equal(zoneOffsetMs(utc('2026-01-15T12:00:00Z'), BXL), 3_600_000);
  assert.equal(zoneOffsetMs(utc('2026-07-15T12:00:00Z'), MAD), 7_200_000);
  assert.equal(zoneOffsetMs(utc('2026-07-15T12:00:00Z'), 'UTC'), 0);
});

test('localToUtc: wall-clock times in a zone, gaps and repeats resolved', () => {
  const cases: Array<[string, string | null, string, string]> = [
    ['2025-03-30', null, BXL, '2025-03-29T23:00:00Z'],
    ['2025-03-30', '01:59', BXL, '2025-03-30T00:59:00Z'],
    ['2025-03-30', '02:30', BXL, '2025-03-30T01:30:00Z'], // in the spring gap: read as 03:30 CEST
    ['2025-03-30', '03:00', BXL, '2025-03-30T01:00:00Z'],
    ['2025-10-26', '02:30', BXL, '2025-10-26T00:30:00Z'], // happens twice: the earlier (CEST)
    ['2025-10-26', '03:00', BXL, '2025-10-26T02:00:00Z'],
    ['2026-01-20', '17:00', BXL, '2026-01-20T16:00:00Z'],
    ['2026-07-20', '17:00', BXL, '2026-07-20T15:00:00Z'],
    ['2026-12-31', null, MAD, '2026-12-30T23:00:00Z'],
    ['2028-02-29', '12:00', MAD, '2028-02-29T11:00:00Z'],
  ];
  for (const [date, time, zone, expected] of cases) {
    assert.equal(
      new Date(localToUtc(date, time, zone)).toISOString(),
      new Date(utc(expected)).toISOString(),
      `${date} ${time} ${zone}`,
    );
  }
});

test('localToUtc round-trips toLocal for every hour of a year in both zones', () => {
  for (const zone of [BXL, MAD]) {
    for (let ms = utc('2025-01-01T00:00:00Z'); ms < utc('2026-01-01T00:00:00Z'); ms += 3_600_000) {
      const { date, time } = toLocal(ms, zone);
      const back = localToUtc(date, time, zone);
      // In the repeated autumn hour the earlier instant is chosen: one hour before the later one.
      assert.ok(back === ms || back === ms - 3_600_000, `${new Date(ms).toISOString()} in ${zone}`);
      assert.deepEqual(toLocal(back, zone), { date, time });
    }
  }
});

test('localToUtc refuses what is not a date or a time', () => {
  for (const [date, time] of [
    ['2025-02-30', null],
    ['2025-13-01', null],
    ['20250101', null],
    ['2025-01-01', '24:00'],
    ['2025-01-01', '9:00'],
  ] as const) {
    assert.throws(() => localToUtc(date, time, BXL), RangeError, `${date} ${time}`);
  }
});

test('closesAt: the stated time, else the end of the deadline day in the zone', () => {
  const cases: Array<[string, string | null, string, string]> = [
    ['2025-03-29', null, BXL, '2025-03-29T23:00:00Z'], // the next day starts in CET
    ['2025-03-30', null, BXL, '2025-03-30T22:00:00Z'], // a 23-hour day: ends in CEST
    ['2025-10-25', null, BXL, '2025-10-25T22:00:00Z'],
    ['2025-10-26', null, BXL, '2025-10-26T23:00:00Z'], // a 25-hour day: ends in CET
    ['2026-12-31', null, MAD, '2026-12-31T23:00:00Z'], // across the year end
    ['2026-12-31', '17:00', BXL, '2026-12-31T16:00:00Z'],
    ['2027-05-04', '17:00', BXL, '2027-05-04T15:00:00Z'],
    ['2026-09-30', null, MAD, '2026-09-30T22:00:00Z'],
  ];
  for (const [date, time, zone, expected] of cases) {
    assert.equal(closesAt({ date, time }, zone), utc(expected), `${date} ${time} ${zone}`);
  }
});

test('opensAt: the start of the opening day in the zone', () => {
  assert.equal(opensAt('2025-10-26', BXL), utc('2025-10-25T22:00:00Z'));
  assert.equal(opensAt('2025-10-27', BXL), utc('2025-10-26T23:00:00Z'));
  assert.equal(opensAt('2027-01-01', MAD), utc('2026-12-31T23:00:00Z'));
});

test('addDays and isIsoDate: calendar arithmetic, leap years and year ends', () => {
  assert.equal(addDays('2026-12-31', 1), '2027-01-01');
  assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  assert.equal(addDays('2027-02-28', 1), '2027-03-01');
  assert.equal(addDays('2027-01-01', -1), '2026-12-31');
  assert.ok(isIsoDate('2028-02-29'));
  for (const bad of ['2027-02-29', '2026-00-10', '2026-1-5', '2026-01-05T00:00', '']) assert.ok(!isIsoDate(bad), bad);
  assert.throws(() => addDays('31/12/2026', 1), RangeError);
});

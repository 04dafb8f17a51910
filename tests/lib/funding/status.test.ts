import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callStatus, currentCutoff, undatedHorizon } from '../../../lib/funding/status.ts';

const T = Date.parse('2026-11-22T12:00:00Z');
const H = 3_600_000;

test('status as it reads now', () => {
  const cases: Array<
    [string, Omit<Parameters<typeof callStatus>[0], 'published_on'> & { published_on?: string }, string]
  > = [
    [
      'source says open, deadline passed: closed (rule 4)',
      { source_status: 'open', opens_at: T - 100 * H, closes_at: T - 1 },
      'closed',
    ],
    ['closes exactly now: closed', { source_status: 'open', opens_at: null, closes_at: T }, 'closed'],
    ['one millisecond before closing: open', { source_status: 'open', opens_at: null, closes_at: T + 1 }, 'open'],
    ['not yet open: forthcoming', { source_status: 'open', opens_at: T + H, closes_at: T + 100 * H }, 'forthcoming'],
    ['opens now: open', { source_status: 'forthcoming', opens_at: T, closes_at: T + H }, 'open'],
    [
      'source says forthcoming, no dates',
      { source_status: 'forthcoming', opens_at: null, closes_at: null },
      'forthcoming',
    ],
    [
      'source says closed before its deadline: closed',
      { source_status: 'closed', opens_at: null, closes_at: T + H },
      'closed',
    ],
    ['no deadline, source open: open', { source_status: 'open', opens_at: null, closes_at: null }, 'open'],
    ['nothing known: open', { source_status: null, opens_at: null, closes_at: null }, 'open'],
    [
      'undated, no source status, published 89 days ago: open',
      { source_status: null, opens_at: null, closes_at: null, published_on: '2026-08-25' },
      'open',
    ],
    [
      'undated, no source status, published 90 days ago: open',
      { source_status: null, opens_at: null, closes_at: null, published_on: '2026-08-24' },
      'open',
    ],
    [
      'undated, no source status, published 91 days ago: closed',
      { source_status: null, opens_at: null, closes_at: null, published_on: '2026-08-23' },
      'closed',
    ],
    [
      'undated but the source says open: the source is believed',
      { source_status: 'open', opens_at: null, closes_at: null, published_on: '2020-01-01' },
      'open',
    ],
  ];
  for (const [name, call, expected] of cases)
    assert.equal(callStatus({ published_on: null, ...call }, T), expected, name);
  assert.equal(undatedHorizon(T), '2026-08-24');
});

test('the cut-off shown is the next one still open, else the last', () => {
  const cutoffs = [
    { date: '2026-10-01', time: null },
    { date: '2026-12-01', time: '17:00' },
    { date: '2027-03-01', time: '17:00' },
  ];
  const closes = (c: { date: string }) => Date.parse(`${c.date}T00:00:00Z`);
  assert.deepEqual(currentCutoff(cutoffs, T, closes), cutoffs[1]);
  assert.deepEqual(currentCutoff(cutoffs, Date.parse('2027-06-01T00:00:00Z'), closes), cutoffs[2]);
  assert.deepEqual(currentCutoff(cutoffs, Date.parse('2020-01-01T00:00:00Z'), closes), cutoffs[0]);
  assert.equal(currentCutoff([], T, closes), null);
});

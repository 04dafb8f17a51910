/** What counts as a change in a call and how it reads (lib/funding/history.ts), as a table. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callChanges, changeWords, type CallState } from '../../../lib/funding/history.ts';

const NOW = Date.parse('2026-01-10T10:00:00Z');
const base: CallState = {
  title: 'Ayudas para proyectos de hidrógeno renovable',
  cutoffs: [{ date: '2026-01-15', time: null }],
  opening_on: '2025-12-01',
  source_status: null,
  budget: 600_000,
  award_ceiling: null,
  currency: 'EUR',
  closes_at: Date.parse('2026-01-15T23:00:00Z'),
};

const cases: Array<[string, Partial<CallState>, Partial<CallState>, string[]]> = [
  ['nothing changed', {}, {}, []],
  ['title spacing only', {}, { title: 'Ayudas  para proyectos de hidrógeno renovable ' }, []],
  [
    'deadline extended',
    {},
    { cutoffs: [{ date: '2026-02-26', time: null }] },
    ['deadline extended from 15 January to 26 February 2026'],
  ],
  [
    'deadline extended into the next year',
    { cutoffs: [{ date: '2025-12-15', time: null }] },
    { cutoffs: [{ date: '2026-01-20', time: null }] },
    ['deadline extended from 15 December 2025 to 20 January 2026'],
  ],
  [
    'deadline brought forward',
    {},
    { cutoffs: [{ date: '2026-01-12', time: null }] },
    ['deadline brought forward from 15 January to 12 January 2026'],
  ],
  [
    'closing time stated',
    {},
    { cutoffs: [{ date: '2026-01-15', time: '14:00' }] },
    ['closing time on 15 January 2026 changed from end of the day to 14:00'],
  ],
  [
    'a cut-off added before the last',
    { cutoffs: [{ date: '2026-03-01', time: '17:00' }] },
    {
      cutoffs: [
        { date: '2026-02-01', time: '17:00' },
        { date: '2026-03-01', time: '17:00' },
      ],
    },
    ['cut-offs changed: now 1 February 2026 at 17:00, 1 March 2026 at 17:00 (were 1 March 2026 at 17:00)'],
  ],
  ['a deadline first stated (a detail after a list entry) is no change', { cutoffs: [] }, {}, []],
  ['a budget first stated is no change', { budget: null }, {}, []],
  ['budget raised', {}, { budget: 900_000 }, ['budget raised from €600,000 to €900,000']],
  ['budget cut', {}, { budget: 450_000 }, ['budget cut from €600,000 to €450,000']],
  [
    'award ceiling raised',
    { award_ceiling: 2_500_000 },
    { award_ceiling: 3_000_000 },
    ['award ceiling (per grant) raised from €2,500,000 to €3,000,000'],
  ],
  ['opening day moved', {}, { opening_on: '2025-12-10' }, ['opening day moved from 1 December to 10 December 2025']],
  [
    'the source says open then closed after the deadline',
    { source_status: 'open', closes_at: Date.parse('2026-01-05T23:00:00Z') },
    { source_status: 'closed', closes_at: Date.parse('2026-01-05T23:00:00Z') },
    ["the source's status changed from open to closed"],
  ],
  [
    'closed by the source before its deadline: withdrawn',
    { source_status: 'open' },
    { source_status: 'closed' },
    ['withdrawn: the source closed it before its deadline'],
  ],
  [
    'forthcoming to open',
    { source_status: 'forthcoming' },
    { source_status: 'open' },
    ["the source's status changed from forthcoming to open"],
  ],
  [
    'title reworded, and the budget raised',
    {},
    { title: 'Ayudas para proyectos de hidrógeno verde', budget: 700_000 },
    [
      'budget raised from €600,000 to €700,000',
      'title changed from “Ayudas para proyectos de hidrógeno renovable” to “Ayudas para proyectos de hidrógeno verde”',
    ],
  ],
];

for (const [name, before, after, words] of cases) {
  test(name, () => {
    const changes = callChanges({ ...base, ...before }, { ...base, ...after }, NOW);
    assert.deepEqual(changes.map(changeWords), words);
  });
}

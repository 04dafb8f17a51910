/** The sum row of an explain stage: centrals add up, or the page says why there is nothing to add. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sumStage, type StageSum } from '../../../lib/explore/explain-sum.ts';

const c = (central: number | null) => ({ central });

test('sumStage, case by case', () => {
  const cases: Array<[string, { central: number | null } | null, Array<{ central: number | null }>, StageSum]> = [
    [
      'parts add up',
      c(0.6),
      [c(0.1), c(0.2), c(0.3)],
      { kind: 'sums', sum: 0.6000000000000001, headline: 0.6, agrees: true, parts: 3 },
    ],
    [
      'within 1e-9 relative',
      c(3.0520001e-8),
      [c(1.421e-8), c(1.2300001e-8), c(4.01e-9), c(0)],
      { kind: 'sums', sum: 3.0520001e-8, headline: 3.0520001e-8, agrees: true, parts: 4 },
    ],
    [
      'off by 1e-6 relative',
      c(1.000001),
      [c(0.5), c(0.5)],
      { kind: 'sums', sum: 1, headline: 1.000001, agrees: false, parts: 2 },
    ],
    ['no parts, zero headline', c(0), [], { kind: 'sums', sum: 0, headline: 0, agrees: true, parts: 0 }],
    [
      'INDICATIVE headline',
      c(null),
      [c(1), c(2)],
      { kind: 'no_central', headlineHasCentral: false, partsWithout: 0, parts: 2 },
    ],
    [
      'INDICATIVE parts',
      c(3),
      [c(1), c(null), c(null)],
      { kind: 'no_central', headlineHasCentral: true, partsWithout: 2, parts: 3 },
    ],
    ['no headline at all', null, [c(1)], { kind: 'no_central', headlineHasCentral: false, partsWithout: 0, parts: 1 }],
  ];
  for (const [name, headline, parts, expected] of cases) {
    const got = sumStage(headline, parts);
    if (expected.kind === 'sums' && got.kind === 'sums') {
      assert.ok(Math.abs(got.sum - expected.sum) <= 1e-15 * Math.abs(expected.sum) + 1e-300, name);
      assert.deepEqual({ ...got, sum: 0 }, { ...expected, sum: 0 }, name);
    } else assert.deepEqual(got, expected, name);
  }
});

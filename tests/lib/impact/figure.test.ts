/** Quantiles, grades, rounding and display of figures (methodology v1 §8). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  displayFigure,
  formatSig,
  gradeOf,
  productCap,
  quantileSorted,
  roundSig,
  summarize,
  toFigure,
  type Grade,
} from '../../../lib/impact/figure.ts';

test('quantiles interpolate linearly between order statistics (type 7)', () => {
  const cases: Array<[number[], number, number]> = [
    [[1, 2, 3, 4, 5], 0.5, 3],
    [[1, 2, 3, 4], 0.5, 2.5],
    [[0, 10], 0.05, 0.5],
    [[0, 10], 0.95, 9.5],
    [Array.from({ length: 101 }, (_, i) => i), 0.05, 5],
    [Array.from({ length: 101 }, (_, i) => i), 0.95, 95],
    [[7], 0.95, 7],
  ];
  for (const [values, p, expected] of cases)
    assert.equal(quantileSorted(values, p), expected, `${values.length} values, p=${p}`);
});

test('summarize: p05, p50, p95 and the mean, whatever the order of the draws', () => {
  const draws = Float64Array.from(Array.from({ length: 101 }, (_, i) => (i * 37) % 101));
  assert.deepEqual(summarize(draws), { low: 5, median: 50, high: 95, mean: 50 });
});

test('grades from the spread high/low and the cap the inputs set', () => {
  const cases: Array<[string, number, number, Grade, Grade]> = [
    // name, low, high, cap, expected
    ['spread 2', 1, 2, 'ROBUST', 'ROBUST'],
    ['spread exactly 3', 1, 3, 'ROBUST', 'ROBUST'],
    ['spread just over 3', 1, 3.0001, 'ROBUST', 'MODERATE'],
    ['spread exactly 10', 2, 20, 'ROBUST', 'MODERATE'],
    ['spread 11', 1, 11, 'ROBUST', 'INDICATIVE'],
    ['low 0, high > 0', 0, 1e-9, 'ROBUST', 'INDICATIVE'],
    ['0 to 0: nothing attributed, exactly', 0, 0, 'ROBUST', 'ROBUST'],
    ['narrow but capped', 1, 2, 'MODERATE', 'MODERATE'],
    ['narrow, inputs indicative', 1, 1.1, 'INDICATIVE', 'INDICATIVE'],
    ['wide beats a loose cap', 1, 50, 'MODERATE', 'INDICATIVE'],
  ];
  for (const [name, low, high, cap, expected] of cases)
    assert.equal(gradeOf({ low, median: low, high, mean: low }, cap), expected, name);
});

test('what caps a product: bill-of-materials confidence, completeness, illustrative inputs', () => {
  const cases: Array<[string | null, boolean, boolean, Grade]> = [
    ['high', true, false, 'ROBUST'],
    ['high', false, false, 'MODERATE'],
    ['high', true, true, 'MODERATE'],
    ['medium', true, false, 'MODERATE'],
    ['low', true, false, 'INDICATIVE'],
    [null, false, false, 'INDICATIVE'],
  ];
  for (const [bom_confidence, complete, illustrative, expected] of cases)
    assert.equal(
      productCap({ bom_confidence, complete }, illustrative),
      expected,
      `${bom_confidence} ${complete} ${illustrative}`,
    );
});

test('an INDICATIVE figure has no central value; others carry the mean', () => {
  assert.equal(toFigure({ low: 1, median: 2, high: 50, mean: 9 }).central, null);
  assert.equal(toFigure({ low: 1, median: 2, high: 5, mean: 2.4 }).central, 2.4);
  assert.equal(toFigure({ low: 1, median: 2, high: 5, mean: 2.4 }, 'INDICATIVE').central, null);
});

test('two significant figures', () => {
  const cases: Array<[number, number, string]> = [
    [3.86e-5, 3.9e-5, '3.9e-5'],
    [1.25, 1.3, '1.3'],
    [0.0149, 0.015, '0.015'],
    [0.00999, 0.01, '0.010'],
    [123456, 120000, '120000'],
    [2_345_678, 2_300_000, '2.3e6'],
    [-0.000456, -0.00046, '-4.6e-4'],
    [0, 0, '0'],
    [1, 1, '1.0'],
    // issue 14: trailing zeros are kept, so a reader sees two significant figures
    [0.1, 0.1, '0.10'],
    [5e-9, 5e-9, '5.0e-9'],
    [120, 120, '120'],
    [0.05, 0.05, '0.050'],
    [0.5, 0.5, '0.50'],
    [0.082, 0.082, '0.082'],
    [99.5, 100, '100'],
    [999_999, 1_000_000, '1.0e6'],
    [0.0099, 0.0099, '9.9e-3'],
  ];
  for (const [x, rounded, text] of cases) {
    assert.equal(roundSig(x), rounded, `roundSig(${x})`);
    assert.equal(formatSig(x), text, `formatSig(${x})`);
  }
});

test('a figure is displayed with its interval; an INDICATIVE one as its interval only', () => {
  assert.equal(displayFigure({ low: 1.7e-5, central: 3.86e-5, high: 6.02e-5 }), '3.9e-5 (1.7e-5–6.0e-5)');
  assert.equal(displayFigure({ low: 0.45, central: 1.234, high: 3.1 }), '1.2 (0.45–3.1)');
  assert.equal(displayFigure({ low: 1.97e-8, central: null, high: 6.02e-8 }), 'between 2.0e-8 and 6.0e-8');
  assert.equal(displayFigure({ low: 0.082, central: 0.1, high: 0.13 }), '0.10 (0.082–0.13)');
});

test('more significant figures keep their trailing zeros too', () => {
  const cases: Array<[number, number, string]> = [
    [0.1, 3, '0.100'],
    [1234, 3, '1230'],
    [12.5, 4, '12.50'],
    [50, 3, '50.0'],
  ];
  for (const [x, digits, text] of cases) assert.equal(formatSig(x, digits), text, `formatSig(${x}, ${digits})`);
});

test('selection gives exactly the quantiles a full sort gives, ties and all', () => {
  for (const n of [2, 3, 10, 101, 1000]) {
    for (const kind of ['random', 'ties', 'sorted', 'reversed']) {
      const draws = Float64Array.from({ length: n }, (_, i) =>
        kind === 'ties'
          ? (i * 7) % 3
          : kind === 'sorted'
            ? i
            : kind === 'reversed'
              ? n - i
              : (Math.sin(i * 12.9898) * 43758.5453) % 1,
      );
      const sorted = Float64Array.from(draws).sort();
      const s = summarize(draws);
      assert.deepEqual(
        [s.low, s.median, s.high],
        [0.05, 0.5, 0.95].map((p) => quantileSorted(sorted, p)),
        `${kind} ${n}`,
      );
    }
  }
});

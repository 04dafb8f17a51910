/** Axes of the explorer's charts: round linear ends from 0, whole-decade log ends, and when each is chosen. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { autoScale, linearScale, logScale, niceStep } from '../../../lib/explore/scale.ts';

test('niceStep: 1, 2 or 5 times a power of ten, about a quarter of the top', () => {
  const cases: Array<[number, number]> = [
    [10, 5],
    [4, 1],
    [7, 2],
    [1.9e-8, 5e-9],
    [3e-6, 1e-6],
    [0.3, 0.1],
    [100, 50],
  ];
  for (const [max, step] of cases) assert.equal(niceStep(max), step, `max ${max}`);
});

test('linearScale: from 0 to a round top at or above every value, with ticks at each step', () => {
  const cases: Array<[number[], number, number[]]> = [
    [[3.1e-8, 4.4e-8], 6e-8, [0, 2e-8, 4e-8, 6e-8]],
    [[10], 10, [0, 5, 10]],
    [[0.3], 0.3, [0, 0.1, 0.2, 0.3]],
    [[0, 0], 1, [0, 0.5, 1]],
    [[], 1, [0, 0.5, 1]],
    [[NaN, 2], 2, [0, 0.5, 1, 1.5, 2]],
  ];
  for (const [values, max, ticks] of cases) {
    const s = linearScale(values);
    assert.equal(s.kind, 'linear');
    assert.equal(s.min, 0);
    assert.equal(s.max, max, `max of ${values}`);
    assert.deepEqual(s.ticks, ticks, `ticks of ${values}`);
    for (const v of values.filter(Number.isFinite)) assert.ok(s.at(v) >= 0 && s.at(v) <= 1);
  }
  const s = linearScale([8]);
  assert.equal(s.at(0), 0);
  assert.equal(s.at(s.max), 1);
  assert.equal(s.at(s.max / 2), 0.5);
  assert.equal(s.at(-1), 0, 'clamped');
});

test('logScale: whole decades around the positive values, a reference included', () => {
  const cases: Array<[number[], number[], number, number, number[]]> = [
    [[8e-11, 4.4e-8], [], 1e-11, 1e-7, [1e-11, 1e-10, 1e-9, 1e-8, 1e-7]],
    [[0.15, 2.2], [1], 0.1, 10, [0.1, 1, 10]],
    [[1, 1], [1], 1, 10, [1, 10]],
    [[0, 5e-9], [], 1e-9, 1e-8, [1e-9, 1e-8]],
    [[1e-12, 1e6], [], 1e-12, 1e6, [1e-12, 1e-9, 1e-6, 1e-3, 1, 1e3, 1e6]],
  ];
  for (const [values, include, min, max, ticks] of cases) {
    const s = logScale(values, include);
    assert.equal(s.kind, 'log');
    assert.equal(s.min, min, `min of ${values}`);
    assert.equal(s.max, max, `max of ${values}`);
    assert.deepEqual(s.ticks, ticks, `ticks of ${values}`);
  }
  const s = logScale([1e-10, 1e-8]);
  assert.equal(s.at(1e-9), 0.5);
  assert.equal(s.at(0), 0, 'zero sits at the left end');
});

test('autoScale: log when values span more than a factor of 20, or when asked', () => {
  const cases: Array<[number[], boolean, 'linear' | 'log']> = [
    [[1, 10], false, 'linear'],
    [[1, 21], false, 'log'],
    [[8e-11, 4.4e-8], false, 'log'],
    [[0, 5], false, 'linear'],
    [[2, 3], true, 'log'],
  ];
  for (const [values, forceLog, kind] of cases) assert.equal(autoScale(values, { forceLog }).kind, kind, `${values}`);
});

/** /compare's ratio of paired draws: checked by hand on small draw sets, symmetric, and honest about zeros. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FigureCheckError } from '../../../lib/impact/check-figure.ts';
import { checkRatio, pairedRatio, quantileWithInfinities } from '../../../lib/impact/present-compare.ts';

const draws = (...x: number[]) => Float64Array.from(x);

test('the ratio of paired draws, by hand', () => {
  // 21 draws: a is 2·b in every draw, so every quantile of a/b is 2 and a is larger in all of them.
  const b = Float64Array.from({ length: 21 }, (_, i) => 1 + i);
  const a = b.map((x) => 2 * x);
  const r = pairedRatio(a, b, 1, [42, 21]);
  const near = (x: number | null, y: number) => x !== null && Math.abs(x - y) <= 1e-12 * y;
  assert.ok(near(r.low, 2) && near(r.median, 2) && near(r.high, 2), JSON.stringify(r));
  assert.deepEqual([r.central, r.verdict, r.p_a_greater], [2, 'a_larger', 1]);
  // per kg: a weighs 4 times b, so per kg a is half of b. The centrals passed are the per-kg figures'
  // own (a: 42 per unit over 4 kg, b: 21 over 1 kg): their quotient is the central ratio, not scaled again.
  const kg = pairedRatio(a, b, 0.25, [42 / 4, 21]);
  assert.equal(kg.verdict, 'b_larger');
  assert.ok(Math.abs(kg.median! - 0.5) < 1e-15 && Math.abs(kg.central! - 0.5) < 1e-15, JSON.stringify(kg));
  assert.equal(kg.p_a_greater, 0);
  assert.equal(kg.p_a_equal, 0);
});

test('issue 14: a central ratio that is not what the draws give is refused (rule 4)', () => {
  const b = Float64Array.from({ length: 21 }, (_, i) => 1 + i);
  const a = b.map((x) => 2 * x);
  // The old arithmetic: per-kg centrals scaled by the mass ratio a second time gives 0.125, not 0.5.
  assert.throws(
    () =>
      checkRatio(
        { central: 0.125, low: 0.5, median: 0.5, high: 0.5, verdict: 'b_larger', p_a_greater: 0, p_a_equal: 0 },
        { ofMeans: 0.5, min: 0.5, max: 0.5 },
      ),
    /central/,
  );
  // Centrals that do not belong to these draws are refused too.
  assert.throws(() => pairedRatio(a, b, 0.25, [42, 21]), FigureCheckError);
  assert.throws(() => pairedRatio(a, b, 1, [1, 2]), /not the ratio of the draws' means/);
  // Within the draws' range but not their means' ratio: refused.
  assert.throws(
    () =>
      checkRatio(
        { central: 1.5, low: 1, median: 1.5, high: 2, verdict: 'not_distinguishable', p_a_greater: 0.5, p_a_equal: 0 },
        { ofMeans: 1.4, min: 1, max: 2 },
      ),
    /means/,
  );
  // The ratio of means outside every draw's ratio cannot happen for honest draws, and is refused.
  assert.throws(
    () =>
      checkRatio(
        { central: 3, low: 1, median: 1.5, high: 2, verdict: 'not_distinguishable', p_a_greater: 0.5, p_a_equal: 0 },
        { ofMeans: 3, min: 1, max: 2 },
      ),
    /outside/,
  );
});

test('ties: identical sides are a tie (p_a_equal 1), not "b larger"; equal per unit differs per kg by the masses', () => {
  const x = draws(1, 2, 3, 4, 5);
  const same = pairedRatio(x, x, 1, [3, 3]);
  assert.deepEqual(
    [same.p_a_greater, same.p_a_equal, same.central, same.low, same.high, same.verdict],
    [0, 1, 1, 1, 1, 'not_distinguishable'],
  );
  // Same per-unit draws, a twice as heavy: per kg a is half of b in every draw, not a tie.
  const kg = pairedRatio(x, x, 0.5, [1.5, 3]);
  assert.deepEqual([kg.p_a_greater, kg.p_a_equal, kg.verdict], [0, 0, 'b_larger']);
  assert.ok(Math.abs(kg.median! - 0.5) < 1e-15 && Math.abs(kg.central! - 0.5) < 1e-15);
  // Some draws tie, some not.
  const mixed = pairedRatio(draws(1, 2, 3, 0), draws(1, 1, 3, 0), 1, [1.5, 1.25]);
  assert.deepEqual([mixed.p_a_greater, mixed.p_a_equal], [0.25, 0.75]);
});

test("a verdict only where the ratio's p05–p95 interval excludes 1", () => {
  // Ratios 0.5, 0.6, …, 2.5 (21 draws): p05 = 0.6, p95 = 2.4, so not distinguishable although a is larger in most draws.
  const b = draws(...Array(21).fill(1));
  const a = Float64Array.from({ length: 21 }, (_, i) => 0.5 + i / 10);
  const r = pairedRatio(a, b, 1, [null, 1]);
  assert.equal(r.verdict, 'not_distinguishable');
  assert.ok(Math.abs(r.low! - 0.6) < 1e-12 && Math.abs(r.high! - 2.4) < 1e-12);
  assert.equal(r.p_a_greater, 15 / 21);
  assert.equal(r.central, null, 'no central ratio when a figure has no central value');
});

test('zeros: a tie when both are 0, an unbounded quantile when only b is', () => {
  const zeros = draws(0, 0, 0, 0);
  assert.deepEqual(pairedRatio(zeros, zeros, 1, [0, 0]), {
    central: null,
    low: 1,
    median: 1,
    high: 1,
    verdict: 'not_distinguishable',
    p_a_greater: 0,
    p_a_equal: 1,
  });
  const r = pairedRatio(draws(1, 2, 3, 4), zeros, 1, [2.5, 0]);
  assert.deepEqual(
    [r.low, r.median, r.high, r.verdict, r.p_a_greater, r.central],
    [null, null, null, 'a_larger', 1, null],
  );
  const back = pairedRatio(zeros, draws(1, 2, 3, 4), 1, [0, 2.5]);
  assert.deepEqual([back.low, back.median, back.high, back.verdict, back.central], [0, 0, 0, 'b_larger', 0]);
});

test('compare(a, b) and compare(b, a) are reciprocal, for any draws', () => {
  const positive = fc.double({ min: 1e-12, max: 1e6, noNaN: true });
  fc.assert(
    fc.property(fc.array(fc.tuple(positive, positive), { minLength: 1, maxLength: 60 }), (pairs) => {
      const a = Float64Array.from(pairs.map((p) => p[0]));
      const b = Float64Array.from(pairs.map((p) => p[1]));
      const mean = (x: Float64Array) => x.reduce((s, y) => s + y, 0) / x.length;
      const ab = pairedRatio(a, b, 1, [mean(a), mean(b)]);
      const ba = pairedRatio(b, a, 1, [mean(b), mean(a)]);
      const rel = (x: number, y: number) => Math.abs(x * y - 1) <= 1e-9;
      assert.ok(rel(ab.low!, ba.high!) && rel(ab.median!, ba.median!) && rel(ab.high!, ba.low!));
      assert.equal(
        ba.verdict,
        { a_larger: 'b_larger', b_larger: 'a_larger', not_distinguishable: 'not_distinguishable' }[ab.verdict],
      );
      assert.ok(
        Math.abs(ab.p_a_greater + ba.p_a_greater + ab.p_a_equal - 1) < 1e-12,
        'a > b, b > a and ties cover every draw',
      );
      assert.equal(ab.p_a_equal, ba.p_a_equal);
      assert.ok(
        ab.central! >= ab.low! * (1 - 1e-9) || ab.central! >= Math.min(...pairs.map((p) => p[0] / p[1])) * (1 - 1e-9),
      );
    }),
    { numRuns: 300 },
  );
});

test('quantiles through infinities are symmetric under negation', () => {
  const sorted = draws(-Infinity, -1, 0, 2, Infinity);
  const neg = Float64Array.from([...sorted].map((x) => -x).sort((x, y) => x - y));
  for (const p of [0, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 1]) {
    const x = quantileWithInfinities(sorted, p);
    const y = -quantileWithInfinities(neg, 1 - p);
    assert.ok(x === y || Math.abs(x - y) <= 1e-12, `p = ${p}: ${x} and ${y}`);
  }
});

test('draws that do not pair, or are not numbers, are refused', () => {
  assert.throws(() => pairedRatio(draws(1, 2), draws(1), 1, [null, null]), FigureCheckError);
  assert.throws(
    () => pairedRatio(draws(1, Number.NaN), draws(1, 1), 1, [null, null]),
    /not a finite non-negative number/,
  );
  assert.throws(() => pairedRatio(draws(1, -1), draws(1, 1), 1, [null, null]), FigureCheckError);
  assert.throws(() => pairedRatio(draws(1), draws(1), 0, [null, null]), /scale/);
});

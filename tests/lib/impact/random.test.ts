/** The counter-based random numbers: determinism, range, pairing and the normal quantile. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bandFactors, hashKey, lognormalFactors, normalQuantile, uniform } from '../../../lib/impact/random.ts';

test('uniform numbers are in (0, 1), repeatable, and differ by seed, key and draw', () => {
  const h = hashKey('price|cobalt');
  const a = Array.from({ length: 10_000 }, (_, d) => uniform(42, h, d));
  assert.ok(a.every((u) => u > 0 && u < 1));
  assert.deepEqual(
    a.slice(0, 5),
    Array.from({ length: 5 }, (_, d) => uniform(42, h, d)),
  );
  assert.notEqual(uniform(42, h, 0), uniform(43, h, 0));
  assert.notEqual(uniform(42, h, 0), uniform(42, hashKey('price|copper'), 0));
  const mean = a.reduce((s, u) => s + u, 0) / a.length;
  assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
  const lowDecile = a.filter((u) => u < 0.1).length / a.length;
  assert.ok(Math.abs(lowDecile - 0.1) < 0.01, `first decile ${lowDecile}`);
});

test('draw d of an input does not depend on what was drawn before (pairing)', () => {
  const first = lognormalFactors(9, 'bom|phone|1', 100, 1.2);
  lognormalFactors(9, 'something else', 1000, 2);
  const again = lognormalFactors(9, 'bom|phone|1', 100, 1.2);
  const longer = lognormalFactors(9, 'bom|phone|1', 200, 1.2);
  assert.deepEqual(again, first);
  assert.deepEqual(longer.subarray(0, 100), first);
});

test('the normal quantile at known points', () => {
  const cases: Array<[number, number]> = [
    [0.5, 0],
    [0.975, 1.959963985],
    [0.025, -1.959963985],
    [0.95, 1.644853627],
    [0.001, -3.090232306],
    [0.8413447461, 1],
  ];
  for (const [p, z] of cases) assert.ok(Math.abs(normalQuantile(p) - z) < 1e-8, `Φ⁻¹(${p}) = ${normalQuantile(p)}`);
  assert.throws(() => normalQuantile(0), RangeError);
  assert.throws(() => normalQuantile(1), RangeError);
});

test('lognormal factors have median 1 and the asked spread; bands stay in their band', () => {
  const f = Array.from(lognormalFactors(5, 'x', 20_001, 2)).sort((a, b) => a - b);
  assert.ok(Math.abs(f[10_000]! - 1) < 0.03, `median ${f[10_000]}`);
  const p95 = f[Math.round(0.95 * 20_000)]!;
  assert.ok(Math.abs(Math.log(p95) / Math.log(2) - 1.645) < 0.05, `p95 ${p95}`);
  assert.ok(
    lognormalFactors(5, 'x', 10, 1).every((x) => x === 1),
    'gsd 1 is certain',
  );
  const b = bandFactors(5, 'y', 10_000, 0.5);
  assert.ok(b.every((x) => x >= 0.5 && x <= 1.5));
});

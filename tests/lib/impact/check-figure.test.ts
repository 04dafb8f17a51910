/** The figure check (rule 4), table-driven: each way a row can be wrong is refused with its reason. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkFigure,
  checkSum,
  FigureCheckError,
  scaleRow,
  shareOf,
  type ServedRun,
  type StatRow,
} from '../../../lib/impact/check-figure.ts';

const RUN: ServedRun = {
  id: 7,
  status: 'validated',
  published_at: '2026-11-22T10:00:00.000Z',
  quantiles: 'p05,p50,p95',
  illustrative: 1,
};
// Spread 3e-5 / 1e-5 = 3: ROBUST by spread, MODERATE under the illustrative cap.
const GOOD: StatRow = { low: 1e-5, median: 2e-5, high: 3e-5, mean: 2.1e-5, central: 2.1e-5, grade: 'MODERATE' };
const SPEC = { what: 'product p deaths per_unit', unit: 'deaths per piece', cap: 'MODERATE' as const, runId: 7 };

test('a good row becomes a Figure with its display string', () => {
  const f = checkFigure(RUN, GOOD, SPEC);
  assert.deepEqual(f, {
    central: 2.1e-5,
    low: 1e-5,
    median: 2e-5,
    high: 3e-5,
    grade: 'MODERATE',
    unit: 'deaths per piece',
    display: '2.1e-5 (1.0e-5–3.0e-5)',
    quotable: '21 (10–30) deaths per million pieces',
    provenance: null,
  });
  const indicative = checkFigure(
    RUN,
    { low: 1e-8, median: 5e-8, high: 2e-7, mean: 6e-8, central: null, grade: 'INDICATIVE' },
    SPEC,
  );
  assert.equal(indicative.display, 'between 1.0e-8 and 2.0e-7');
  const zero = checkFigure(RUN, { low: 0, median: 0, high: 0, mean: 0, central: 0, grade: 'MODERATE' }, SPEC);
  assert.equal(zero.display, '0 (0–0)');
});

test('each way a row or its run can be wrong is refused, with the reason', () => {
  const cases: Array<[string, Partial<StatRow>, Partial<ServedRun>, Partial<typeof SPEC>, RegExp]> = [
    ['a failed run', {}, { status: 'failed' }, {}, /is failed, not validated/],
    ['an unpublished run', {}, { published_at: null }, {}, /never published/],
    ['other quantiles', {}, { quantiles: 'p10,p50,p90' }, {}, /quantiles/],
    ['a row of another run', {}, {}, { runId: 8 }, /row of run 8 offered as run 7/],
    ['NaN', { median: Number.NaN }, {}, {}, /not finite/],
    ['infinity', { high: Infinity }, {}, {}, /not finite/],
    ['a missing value', { low: null as unknown as number }, {}, {}, /missing or not finite/],
    ['negative', { low: -1e-6 }, {}, {}, /negative/],
    ['low above median', { low: 2.5e-5 }, {}, {}, /out of order/],
    ['median above high', { median: 4e-5 }, {}, {}, /out of order/],
    ['an unknown grade', { grade: 'GOOD' }, {}, {}, /unknown grade/],
    ['better than the cap', { grade: 'ROBUST' }, {}, {}, /graded ROBUST, but .* give MODERATE/],
    ['better than the spread', { low: 1e-6, median: 2e-5, grade: 'MODERATE' }, {}, {}, /give INDICATIVE/],
    ['worse than it is', { grade: 'INDICATIVE', central: null }, {}, {}, /graded INDICATIVE, but/],
    [
      'a central value on an INDICATIVE figure',
      { low: 1e-7, median: 2e-5, mean: 2e-5, central: 2e-5, grade: 'INDICATIVE' },
      {},
      {},
      /INDICATIVE figure carries a central value/,
    ],
    ['no central value on a MODERATE figure', { central: null }, {}, {}, /MODERATE figure has no central value/],
    ['a central value that is not the mean', { central: 2.2e-5 }, {}, {}, /not the mean/],
    ['a central value outside its interval', { mean: 3.5e-5, central: 3.5e-5 }, {}, {}, /outside its interval/],
  ];
  for (const [name, row, run, spec, reason] of cases) {
    assert.throws(
      () => checkFigure({ ...RUN, ...run }, { ...GOOD, ...row }, { ...SPEC, ...spec }),
      (err: unknown) => {
        assert.ok(err instanceof FigureCheckError, name);
        assert.equal(err.what, SPEC.what);
        assert.match(err.reason, reason, name);
        return true;
      },
      name,
    );
  }
});

test('provenance shares: carried with a summary, capping the grade when mostly not measured', () => {
  const robust = { ...SPEC, cap: 'ROBUST' as const };
  const measured = { prov_published: 0.7, prov_derived: 0.2, prov_assumption: 0.1, prov_illustrative: 0 };
  const f = checkFigure(RUN, { ...GOOD, grade: 'ROBUST', ...measured }, robust);
  assert.equal(f.grade, 'ROBUST');
  assert.deepEqual(
    { ...f.provenance, summary: undefined },
    { published: 0.7, derived: 0.2, assumption: 0.1, illustrative: 0, summary: undefined },
  );
  assert.equal(
    f.provenance!.summary,
    'Rests mostly on published data and values derived from it: 70% on published data, 20% on derived from published data by a stated formula, 10% on documented assumptions.',
  );
  assert.equal(f.quotable, '21 (10–30) deaths per million pieces');
  const assumed = { prov_published: 0.3, prov_derived: 0.1, prov_assumption: 0.4, prov_illustrative: 0.2 };
  const capped = checkFigure(RUN, { ...GOOD, grade: 'MODERATE', ...assumed }, robust);
  assert.equal(capped.grade, 'MODERATE', '60% not measured: at most MODERATE');
  assert.match(capped.quotable, /rests mostly on assumed or illustrative inputs$/);
  const wrong: Array<[string, Partial<StatRow>, RegExp]> = [
    ['graded above its inputs', { grade: 'ROBUST', ...assumed }, /graded ROBUST, but .* give MODERATE/],
    ['a share missing', { ...measured, prov_derived: null }, /provenance shares incomplete/],
    ['a share above 1', { ...measured, prov_published: 1.2, prov_derived: -0.3 }, /out of \[0, 1\]/],
    ['shares not adding up', { ...measured, prov_published: 0.5 }, /add up to 0.79+, not 1/],
  ];
  for (const [name, row, reason] of wrong)
    assert.throws(
      () => checkFigure(RUN, { ...GOOD, grade: 'ROBUST', ...row }, robust),
      (err: unknown) => err instanceof FigureCheckError && reason.test(err.reason),
      name,
    );
});

test('scaling multiplies every statistic and keeps the grade', () => {
  const scaled = scaleRow(GOOD, 2000);
  assert.deepEqual(
    [scaled.low, scaled.median, scaled.high, scaled.mean, scaled.central],
    [GOOD.low * 2000, GOOD.median * 2000, GOOD.high * 2000, GOOD.mean * 2000, GOOD.central! * 2000],
  );
  assert.equal(scaleRow(GOOD, 2).high, 6e-5, 'doubling is exact');
  assert.equal(checkFigure(RUN, scaled, SPEC).grade, 'MODERATE');
  assert.equal(scaleRow({ ...GOOD, central: null }, 3).central, null);
});

test('parts must add up to their headline, to 1e-9 relative', () => {
  checkSum('x', { mean: 1 }, [{ mean: 0.25 }, { mean: 0.75 }]);
  checkSum('x', { mean: 0.3 }, [{ mean: 0.1 }, { mean: 0.2 }]); // 0.30000000000000004
  checkSum('x', { mean: 0 }, []);
  assert.throws(() => checkSum('x', { mean: 1 }, [{ mean: 0.5 }, { mean: 0.4999 }]), /parts add up to 0.9999/);
});

test('a share is given only between two figures with a central value', () => {
  const head = checkFigure(RUN, GOOD, SPEC);
  const part = checkFigure(
    RUN,
    { low: 5e-6, median: 1e-5, high: 1.5e-5, mean: 1.05e-5, central: 1.05e-5, grade: 'MODERATE' },
    SPEC,
  );
  const vague = checkFigure(
    RUN,
    { low: 1e-8, median: 5e-8, high: 2e-7, mean: 6e-8, central: null, grade: 'INDICATIVE' },
    SPEC,
  );
  assert.equal(shareOf(part, head), 0.5);
  assert.equal(shareOf(vague, head), null);
  assert.equal(shareOf(part, vague), null);
});

/**
 * The interval chart as a pure function: an accessible SVG (role img, named by its title, described by
 * the figures in words), a dot only where the API gives a central value, "withheld" where there is no
 * figure, marks in the right order along the axis, text escaped, and a table with every number.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  intervalChart,
  intervalDescription,
  intervalFigure,
  intervalTable,
  type IntervalChartSpec,
  type IntervalRow,
} from '../../../lib/explore/interval-chart.ts';

const moderate = (central: number, low: number, high: number, display: string) => ({ central, low, high, display });
const indicative = (low: number, high: number, display: string) => ({ central: null, low, high, display });

const spec = (rows: IntervalRow[], extra: Partial<IntervalChartSpec> = {}): IntervalChartSpec => ({
  id: 'c1',
  title: 'Deaths per phone, by scenario',
  summary: 'Interval and central value per scenario.',
  unit: 'deaths per phone',
  rows,
  ...extra,
});

const count = (text: string, needle: RegExp) => (text.match(needle) ?? []).length;

const CASES: Array<{
  name: string;
  spec: IntervalChartSpec;
  dots: number;
  withheld: number;
  desc: RegExp[];
  log: boolean;
}> = [
  {
    name: 'published scenarios with central values, spanning decades',
    spec: spec([
      { label: 'S-MAX', figure: moderate(3.1e-8, 1.9e-8, 4.4e-8, '3.1e-8 (1.9e-8–4.4e-8)') },
      { label: 'S-CONS', figure: moderate(1.4e-10, 8e-11, 2e-10, '1.4e-10 (8.0e-11–2.0e-10)') },
    ]),
    dots: 2,
    withheld: 0,
    desc: [/S-MAX: 3\.1e-8 \(1\.9e-8–4\.4e-8\)/, /S-CONS: 1\.4e-10/],
    log: true,
  },
  {
    name: 'an INDICATIVE figure has no dot',
    spec: spec([
      { label: 'S-MAX', figure: indicative(2e-8, 5.9e-8, 'between 2.0e-8 and 5.9e-8') },
      { label: 'S-EVID', figure: moderate(5, 4, 6, '5.0 (4.0–6.0)') },
    ]),
    dots: 1,
    withheld: 0,
    desc: [/S-MAX: between 2\.0e-8 and 5\.9e-8/],
    log: true,
  },
  {
    name: 'a withheld row says so, never a zero',
    spec: spec([
      { label: 'S-RES', figure: null, withheld: 'no published run' },
      { label: 'S-MAX', figure: moderate(2, 1, 3, '2.0 (1.0–3.0)') },
    ]),
    dots: 1,
    withheld: 1,
    desc: [/S-RES: withheld \(no published run\)/],
    log: false,
  },
  {
    name: 'ratios against a reference of 1',
    spec: spec([{ label: 'per kg', figure: indicative(1.3, 2.2, 'between 1.3 and 2.2') }], {
      reference: { value: 1, label: 'equal (1)' },
      forceLog: true,
    }),
    dots: 0,
    withheld: 0,
    desc: [/per kg: between 1\.3 and 2\.2/],
    log: true,
  },
];

for (const c of CASES) {
  test(`interval chart: ${c.name}`, () => {
    const svg = intervalChart(c.spec).value;
    assert.match(svg, /^<svg class="chart" id="c1" role="img" aria-labelledby="c1-title c1-desc"/);
    assert.match(svg, /<title id="c1-title">Deaths per phone, by scenario<\/title>/);
    assert.match(svg, /<desc id="c1-desc">Interval and central value per scenario\. /);
    for (const re of c.desc) assert.match(intervalDescription(c.spec), re);
    assert.equal(count(svg, /<circle /g), c.dots, 'one dot per central value');
    assert.equal(count(svg, /withheld: no figure is published/g), c.withheld);
    assert.equal(/logarithmic scale/.test(svg), c.log, 'the axis says when it is logarithmic');
    assert.equal(count(svg, /stroke-dasharray/g), c.spec.reference ? 1 : 0, 'the reference line');
    assert.ok(!/\sstyle=/.test(svg), 'no inline style: the CSP forbids it');
    const table = intervalTable(c.spec).value;
    assert.equal(count(table, /<tr><th scope="row">/g), c.spec.rows.length, 'a table row per chart row');
    for (const r of c.spec.rows)
      if (r.figure) assert.ok(table.includes(r.figure.display), `the API display ${r.figure.display} is in the table`);
  });
}

test('interval chart: the dot sits inside its interval, and a larger figure further right', () => {
  const svg = intervalChart(
    spec([
      { label: 'a', figure: moderate(2e-9, 1e-9, 3e-9, 'a') },
      { label: 'b', figure: moderate(2e-7, 1e-7, 3e-7, 'b') },
    ]),
  ).value;
  const dots = [...svg.matchAll(/<circle cx="([\d.]+)"/g)].map((m) => Number(m[1]));
  const bars = [
    ...svg.matchAll(/<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="\2" stroke="#2456a6" stroke-width="8"/g),
  ].map((m) => [Number(m[1]), Number(m[3])] as const);
  assert.equal(dots.length, 2);
  assert.equal(bars.length, 2);
  for (let i = 0; i < 2; i++)
    assert.ok(bars[i]![0] < dots[i]! && dots[i]! < bars[i]![1], `row ${i}: ${bars[i]} around ${dots[i]}`);
  assert.ok(dots[1]! > dots[0]!);
});

test('interval chart: labels and reasons are escaped', () => {
  const s = spec([{ label: '<script>x</script>', figure: null, withheld: '"quoted" & <b>' }]);
  const out = intervalFigure(s).value;
  assert.ok(!out.includes('<script>'));
  assert.ok(out.includes('&lt;script&gt;'));
  assert.ok(out.includes('&quot;quoted&quot; &amp; &lt;b&gt;'));
});

test('interval figure: the legend explains a bar without a dot only when there is one', () => {
  assert.match(intervalFigure(CASES[1]!.spec).value, /A bar without a dot is graded INDICATIVE/);
  assert.doesNotMatch(intervalFigure(CASES[0]!.spec).value, /A bar without a dot/);
});

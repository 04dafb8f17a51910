/**
 * The bar chart as a pure function: bars from 0 to each central value, a whisker per interval, no bar
 * for a part without a central value, only the first `limit` rows drawn (the description and legend say
 * how many more the table lists), and the table listing every row with the API's display.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  barChart,
  barDescription,
  barFigure,
  barTable,
  type BarChartSpec,
  type BarRow,
} from '../../../lib/explore/bar-chart.ts';

const row = (label: string, value: number | null, low: number, high: number): BarRow => ({
  label,
  value,
  low,
  high,
  display: value === null ? `between ${low} and ${high}` : `${value} (${low}–${high})`,
});
const spec = (rows: BarRow[], extra: Partial<BarChartSpec> = {}): BarChartSpec => ({
  id: 'b1',
  title: 'By country',
  summary: 'The headline split by country.',
  unit: 'deaths per bicycle',
  rows,
  ...extra,
});
const count = (text: string, needle: RegExp) => (text.match(needle) ?? []).length;

const CASES: Array<{ name: string; spec: BarChartSpec; bars: number; whiskers: number; more: number }> = [
  {
    name: 'every part with a central value',
    spec: spec([row('India', 1.1e-8, 3.7e-9, 2e-8), row('China', 3.7e-9, 1.8e-9, 6.6e-9)]),
    bars: 2,
    whiskers: 2,
    more: 0,
  },
  {
    name: 'an INDICATIVE part: whisker, no bar',
    spec: spec([row('India', 1.1e-8, 3.7e-9, 2e-8), row("Côte d'Ivoire", null, 4.9e-10, 5.4e-9)]),
    bars: 1,
    whiskers: 2,
    more: 0,
  },
  {
    name: 'limited to the first rows',
    spec: spec([row('a', 3, 2, 4), row('b', 2, 1, 3), row('c', 1, 0.5, 2)], { limit: 2 }),
    bars: 2,
    whiskers: 2,
    more: 1,
  },
  {
    name: 'a zero part is still drawn',
    spec: spec([row('saddle', 0, 0, 0), row('frame', 1, 0.5, 2)]),
    bars: 2,
    whiskers: 2,
    more: 0,
  },
];

for (const c of CASES) {
  test(`bar chart: ${c.name}`, () => {
    const svg = barChart(c.spec).value;
    assert.match(svg, /^<svg class="chart" id="b1" role="img" aria-labelledby="b1-title b1-desc"/);
    assert.match(svg, /<title id="b1-title">By country<\/title>/);
    assert.equal(count(svg, /<rect /g), c.bars);
    assert.equal(count(svg, /stroke-width="1.5"/g), c.whiskers * 3, 'a whisker is a line and two caps');
    assert.ok(!/\sstyle=/.test(svg));
    const desc = barDescription(c.spec);
    for (const r of c.spec.rows.slice(0, c.spec.limit ?? Infinity))
      assert.ok(desc.includes(`${r.label}: ${r.display}`), `${r.label} described`);
    assert.equal(desc.includes(`and ${c.more} more, listed in the table`), c.more > 0);
    const table = barTable(c.spec).value;
    assert.equal(count(table, /<tr><th scope="row">/g), c.spec.rows.length, 'the table lists every row, drawn or not');
  });
}

test('bar chart: bars start at 0 and are as long as their value', () => {
  const svg = barChart(spec([row('a', 4, 3, 5), row('b', 2, 1, 3)])).value;
  const rects = [...svg.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)].map(
    (m) => [Number(m[1]), Number(m[2])] as const,
  );
  assert.equal(rects[0]![0], rects[1]![0], 'same origin');
  assert.ok(Math.abs(rects[0]![1] / rects[1]![1] - 2) < 0.01, `twice as long: ${rects}`);
});

test('bar figure: the legend says whether the bars add up to a whole', () => {
  const parts = spec([row('a', 1, 0.5, 2)]);
  assert.match(barFigure(parts).value, /these add up to the whole/);
  assert.doesNotMatch(barFigure({ ...parts, partsOfWhole: false }).value, /add up/);
  assert.match(barFigure(CASES[2]!.spec).value, /The chart shows the first 2; the table lists all 3\./);
});

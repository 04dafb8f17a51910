/**
 * A bar chart of parts of a whole (a product's contributions by country or material, spending by
 * category): each bar runs from 0 to the part's central value (the mean of its draws, which adds up
 * across parts), with a whisker over its interval p05–p95. A part graded INDICATIVE has no central
 * value, so it gets a whisker and no bar. A linear axis from 0, because bars are read as amounts.
 * `barFigure` puts the SVG and its table alternative together; both are pure functions of the rows.
 */
import { html, type Html } from '../html.ts';
import { stackLabels } from './stack-table.ts';
import { linearScale } from './scale.ts';
import { axis, cellNumber, CHART, frame, rowLabel, xOf, yOf } from './svg.ts';

export interface BarRow {
  label: string;
  /** The central value (mean of the draws); null when the part has none (INDICATIVE). */
  value: number | null;
  low: number;
  high: number;
  /** The part as the API displays it. */
  display: string;
  cells?: Array<string | Html>;
}

export interface BarChartSpec {
  id: string;
  title: string;
  summary: string;
  unit: string;
  rows: BarRow[];
  labelHeader?: string;
  extraHeaders?: string[];
  /** The bars are parts of one whole whose central values add up to it (a breakdown); false for rates side by side. */
  partsOfWhole?: boolean;
  /** Draw only the first rows (the table still lists every one); the description says how many are left out. */
  limit?: number;
}

const shown = (spec: BarChartSpec) => spec.rows.slice(0, spec.limit ?? spec.rows.length);

export function barDescription(spec: BarChartSpec): string {
  const rows = shown(spec);
  const more = spec.rows.length - rows.length;
  return `${spec.summary} ${rows.map((r) => `${r.label}: ${r.display}`).join('; ')}${more > 0 ? `; and ${more} more, listed in the table` : ''}.`;
}

export function barChart(spec: BarChartSpec): Html {
  const rows = shown(spec);
  const scale = linearScale(rows.flatMap((r) => [r.high, r.value ?? 0]));
  const marks = rows.map((r, i) => {
    const y = yOf(i);
    const x0 = xOf(scale, 0);
    const bar =
      r.value === null
        ? html``
        : html`<rect x="${x0}" y="${y - 9}" width="${Math.max(xOf(scale, r.value) - x0, 1)}" height="18" fill="${CHART.accent}" opacity="0.8"/>`;
    const lo = xOf(scale, r.low);
    const hi = Math.max(xOf(scale, r.high), lo + 1);
    return html`${rowLabel(i, r.label)}${bar}<line x1="${lo}" y1="${y}" x2="${hi}" y2="${y}" stroke="${CHART.ink}" stroke-width="1.5"/><line x1="${lo}" y1="${y - 5}" x2="${lo}" y2="${y + 5}" stroke="${CHART.ink}" stroke-width="1.5"/><line x1="${hi}" y1="${y - 5}" x2="${hi}" y2="${y + 5}" stroke="${CHART.ink}" stroke-width="1.5"/>`;
  });
  return frame(
    spec.id,
    rows.length,
    spec.title,
    barDescription(spec),
    html`${axis(scale, rows.length, spec.unit)}${marks}`,
  );
}

export function barTable(spec: BarChartSpec): Html {
  const extra = spec.extraHeaders ?? [];
  const rows = spec.rows.map(
    (r) =>
      html`<tr><th scope="row">${r.label}</th><td>${r.display}</td><td class="num">${cellNumber(r.value, 'none (interval only)')}</td><td class="num">${cellNumber(r.low)}</td><td class="num">${cellNumber(r.high)}</td>${(r.cells ?? []).map((c) => html`<td>${c}</td>`)}</tr>`,
  );
  return stackLabels(
    html`<table class="chart-table"><caption>${spec.title}: the chart's figures as a table</caption><thead><tr><th scope="col">${spec.labelHeader ?? ''}</th><th scope="col">As quoted (${spec.unit})</th><th scope="col" class="num">Central (mean)</th><th scope="col" class="num">Low (p05)</th><th scope="col" class="num">High (p95)</th>${extra.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`,
  );
}

export function barFigure(spec: BarChartSpec): Html {
  const intervalOnly = shown(spec).some((r) => r.value === null);
  const more = spec.rows.length - shown(spec).length;
  return html`<figure class="chart-figure">${barChart(spec)}<figcaption class="legend">Bar: the central value, the mean of the draws${spec.partsOfWhole === false ? '' : ' (these add up to the whole)'}. Whisker: the interval, p05 to p95.${intervalOnly ? ' A whisker without a bar is graded INDICATIVE: no central value, quote its interval only.' : ''}${more > 0 ? ` The chart shows the first ${shown(spec).length}; the table lists all ${spec.rows.length}.` : ''}</figcaption>${barTable(spec)}</figure>`;
}

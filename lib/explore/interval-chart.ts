/**
 * An interval chart: one row per figure (a product under each scenario, a ratio per measure), the
 * interval p05–p95 as a bar and the central value (the mean of the draws) as a dot. A figure graded
 * INDICATIVE has no central value, so it gets no dot: the chart never shows a number the API does not
 * serve. A withheld row (no published run) says "withheld" where the bar would be, never a zero.
 * `intervalFigure` puts the SVG and its table alternative together; both are pure functions of the rows.
 */
import { html, type Html } from '../html.ts';
import { stackLabels } from './stack-table.ts';
import { autoScale } from './scale.ts';
import { axis, cellNumber, CHART, frame, rowLabel, xOf, yOf } from './svg.ts';

export interface IntervalValue {
  low: number;
  high: number;
  /** The mean of the draws; null when the figure has none (INDICATIVE). */
  central: number | null;
  /** The figure as the API displays it (two significant figures, with its interval). */
  display: string;
}

export interface IntervalRow {
  label: string;
  /** null when there is no figure to draw: then `withheld` says why. */
  figure: IntervalValue | null;
  withheld?: string;
  /** Extra table cells, under `extraHeaders`. */
  cells?: Array<string | Html>;
}

export interface IntervalChartSpec {
  /** Unique on the page: the SVG's id and the prefix of its title's and description's ids. */
  id: string;
  title: string;
  /** What the chart shows, in a sentence; the figures in words follow it in the SVG's <desc>. */
  summary: string;
  /** The unit along the axis, e.g. "deaths per phone". */
  unit: string;
  rows: IntervalRow[];
  /** A vertical line to read the intervals against, e.g. a ratio of 1. */
  reference?: { value: number; label: string };
  forceLog?: boolean;
  labelHeader?: string;
  extraHeaders?: string[];
}

/** The figures in words, in the row order: the text alternative inside the SVG. */
export function intervalDescription(spec: IntervalChartSpec): string {
  const rows = spec.rows.map((r) =>
    r.figure ? `${r.label}: ${r.figure.display}` : `${r.label}: withheld${r.withheld ? ` (${r.withheld})` : ''}`,
  );
  return `${spec.summary} ${rows.join('; ')}.`;
}

function scaleOf(spec: IntervalChartSpec) {
  const values = spec.rows.flatMap((r) =>
    r.figure ? [r.figure.low, r.figure.high, ...(r.figure.central === null ? [] : [r.figure.central])] : [],
  );
  return autoScale(values, { include: spec.reference ? [spec.reference.value] : [], forceLog: spec.forceLog ?? false });
}

const logAxis = (spec: IntervalChartSpec) => scaleOf(spec).kind === 'log';

export function intervalChart(spec: IntervalChartSpec): Html {
  const scale = scaleOf(spec);
  const rows = spec.rows.map((r, i) => {
    const y = yOf(i);
    if (!r.figure) {
      return html`${rowLabel(i, r.label)}<text x="${CHART.plotLeft + 4}" y="${y + 4}" font-size="13" font-style="italic" fill="${CHART.warn}">withheld: no figure is published</text>`;
    }
    const f = r.figure;
    const x1 = xOf(scale, f.low);
    const x2 = Math.max(xOf(scale, f.high), x1 + 2); // a 0–0 figure is still a visible mark
    const dot =
      f.central === null
        ? html``
        : html`<circle cx="${xOf(scale, f.central)}" cy="${y}" r="5" fill="${CHART.ink}" stroke="#ffffff" stroke-width="1.5"/>`;
    return html`${rowLabel(i, r.label)}<line x1="${x1}" y1="${y}" x2="${x2}" y2="${y}" stroke="${CHART.accent}" stroke-width="8" stroke-linecap="butt" opacity="0.55"/><line x1="${x1}" y1="${y - 7}" x2="${x1}" y2="${y + 7}" stroke="${CHART.accent}" stroke-width="2"/><line x1="${x2}" y1="${y - 7}" x2="${x2}" y2="${y + 7}" stroke="${CHART.accent}" stroke-width="2"/>${dot}`;
  });
  const ref = spec.reference
    ? html`<line x1="${xOf(scale, spec.reference.value)}" y1="${CHART.top - 4}" x2="${xOf(scale, spec.reference.value)}" y2="${CHART.top + spec.rows.length * CHART.rowHeight}" stroke="${CHART.warn}" stroke-width="1.5" stroke-dasharray="4 3"/><text x="${xOf(scale, spec.reference.value) + 4}" y="${CHART.top + 6}" font-size="11" fill="${CHART.warn}">${spec.reference.label}</text>`
    : html``;
  return frame(
    spec.id,
    spec.rows.length,
    spec.title,
    intervalDescription(spec),
    html`${axis(scale, spec.rows.length, spec.unit)}${ref}${rows}`,
  );
}

/** The same rows as a table: every number the chart draws, and the API's display of each. */
export function intervalTable(spec: IntervalChartSpec): Html {
  const extra = spec.extraHeaders ?? [];
  const rows = spec.rows.map((r) => {
    const cells = (r.cells ?? []).map((c) => html`<td>${c}</td>`);
    if (!r.figure)
      return html`<tr><th scope="row">${r.label}</th><td colspan="4"><strong>withheld</strong>${r.withheld ? html`: ${r.withheld}` : ''}</td>${cells}</tr>`;
    const f = r.figure;
    return html`<tr><th scope="row">${r.label}</th><td>${f.display}</td><td class="num">${cellNumber(f.central, 'none (interval only)')}</td><td class="num">${cellNumber(f.low)}</td><td class="num">${cellNumber(f.high)}</td>${cells}</tr>`;
  });
  return stackLabels(
    html`<table class="chart-table"><caption>${spec.title}: the chart's figures as a table</caption><thead><tr><th scope="col">${spec.labelHeader ?? ''}</th><th scope="col">As quoted (${spec.unit})</th><th scope="col" class="num">Central (mean)</th><th scope="col" class="num">Low (p05)</th><th scope="col" class="num">High (p95)</th>${extra.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** Chart and table together, with a legend saying how to read the marks. */
export function intervalFigure(spec: IntervalChartSpec): Html {
  const anyIntervalOnly = spec.rows.some((r) => r.figure && r.figure.central === null);
  return html`<figure class="chart-figure">${intervalChart(spec)}<figcaption class="legend">Bar: the interval, p05 to p95 (in 90% of the model's draws the figure fell inside it). Dot: the central value, the mean of the draws.${logAxis(spec) ? ' The axis is logarithmic: each tick is ten times the one before.' : ''}${anyIntervalOnly ? ' A bar without a dot is graded INDICATIVE: it has no central value, quote its interval only.' : ''}</figcaption>${intervalTable(spec)}</figure>`;
}

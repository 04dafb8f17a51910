/**
 * What every explorer chart shares: the frame (an inline <svg> with role="img", a <title> and a <desc>
 * that aria-labelledby names, so a screen reader announces the chart by its title and reads the figures
 * from its description), the horizontal axis with labelled ticks and its unit, and row labels.
 * Charts are drawn with presentation attributes only: the pages' CSP forbids inline style.
 */
import { formatSig } from '../impact/figure.ts';
import { html, type Html } from '../html.ts';
import type { Scale } from './scale.ts';

export const CHART = {
  width: 480,
  /** The plot spans the width; each row's label sits above its mark, so a phone keeps legible text. */
  plotLeft: 22,
  plotRight: 454,
  rowHeight: 44,
  top: 6,
  /** Below the last row: tick marks, tick labels, the unit. */
  axisHeight: 46,
  ink: '#1d2330',
  muted: '#5a6272',
  line: '#d6dae3',
  accent: '#2456a6',
  warn: '#8a4b00',
} as const;

/** x of a value on the plot. */
export const xOf = (scale: Scale, value: number) =>
  round(CHART.plotLeft + scale.at(value) * (CHART.plotRight - CHART.plotLeft));
/** y of row i's mark (its label is above it). */
export const yOf = (i: number) => CHART.top + i * CHART.rowHeight + 30;
export const round = (x: number) => Math.round(x * 10) / 10;

/** A tick's label: whole decades as 1e-8 (or plain where the API's display would be plain), else two significant figures. */
export function tickLabel(value: number, scale: Scale): string {
  if (scale.kind === 'log' && (value < 0.01 || value >= 1e6)) return `1e${Math.round(Math.log10(value))}`;
  return formatSig(value);
}

/** Labels longer than the plot is wide are cut; the table alternative has them whole. */
export function fitLabel(label: string, max = 62): string {
  return label.length <= max ? label : label.slice(0, max - 1).trimEnd() + '…';
}

export function rowLabel(i: number, label: string): Html {
  return html`<text x="${CHART.plotLeft}" y="${CHART.top + i * CHART.rowHeight + 14}" font-size="13" fill="${CHART.ink}">${fitLabel(label)}</text>`;
}

/** Grid lines at the ticks behind the rows, and the axis under them with the unit. */
export function axis(scale: Scale, rows: number, unit: string): Html {
  const bottom = CHART.top + rows * CHART.rowHeight;
  const ticks = scale.ticks.map((t) => {
    const x = xOf(scale, t);
    return html`<line x1="${x}" y1="${CHART.top}" x2="${x}" y2="${bottom + 4}" stroke="${CHART.line}" stroke-width="1"/><text x="${x}" y="${bottom + 18}" text-anchor="middle" font-size="12" fill="${CHART.muted}">${tickLabel(t, scale)}</text>`;
  });
  const note = scale.kind === 'log' ? `${unit} (logarithmic scale)` : unit;
  return html`<g aria-hidden="true">${ticks}<line x1="${CHART.plotLeft}" y1="${bottom}" x2="${CHART.plotRight}" y2="${bottom}" stroke="${CHART.muted}" stroke-width="1"/><text x="${(CHART.plotLeft + CHART.plotRight) / 2}" y="${bottom + 38}" text-anchor="middle" font-size="12" fill="${CHART.ink}">${note}</text></g>`;
}

/** The <svg> itself: its accessible name is the title, its description the figures in words. */
export function frame(id: string, rows: number, title: string, desc: string, content: Html): Html {
  const height = CHART.top + rows * CHART.rowHeight + CHART.axisHeight;
  return html`<svg class="chart" id="${id}" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${CHART.width} ${height}" width="${CHART.width}" height="${height}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif"><title id="${id}-title">${title}</title><desc id="${id}-desc">${desc}</desc>${content}</svg>`;
}

/** Table cell text of a number: two significant figures, the API's own display rule. */
export const cellNumber = (x: number | null | undefined, none = '—') =>
  x === null || x === undefined ? none : formatSig(x);

/**
 * What a figure rests on, on the explorer's pages (issue 24, methodology v2 §2): the shares of its
 * value resting on published data, derived values, assumptions and illustrative values, as a small bar
 * (presentation attributes only: the pages' CSP forbids inline style) and in words; its quotable
 * form; and where one input value comes from (a register row's provenance: source, release, the
 * release's publication date, basis), linked to the data-sources page.
 */
import { html, type Html } from '../../lib/html.ts';
import { BASES, type Basis } from '../../lib/impact/basis.ts';
import { formatSig } from '../../lib/impact/figure.ts';
import type { Figure } from './impact-common.ts';

export const SOURCES_PAGE = '/explore/impact/sources';

/** A register row's provenance, as the API gives it. */
export interface RowProvenance {
  basis: Basis;
  source: string;
  release: string | null;
  published_on: string | null;
  method: string | null;
  file: string | null;
}

const COLOURS: Record<Basis, string> = {
  published: '#1f4e96',
  derived: '#6f9ad8',
  assumption: '#c98a1c',
  illustrative: '#a3a8b3',
};
const WORDS: Record<Basis, string> = {
  published: 'published',
  derived: 'derived',
  assumption: 'assumed',
  illustrative: 'illustrative',
};

const share = (x: number) => `${x >= 0.995 ? '100' : x < 0.005 ? '<1' : formatSig(x * 100, 2)}%`;

/** The bar and words of a figure's provenance; nothing when the figure has none (a run before v2). */
export function restsOn(f: Figure | null | undefined): Html {
  const p = f?.provenance;
  if (!p) return html``;
  let x = 0;
  const rects = BASES.map((b) => {
    const w = Math.round(p[b] * 1000) / 10;
    const rect = w > 0 ? html`<rect x="${x}" y="0" width="${w}" height="8" fill="${COLOURS[b]}"/>` : html``;
    x += w;
    return rect;
  });
  const words = BASES.filter((b) => p[b] > 0).map((b) => `${share(p[b])} ${WORDS[b]}`);
  return html`<span class="rests-on" title="${p.summary}"><svg class="rests-bar" width="60" height="8" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">${rects}</svg> rests on ${words.join(' · ')}</span>`;
}

/** A figure as quoted, with its quotable form and what it rests on. */
export function figureWithBasis(f: Figure | null | undefined): Html {
  if (!f) return html``;
  return html`${f.display}${f.grade === 'INDICATIVE' ? html` <span class="grade">INDICATIVE</span>` : ''}${f.quotable ? html`<br><span class="quotable">${f.quotable}</span>` : ''}${f.provenance ? html`<br>${restsOn(f)}` : ''}`;
}

/** Where a value comes from: its source (linked to the data-sources page), release and date, and basis. */
export function sourceOf(p: RowProvenance | null | undefined): Html {
  if (!p) return html`<span class="muted">no source recorded</span>`;
  const release = p.release
    ? html`, ${p.release}${p.published_on ? html` (published ${p.published_on})` : ''}`
    : html``;
  return html`<span class="source-of"><a href="${SOURCES_PAGE}#src-${p.source}">${p.source}</a>${release}: <strong class="basis basis-${p.basis}">${p.basis}</strong>${p.method ? html` <span class="muted">(${p.method})</span>` : ''}</span>`;
}

/** The legend every page with provenance bars carries. */
export const BASIS_LEGEND = html`<p class="basis-legend muted">What a figure rests on: the share of its value that rests on <strong>published</strong> data, on values <strong>derived</strong> from published data by a stated formula, on documented <strong>assumptions</strong>, and on <strong>illustrative</strong> values (no open source gives them). A figure more than half assumed or illustrative is at most MODERATE. Every dataset is on the <a href="${SOURCES_PAGE}">data sources</a> page.</p>`;

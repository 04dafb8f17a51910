/**
 * The register a researcher browses (issue 14): materials, conflicts and countries, each a list and a
 * page, in the explorer's pattern (no JavaScript, tables that fit a phone, every figure from the API).
 *
 * API calls: one per page.
 *   /explore/impact/materials            GET /impact/v1/materials
 *   /explore/impact/materials/:slug      GET /impact/v1/material/{slug}
 *   /explore/impact/conflicts            GET /impact/v1/conflicts
 *   /explore/impact/conflicts/:slug      GET /impact/v1/conflict/{slug}
 *   /explore/impact/countries            GET /impact/v1/countries
 *   /explore/impact/countries/:iso3      GET /impact/v1/country/{iso3}
 * A subject's reach lists the products it reaches per kg of product, as the API ranks them.
 *
 * This file holds what the three share (the page frame, the reach table, links); each subject's list and
 * page are in impact-materials.ts, impact-conflicts.ts and impact-countries.ts.
 */
import { html, type Html } from '../../lib/html.ts';
import { formatSig } from '../../lib/impact/figure.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import {
  aboutFigures,
  apiCalls,
  figureCell,
  illustrativeNotice,
  param,
  provenance,
  READING,
  scenarioForm,
  stackTable,
  withheldNotice,
  type Envelope,
  type Figure,
  type ImpactSession,
} from './impact-common.ts';
import { BASIS_LEGEND, restsOn } from './impact-provenance.ts';
import { explorePage } from './layout.ts';

export interface ReachItem {
  metric: string;
  rank: number;
  product: { slug: string; name: string } | null;
  figure: Figure | null;
  per_unit: Figure | null;
  share: number | null;
  counted: number | null;
}
export interface Reaching {
  reach: ReachItem[];
  reach_order: string;
}

export const enc = encodeURIComponent;
export const pct = (x: number | null) => (x === null ? '—' : `${formatSig(x * 100, 2)}%`);
export const scenarioOf = (req: ApiRequest) => param(req, 'scenario');
export const withScenario = (href: string, scenario: string | undefined) =>
  scenario ? `${href}?scenario=${enc(scenario)}` : href;

/** The deaths a subject's attribution reaches: its total per year, then the products per kg. */
export function reachSection(
  env: Envelope<{ results: Reaching | null }>,
  subject: string,
  scenario: string | undefined,
): Html {
  const results = env.data.results;
  if (!results)
    return html`<section aria-labelledby="reach-h"><h2 id="reach-h">Products reached</h2><p class="withheld-figure"><strong>Withheld.</strong> ${env.withheld?.reason ?? ''}</p></section>`;
  const deaths = results.reach.filter((r) => r.metric === 'deaths');
  const total = deaths.find((r) => r.rank === 0);
  const products = deaths.filter((r) => r.product !== null);
  return html`<section aria-labelledby="reach-h"><h2 id="reach-h">Products reached</h2>
${total?.figure ? html`<p class="headline">Deaths per year attributed through ${subject} to the register's materials: <strong>${total.figure.display}</strong>${total.counted !== null ? html` of ${total.counted.toLocaleString('en-GB')} counted a year (${pct(total.share)})` : ''}. ${restsOn(total.figure)}</p>` : ''}
<p class="muted">${results.reach_order}</p>${total?.figure?.provenance ? BASIS_LEGEND : ''}
${
  products.length
    ? stackTable({
        className: 'reach',
        caption: `Products reached through ${subject}, by deaths per kg of product (p05–p95)`,
        head: ['Product', 'Deaths per kg of product', 'Deaths per unit', 'Share of the product’s figure'],
        rows: products.map((r) => ({
          header: html`<a href="${withScenario(`/explore/impact/products/${r.product!.slug}`, scenario)}">${r.product!.name}</a>`,
          cells: [
            html`${figureCell(r.figure, false)} ${restsOn(r.figure)}`,
            html`${figureCell(r.per_unit, false)}${r.per_unit ? html` <span class="muted">${r.per_unit.unit}</span>` : ''}`,
            pct(r.share),
          ],
        })),
      })
    : html`<p class="muted">No product of the register is reached through ${subject}.</p>`
}
</section>`;
}

export const page = (
  title: string,
  env: Envelope<unknown>,
  api: ImpactSession,
  action: string,
  scenario: string | undefined,
  content: Html,
  lede: Html,
) =>
  explorePage({
    title,
    body: html`${lede}${illustrativeNotice(env)}${withheldNotice(env)}${scenarioForm(action, scenario)}${provenance(env)}${content}${READING}${aboutFigures(env)}${apiCalls(api.calls)}`,
  });

export const browseLinks = html`<p class="browse">Browse the register: <a href="/explore/impact">products</a> · <a href="/explore/impact/materials">materials</a> · <a href="/explore/impact/conflicts">conflicts</a> · <a href="/explore/impact/countries">countries</a> · <a href="/explore/impact/sources">data sources</a></p>`;

// Materials

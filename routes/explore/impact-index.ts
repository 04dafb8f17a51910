/**
 * GET /explore/impact: the product catalogue with each product's deaths per unit and per kg, a
 * filter form (GET, no JavaScript) and what the figures are, in plain words.
 *
 * API calls: one, GET /impact/v1/products with the visitor's tier, category, sort and scenario passed
 * through, so the list is the API's answer to that request. The `q` field narrows the shown rows by
 * name on the page (the API has no name filter on /products); the category choices come from the same
 * answer, so with a category chosen the select offers that one and "all categories".
 */
import { html } from '../../lib/html.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import {
  aboutFigures,
  apiCalls,
  figureCell,
  illustrativeNotice,
  param,
  provenance,
  READING,
  scenarioOptions,
  select,
  stackTable,
  withheldNotice,
  type Figure,
  type ImpactSession,
  type ProductSummary,
} from './impact-common.ts';
import { explorePage } from './layout.ts';

interface ProductList {
  sort: string;
  count: number;
  products: ProductSummary[];
  results: { figures: Record<string, { per_unit: Figure | null; per_kg: Figure | null }> } | null;
}

const TIERS: Array<[string, string]> = [
  ['', 'All tiers'],
  ['finished', 'Finished products'],
  ['semi_finished', 'Semi-finished (materials, parts)'],
];
const SORTS: Array<[string, string]> = [
  ['name', 'Name'],
  ['toll', 'Deaths per kg, highest first'],
  ['confidence', 'Bill-of-materials confidence'],
  ['complete', 'Complete bills first'],
];

export async function impactIndex(req: ApiRequest, api: ImpactSession) {
  const query = {
    tier: param(req, 'tier'),
    category: param(req, 'category'),
    sort: param(req, 'sort'),
    scenario: param(req, 'scenario'),
  };
  const q = param(req, 'q');
  const env = await api.get<ProductList>('/products', query);
  const categories = new Map(env.data.products.map((p) => [p.category.code, p.category.name]));
  const needle = q?.toLowerCase();
  const shown = needle
    ? env.data.products.filter((p) => p.name.toLowerCase().includes(needle) || p.slug.includes(needle))
    : env.data.products;
  const figures = env.data.results?.figures ?? null;
  const table = stackTable({
    className: 'products',
    caption: `${shown.length} of ${env.data.count} products${q ? ` whose name contains “${q}”` : ''}; deaths per unit and per kg, scenario ${env.scenario}`,
    head: [
      'Product',
      'Category',
      'Tier',
      'Unit',
      'Bill of materials on published data',
      'Deaths per unit (p05–p95)',
      'Deaths per kg (p05–p95)',
    ],
    rows: shown.map((p) => ({
      header: html`<a href="/explore/impact/products/${p.slug}">${p.name}</a>${p.is_arms ? html` <span class="tag">arms</span>` : ''}`,
      cells: [
        p.category.name,
        p.tier === 'finished' ? 'finished' : 'semi-finished',
        html`${p.unit_label}${p.unit_mass_g !== null ? html` <span class="muted">(${p.unit_mass_g} g)</span>` : ''}`,
        bomBasisCell(p.bom_basis),
        figureCell(figures?.[p.slug]?.per_unit, figures === null),
        figureCell(figures?.[p.slug]?.per_kg, figures === null),
      ],
    })),
  });

  const body = html`<p class="lede">Deaths and injuries <strong>statistically attributed to the supply chains</strong> of products, from trio's impact API: each figure with its interval, its scenario and the run that computed it.</p>
${illustrativeNotice(env)}${withheldNotice(env)}
<p>Pick a product to see its figure under each scenario, where it comes from and how it adds up. You can also <a href="/explore/impact/compare">compare two products</a> or see <a href="/explore/impact/spend">what spending attributes, by category</a>.</p>
<p class="browse">Browse the register: <a href="/explore/impact/materials">materials</a> · <a href="/explore/impact/conflicts">conflicts</a> · <a href="/explore/impact/countries">countries</a> · <a href="/explore/impact/sources">data sources</a></p>
${READING}
<form class="filters" method="get" action="/explore/impact" role="search">
<label>Name contains<input type="search" name="q" value="${q ?? ''}" maxlength="64"></label>
${select('tier', 'Tier', TIERS, query.tier)}
${select('category', 'Category', [['', 'All categories'], ...[...categories].sort((a, b) => a[1].localeCompare(b[1]))], query.category)}
${select('sort', 'Order', SORTS, query.sort ?? 'name')}
${select('scenario', 'Scenario', scenarioOptions(), query.scenario ?? 'S-MAX')}
<button type="submit">Show</button>
</form>
${provenance(env)}
${table}
${shown.length === 0 ? html`<p class="notice">No product matches. <a href="/explore/impact">Show all products</a>.</p>` : ''}
${aboutFigures(env)}
${apiCalls(api.calls)}`;
  return explorePage({ title: 'Impact: deaths and injuries attributed to supply chains', body });
}

/** Share of a product's lines on published or derived values, and the sources they name (issue 33). */
function bomBasisCell(b: ProductSummary['bom_basis']) {
  if (b.published_or_derived === null) return html`<span class="muted">no lines</span>`;
  const total = Object.values(b.lines).reduce((a, n) => a + n, 0);
  const named = b.sources.filter((s) => s.code !== 'trio-demo').map((s) => s.name);
  return html`<span title="${b.summary}">${Math.round(b.published_or_derived * 100)} % <span class="muted">(${b.lines.published + b.lines.derived} of ${total} lines)</span></span>${named.length ? html`<br><span class="muted">${named.join('; ')}</span>` : ''}`;
}

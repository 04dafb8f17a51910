/**
 * GET /explore/impact/products/:slug: one product's figure under each scenario (an interval chart),
 * its headline figures, where they come from (the contributions, as bars), how the headline adds up
 * (the explain route, as tables whose sum row stands beside the headline), and the sources, caveats
 * and citation. `scenario` and `metric` choose the run and the measure of the breakdowns.
 *
 * API calls: three, each with the visitor's scenario (and metric) passed through:
 * GET /impact/v1/product/{slug}, /product/{slug}/contributions and /product/{slug}/explain.
 */
import { barFigure } from '../../lib/explore/bar-chart.ts';
import { sumStage } from '../../lib/explore/explain-sum.ts';
import { intervalFigure } from '../../lib/explore/interval-chart.ts';
import { html, type Html } from '../../lib/html.ts';
import { stackLabels } from '../../lib/explore/stack-table.ts';
import { formatSig } from '../../lib/impact/figure.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import {
  aboutFigures,
  apiCalls,
  illustrativeNotice,
  METRICS,
  param,
  READING,
  scenarioOptions,
  select,
  withheldNotice,
  type Contribution,
  type Envelope,
  type Figure,
  type ImpactSession,
  type ProductSummary,
} from './impact-common.ts';
import { BASIS_LEGEND, restsOn, sourceOf, type RowProvenance } from './impact-provenance.ts';
import { explorePage } from './layout.ts';

interface Product extends ProductSummary {
  archetype: string;
  bill_of_materials: Array<{
    line: number;
    role: string;
    component: { name: string | null };
    qty: number;
    unit: string;
    confidence: string;
    qty_range: { low: number; high: number } | null;
    provenance: RowProvenance | null;
    citations: Array<{
      file: string;
      row: number;
      source: string;
      page: string;
      url: string;
      value: string;
      use: string;
    }>;
  }>;
  results: {
    scenarios: Array<{ code: string; name: string; run: number | null; deaths_per_unit: Figure | null }>;
  } | null;
}

interface Contributions {
  metric: string;
  method: string;
  results: { headline: Figure | null; breakdowns: Record<string, Contribution[]> } | null;
}

interface Explain {
  metric: string;
  results: {
    routes: Record<string, { headline: Figure | null; steps: Record<string, Contribution[]> } | null>;
    check: string;
  } | null;
}

const BREAKDOWN_NAMES: Record<string, string> = {
  material: 'By raw material',
  country: 'By country of production',
  conflict: 'By conflict',
  channel: 'By harm channel',
  sector: 'By sector',
  basis: 'By what it rests on (each path at its weakest input)',
  basis_counts: 'By the basis of the harm counted',
  basis_attribution: 'By the basis of the attribution shares',
  basis_materials: 'By the basis of production, prices and output',
  basis_bom: 'By the basis of the bill of materials',
  line: 'By line of the bill of materials',
  layer: 'By tier of suppliers',
};
const ROUTE_NAMES: Record<string, string> = {
  material: 'Material route (through the bill of materials, per unit)',
  mrio: 'Input-output route (per 1,000 EUR of the product)',
};
const METRIC_LABELS: Record<string, string> = {
  deaths_per_unit: 'Deaths per unit',
  deaths_per_kg: 'Deaths per kg',
  deaths_per_1000_eur: 'Deaths per 1,000 EUR',
  injuries_per_unit: 'Injuries per unit',
  injuries_per_kg: 'Injuries per kg',
  injuries_per_1000_eur: 'Injuries per 1,000 EUR',
};

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const fourSig = (x: number) => formatSig(x, 4);

export async function impactProduct(req: ApiRequest, api: ImpactSession) {
  const slug = req.params.slug!;
  const scenario = param(req, 'scenario');
  const metric = param(req, 'metric');
  const product = await api.get<Product>(`/product/${slug}`, { scenario });
  const contributions = await api.get<Contributions>(`/product/${slug}/contributions`, { metric, scenario });
  const explain = await api.get<Explain>(`/product/${slug}/explain`, { metric, scenario });
  const p = product.data;
  const m = contributions.data.metric;

  const body = html`<p class="lede">${p.category.name}, ${p.tier === 'finished' ? 'a finished product' : 'a semi-finished product'}: ${p.archetype}. One unit is one ${p.unit_label}${p.unit_mass_g !== null ? ` (${p.unit_mass_g} g)` : ''}. Its bill of materials is ${p.complete ? 'complete' : 'incomplete'}${p.bom_confidence ? `, confidence ${p.bom_confidence}` : ''}. ${bomBasisSentence(p.bom_basis)}</p>
${illustrativeNotice(product)}${withheldNotice(product)}
<form class="filters" method="get" action="/explore/impact/products/${p.slug}">
${select('scenario', 'Scenario', scenarioOptions(), product.scenario)}
${select(
  'metric',
  'Breakdowns of',
  METRICS.map((x): [string, string] => [x, x]),
  m,
)}
<button type="submit">Show</button>
</form>
${READING}
${scenarioSection(product)}
${headlineSection(product)}
${contributionsSection(contributions, p.unit_label)}
${explainSection(explain)}
${bomSection(p)}
${aboutFigures(product)}
${apiCalls(api.calls)}`;
  return explorePage({ title: p.name, body });
}

/** Deaths per unit under each scenario: the chart the page opens with. */
function scenarioSection(env: Envelope<Product>): Html {
  const scenarios = env.data.results?.scenarios;
  if (!scenarios)
    return html`<section aria-labelledby="scen-h"><h2 id="scen-h">Deaths per ${env.data.unit_label}, by scenario</h2><p class="withheld-figure"><strong>Withheld.</strong> ${env.withheld?.reason ?? ''}</p></section>`;
  const unit = scenarios.find((s) => s.deaths_per_unit)?.deaths_per_unit?.unit ?? `deaths per ${env.data.unit_label}`;
  const figure = intervalFigure({
    id: 'chart-scenarios',
    title: `${title(unit)} attributed to the supply chain of ${env.data.name}, under each scenario`,
    summary: `Interval p05 to p95 and, where there is one, the central value, of ${unit} under each scenario.`,
    unit,
    labelHeader: 'Scenario',
    extraHeaders: ['Grade', 'Run'],
    rows: scenarios.map((s) => ({
      label: `${s.code} ${s.name}`,
      figure: s.deaths_per_unit,
      withheld:
        s.run === null
          ? `scenario ${s.code} has no published run, so the API serves no figure for it`
          : 'the API serves no figure for it',
      cells: [
        s.deaths_per_unit?.grade ?? 'withheld',
        s.run === null ? 'none published' : html`<a href="/impact/v1/runs/${s.run}">${s.run}</a>`,
      ],
    })),
  });
  return html`<section aria-labelledby="scen-h"><h2 id="scen-h">${title(unit)}, by scenario</h2>
<p>Each scenario attributes a different share of harm (see the <a href="/impact/v1/scenarios">scenarios</a>). The figures can differ by orders of magnitude, so the axis is logarithmic when they do.</p>${figure}</section>`;
}

/** The selected scenario's figures of every measure the API gives. */
function headlineSection(env: Envelope<Product>): Html {
  if (!env.metrics) return html``;
  const rows = Object.entries(METRIC_LABELS)
    .filter(([k]) => env.metrics![k])
    .map(([k, label]) => {
      const f = env.metrics![k] as Figure;
      return html`<tr><th scope="row">${label}</th><td>${f.display}</td><td>${f.unit}</td><td>${f.grade}</td><td class="quotable">${f.quotable ?? ''}</td><td>${restsOn(f)}</td></tr>`;
    });
  return html`<section aria-labelledby="head-h"><h2 id="head-h">Headline figures under ${env.scenario}</h2>
${stackLabels(html`<table class="headline-figures"><thead><tr><th scope="col">Measure</th><th scope="col">As quoted: central (p05–p95)</th><th scope="col">Unit</th><th scope="col">Grade</th><th scope="col">In words</th><th scope="col">What it rests on</th></tr></thead><tbody>${rows}</tbody></table>`)}
${BASIS_LEGEND}</section>`;
}

function contributionsSection(env: Envelope<Contributions>, unitLabel: string): Html {
  const r = env.data.results;
  const h = html`<h2 id="contrib-h">Where the ${env.data.metric} per ${unitLabel} come from</h2>`;
  if (!r)
    return html`<section aria-labelledby="contrib-h">${h}<p class="withheld-figure"><strong>Withheld.</strong> ${env.withheld?.reason ?? ''}</p></section>`;
  const charts = Object.entries(r.breakdowns).map(([type, parts]) => {
    const unit = parts[0]?.figure.unit ?? r.headline?.unit ?? '';
    return html`<section class="breakdown" aria-labelledby="contrib-${type}-h"><h3 id="contrib-${type}-h">${BREAKDOWN_NAMES[type] ?? type}</h3>${
      parts.length === 0
        ? html`<p class="muted">Nothing is attributed this way.</p>`
        : barFigure({
            id: `chart-contrib-${type}`,
            title: `${title(env.data.metric)} per ${unitLabel}, ${(BREAKDOWN_NAMES[type] ?? type).toLowerCase()}`,
            summary: `The headline ${r.headline?.display ?? ''} ${unit} split ${(BREAKDOWN_NAMES[type] ?? type).toLowerCase()}.`,
            unit,
            labelHeader: title(type),
            extraHeaders: ['Share of the headline'],
            limit: 12,
            rows: parts.map((c) => ({
              label: c.label,
              value: c.figure.central,
              low: c.figure.low,
              high: c.figure.high,
              display: c.figure.display,
              cells: [c.share === null ? '—' : `${formatSig(c.share * 100)}%`],
            })),
          })
    }</section>`;
  });
  return html`<section aria-labelledby="contrib-h">${h}
<p>The headline, ${r.headline ? html`<strong>${r.headline.display}</strong> ${r.headline.unit}` : 'not served'}, split several ways (method: ${env.data.method}). Each way's central values add up to the headline's; intervals do not add up, because each is the spread of its own part.</p>
${charts}</section>`;
}

/** Each explain stage as a table: its parts, the sum of their central values, and the headline beside it. */
function explainSection(env: Envelope<Explain>): Html {
  const r = env.data.results;
  const h = html`<h2 id="explain-h">How the headline adds up</h2>`;
  if (!r)
    return html`<section aria-labelledby="explain-h">${h}<p class="withheld-figure"><strong>Withheld.</strong> ${env.withheld?.reason ?? ''}</p></section>`;
  const routes = Object.entries(r.routes).map(([route, content]) => {
    const heading = html`<h3>${ROUTE_NAMES[route] ?? route}</h3>`;
    if (!content) return html`${heading}<p class="muted">The API gives no figure on this route for this product.</p>`;
    const stages = Object.entries(content.steps).map(
      ([stage, parts], i) =>
        html`<details class="explain-stage"${i === 0 ? html` open` : ''}><summary>${BREAKDOWN_NAMES[stage] ?? stage} (${parts.length} parts)</summary>${stageTable(route, stage, content.headline, parts)}</details>`,
    );
    return html`${heading}<p>Headline: <strong>${content.headline?.display ?? 'not served'}</strong> ${content.headline?.unit ?? ''}.</p>${stages}`;
  });
  return html`<section aria-labelledby="explain-h">${h}
<p>Each table splits the headline one way. The central values (means of the draws) of the parts add up to the headline's central value: the bottom rows show the sum next to the headline, to four significant figures. Quote figures at two.</p>
${routes}
<p class="muted">The API's own check: ${r.check}</p></section>`;
}

function stageTable(route: string, stage: string, headline: Figure | null, parts: Contribution[]): Html {
  const sum = sumStage(
    headline,
    parts.map((p) => p.figure),
  );
  const rows = parts.map(
    (c) =>
      html`<tr><th scope="row">${c.label}</th><td>${c.figure.display}</td><td class="num">${c.figure.central === null ? 'none (INDICATIVE)' : fourSig(c.figure.central)}</td><td class="num">${c.share === null ? '—' : `${formatSig(c.share * 100, 3)}%`}</td></tr>`,
  );
  const foot =
    sum.kind === 'sums'
      ? html`<tr class="sum-row"><th scope="row">Sum of the ${sum.parts} parts</th><td></td><td class="num" data-sum="${sum.sum}">${fourSig(sum.sum)}</td><td class="num">100%</td></tr>
<tr class="headline-row"><th scope="row">Headline</th><td>${headline!.display}</td><td class="num" data-headline="${sum.headline}">${fourSig(sum.headline)}</td><td class="num">${sum.agrees ? '✓ equal to the sum' : '✗ differs from the sum'}</td></tr>`
      : html`<tr class="sum-row"><td colspan="4"><strong>No sum to show:</strong> ${sum.headlineHasCentral ? `${sum.partsWithout} of the ${sum.parts} parts are graded INDICATIVE` : 'the headline is graded INDICATIVE'}, and an INDICATIVE figure has no central value, so the API serves none to add. Intervals do not add up. The API checked the parts' means against the headline's when the run was validated.</td></tr>
<tr class="headline-row"><th scope="row">Headline</th><td>${headline?.display ?? 'not served'}</td><td class="num">${headline?.central === null || !headline ? 'none (INDICATIVE)' : fourSig(headline.central)}</td><td></td></tr>`;
  return html`<div class="table-scroll">${stackLabels(html`<table class="explain" id="explain-${route}-${stage}"><caption>${ROUTE_NAMES[route] ?? route}, ${(BREAKDOWN_NAMES[stage] ?? stage).toLowerCase()}: parts and their sum</caption>
<thead><tr><th scope="col">Part</th><th scope="col">As quoted: central (p05–p95)</th><th scope="col" class="num">Central, 4 s.f.</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${rows}</tbody><tfoot>${foot}</tfoot></table>`)}</div>`;
}

const USES: Record<string, string> = {
  sets: 'sets the line',
  range: 'widens its range',
  checks: 'cited beside it',
};

/** The bill of materials: each line's quantity (and the range its sources give), its basis and citations. */
function bomSection(p: Product): Html {
  const cited = p.bill_of_materials.filter((l) => l.provenance && l.provenance.basis !== 'illustrative').length;
  const rows = p.bill_of_materials.map((l) => {
    const range = l.qty_range
      ? html` <span class="muted">(${formatSig(l.qty_range.low, 3)}–${formatSig(l.qty_range.high, 3)})</span>`
      : '';
    const citations = l.citations.map(
      (c) =>
        html`<li><a href="${c.url}">${c.source}</a>${c.page ? `, ${c.page}` : ''}: ${c.value} <span class="muted">(${USES[c.use] ?? c.use}; ${c.file.split('/').pop()} row ${c.row})</span></li>`,
    );
    return html`<tr><td>${l.line}</td><td>${l.role}</td><td>${l.component.name ?? '—'}</td><td class="num">${formatSig(l.qty, 3)} ${l.unit}${range}</td><td>${l.confidence}</td><td>${sourceOf(l.provenance)}${citations.length ? html`<ul class="citations">${citations}</ul>` : ''}</td></tr>`;
  });
  return html`<details class="bom" open><summary>Bill of materials (${p.bill_of_materials.length} lines, ${cited} resting on cited figures)</summary>${stackLabels(html`<table><thead><tr><th scope="col">Line</th><th scope="col">Role</th><th scope="col">Component</th><th scope="col" class="num">Quantity</th><th scope="col">Confidence</th><th scope="col">Where it comes from</th></tr></thead><tbody>${rows}</tbody></table>`)}</details>`;
}

/** What the bill of materials rests on, in one sentence: its lines by basis and the sources named. */
function bomBasisSentence(b: ProductSummary['bom_basis']): string {
  const named = b.sources.filter((s) => s.code !== 'trio-demo');
  return `${b.summary}${named.length ? ` Sources: ${named.map((s) => `${s.name} (${s.lines} line${s.lines === 1 ? '' : 's'})`).join('; ')}.` : ''}`;
}

/**
 * GET /explore/impact/compare?a=…&b=…: the API's comparison of two products. The API compares them
 * draw by draw (the same draws of the shared inputs for both), and gives, per measure, the ratio a / b
 * with its interval and a verdict that names a larger product only where that interval supports it.
 * Shown as an interval chart of the ratios against 1, and a table with both products' figures.
 *
 * API calls: GET /impact/v1/products (the form's choices; the scenario passed through), and, once both
 * products are chosen, GET /impact/v1/compare with a, b, metric and scenario passed through.
 */
import { intervalFigure } from '../../lib/explore/interval-chart.ts';
import { html, type Html } from '../../lib/html.ts';
import { displayFigure, formatSig } from '../../lib/impact/figure.ts';
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
  stackTable,
  withheldNotice,
  type Envelope,
  type Figure,
  type ImpactSession,
} from './impact-common.ts';
import { explorePage } from './layout.ts';

interface Ref {
  slug: string;
  name: string;
  unit: string;
}
interface Ratio {
  central: number | null;
  low: number | null;
  median: number | null;
  high: number | null;
  verdict: string;
  p_a_greater: number | null;
  p_a_equal: number | null;
}
type Measures = Record<'per_unit' | 'per_kg' | 'per_1000_eur', Figure | null>;
interface Compare {
  a: Ref;
  b: Ref;
  metric: string;
  results: {
    a: Measures;
    b: Measures;
    pair: { ratio_of: string; by: Record<string, Ratio>; samples: number } | null;
  } | null;
}

const MEASURES: Array<[keyof Measures, string]> = [
  ['per_unit', 'per unit'],
  ['per_kg', 'per kg'],
  ['per_1000_eur', 'per 1,000 EUR'],
];

export async function impactCompare(req: ApiRequest, api: ImpactSession) {
  const a = param(req, 'a');
  const b = param(req, 'b');
  const metric = param(req, 'metric');
  const scenario = param(req, 'scenario');
  const list = await api.get<{ products: Array<{ slug: string; name: string }> }>('/products', { scenario });
  const choices: Array<[string, string]> = [
    ['', 'Choose a product'],
    ...list.data.products.map((p): [string, string] => [p.slug, p.name]).sort((x, y) => x[1].localeCompare(y[1])),
  ];
  const form = html`<form class="filters" method="get" action="/explore/impact/compare">
${select('a', 'Product A', choices, a)}${select('b', 'Product B', choices, b)}
${select(
  'metric',
  'Measure',
  METRICS.map((x): [string, string] => [x, x]),
  metric ?? 'deaths',
)}
${select('scenario', 'Scenario', scenarioOptions(), scenario ?? 'S-MAX')}
<button type="submit">Compare</button></form>`;
  if (!a || !b) {
    return explorePage({
      title: 'Compare two products',
      body: html`<p class="lede">Choose two products to see whether the deaths (or injuries) attributed to their supply chains can be told apart, per unit, per kg and per 1,000 EUR.</p>${form}${a || b ? html`<p class="notice">Choose both products.</p>` : ''}${apiCalls(api.calls)}`,
    });
  }
  const env = await api.get<Compare>('/compare', { a, b, metric, scenario });
  const d = env.data;
  const body = html`<p class="lede">${d.a.name} (A) and ${d.b.name} (B): ${d.metric} attributed to their supply chains, under scenario ${env.scenario}.</p>
${illustrativeNotice(env)}${withheldNotice(env)}${form}${READING}
${d.results ? results(env) : html`<p class="withheld-figure"><strong>Withheld.</strong> ${env.withheld?.reason ?? ''}</p>`}
${aboutFigures(env)}${apiCalls(api.calls)}`;
  return explorePage({ title: `Compare: ${d.a.name} and ${d.b.name}`, body });
}

const VERDICTS: Record<string, (a: string, b: string) => string> = {
  a_larger: (a) => `${a} is larger`,
  b_larger: (_a, b) => `${b} is larger`,
  not_distinguishable: () => 'cannot be told apart',
};

function results(env: Envelope<Compare>): Html {
  const d = env.data;
  const r = d.results!;
  const pair = r.pair;
  const verdict = (x: Ratio) => (VERDICTS[x.verdict] ?? (() => x.verdict))(d.a.name, d.b.name);
  const chart = pair
    ? intervalFigure({
        id: 'chart-ratio',
        title: `Ratio of ${d.metric}, ${d.a.name} to ${d.b.name} (A / B), per measure`,
        summary: `The ratio A / B from paired draws, with its interval p05 to p95; 1 means equal.`,
        unit: 'ratio A / B',
        forceLog: true,
        reference: { value: 1, label: 'equal (1)' },
        labelHeader: 'Measure',
        extraHeaders: ['Verdict', 'Share of draws where A > B', 'Share of draws where A = B (a tie)'],
        rows: MEASURES.filter(([k]) => pair.by[k]).map(([k, label]) => {
          const x = pair.by[k]!;
          const ok = x.low !== null && x.high !== null;
          return {
            label,
            figure: ok
              ? {
                  low: x.low!,
                  high: x.high!,
                  central: x.central,
                  display: displayFigure({ low: x.low!, high: x.high!, central: x.central }),
                }
              : null,
            withheld: 'the API gives no ratio for this measure',
            cells: [
              verdict(x),
              x.p_a_greater === null ? '—' : `${formatSig(x.p_a_greater * 100, 3)}%`,
              x.p_a_equal === null ? '—' : `${formatSig(x.p_a_equal * 100, 3)}%`,
            ],
          };
        }),
      })
    : html`<p class="muted">The API gives no paired comparison for these two.</p>`;
  const both = stackTable({
    className: 'both',
    caption: `${d.metric} of A and B, per measure`,
    head: ['Measure', `A: ${d.a.name}`, `B: ${d.b.name}`, 'Verdict'],
    rows: MEASURES.map(([k, label]) => ({
      header: label,
      cells: [
        html`${r.a[k]?.display ?? 'not served'} <span class="muted">${r.a[k]?.unit ?? ''}</span>`,
        html`${r.b[k]?.display ?? 'not served'} <span class="muted">${r.b[k]?.unit ?? ''}</span>`,
        pair?.by[k] ? verdict(pair.by[k]!) : '—',
      ],
    })),
  });
  return html`<section aria-labelledby="ratio-h"><h2 id="ratio-h">Is one larger than the other?</h2>
<p>The API runs both products through the same ${pair?.samples ?? ''} draws of the shared inputs and divides A by B draw by draw. If the ratio's interval lies wholly above 1, A is larger; wholly below 1, B is larger; if it straddles 1, the two cannot be told apart.${d.a.unit !== d.b.unit ? ' Per unit compares one unit of each, which are different things; per kg and per 1,000 EUR compare like with like.' : ''}</p>
${chart}</section>
<section aria-labelledby="both-h"><h2 id="both-h">Both products' figures</h2>
${both}
<p><a href="/explore/impact/products/${d.a.slug}">${d.a.name}</a> · <a href="/explore/impact/products/${d.b.slug}">${d.b.name}</a></p></section>`;
}

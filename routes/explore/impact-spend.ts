/**
 * GET /explore/impact/spend?amount=…&category=…&scenario=…: deaths (or injuries) attributed to the
 * supply chains of an amount of household spending in euros, by COICOP 2018 category, as bars and a
 * table. `chart` (deaths or injuries) chooses what the bars show; the table shows both.
 *
 * API calls: one, GET /impact/v1/spend with amount, category and scenario passed through (its answer
 * also lists the categories the form offers).
 */
import { barFigure } from '../../lib/explore/bar-chart.ts';
import { html } from '../../lib/html.ts';
import { stackLabels } from '../../lib/explore/stack-table.ts';
import { formatSig } from '../../lib/impact/figure.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { HttpError } from '../../lib/http/errors.ts';
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
  type Figure,
  type ImpactSession,
} from './impact-common.ts';
import { explorePage } from './layout.ts';

interface Row {
  code: string;
  reference: boolean;
  deaths: Figure | null;
  injuries: Figure | null;
  share_of_spend: number | null;
  made_in_consumer: number | null;
  group: { level: string } | null;
}

interface Spend {
  amount_eur: number;
  consumer: string;
  categories: Array<{ code: string; name: string; note: string }>;
  results: { rows: Row[]; left_out: { industries: string[]; share_of_spend: number | null; why: string } } | null;
}

const pct = (x: number | null) => (x === null ? '—' : `${formatSig(x * 100, 3)}%`);

export async function impactSpend(req: ApiRequest, api: ImpactSession) {
  const chart = param(req, 'chart') ?? 'deaths';
  if (!(METRICS as readonly string[]).includes(chart))
    throw new HttpError(
      400,
      'bad_request',
      `Invalid query parameter 'chart': must be one of: ${METRICS.join(', ')} (got '${chart}').`,
    );
  const query = { amount: param(req, 'amount'), category: param(req, 'category'), scenario: param(req, 'scenario') };
  const env = await api.get<Spend>('/spend', query);
  const d = env.data;
  const names = new Map(d.categories.map((c) => [c.code, c.name]));
  const amount = `${d.amount_eur.toLocaleString('en-GB')} EUR`;
  const form = html`<form class="filters" method="get" action="/explore/impact/spend">
<label>Amount spent, in euros<input type="number" name="amount" value="${query.amount ?? String(d.amount_eur)}" min="0.01" max="1000000000" step="any" required></label>
${select('category', 'Category', [['', 'All categories'], ...d.categories.map((c): [string, string] => [c.code, `${c.code} ${c.name}`])], query.category)}
${select(
  'chart',
  'Bars show',
  METRICS.map((x): [string, string] => [x, x]),
  chart,
)}
${select('scenario', 'Scenario', scenarioOptions(), query.scenario ?? 'S-MAX')}
<button type="submit">Show</button></form>`;

  let figures = html`<p class="withheld-figure"><strong>Withheld.</strong> ${env.withheld?.reason ?? ''}</p>`;
  if (d.results) {
    const rows = d.results.rows;
    const reference = rows.find((r) => r.reference);
    // The bars are the top-level divisions (or the rows of the one category asked for): groups inside a division would count its spending twice.
    const barred = rows.filter((r) => !r.reference && (query.category !== undefined || r.group?.level !== 'group'));
    const pick = (r: Row) => (chart === 'injuries' ? r.injuries : r.deaths);
    const unit = barred.map(pick).find(Boolean)?.unit ?? `${chart} per ${amount} spent`;
    const bars = barFigure({
      id: 'chart-spend',
      title: `${chart === 'injuries' ? 'Injuries' : 'Deaths'} attributed to the supply chains of ${amount} spent in each category`,
      summary: `${chart} attributed to ${amount} of household spending, by COICOP 2018 category.`,
      unit,
      labelHeader: 'Category',
      partsOfWhole: false,
      rows: barred
        .filter((r) => pick(r))
        .map((r) => {
          const f = pick(r)!;
          return {
            label: `${r.code} ${names.get(r.code) ?? ''}`.trim(),
            value: f.central,
            low: f.low,
            high: f.high,
            display: f.display,
          };
        }),
    });
    const table = rows.map(
      (r) =>
        html`<tr${r.reference ? html` class="reference-row"` : ''}><th scope="row">${r.reference ? 'All spending (average basket)' : html`${r.group?.level === 'group' ? html`<span class="indent">↳ </span>` : ''}${r.code} ${names.get(r.code) ?? ''}`}</th><td>${r.deaths?.display ?? 'not served'}</td><td>${r.injuries?.display ?? 'not served'}</td><td class="num">${pct(r.share_of_spend)}</td><td class="num">${pct(r.made_in_consumer)}</td></tr>`,
    );
    const left = d.results.left_out;
    figures = html`${reference?.deaths ? html`<p class="headline">Spending ${amount} like the average ${d.consumer} household: <strong>${reference.deaths.display}</strong> ${reference.deaths.unit}, and <strong>${reference.injuries?.display ?? 'not served'}</strong> ${reference.injuries?.unit ?? 'injuries'}.</p>` : ''}
<p>Each category's figure is what the whole amount would attribute if it were all spent in that category, so the categories do not add up to the total. Figures and their intervals scale with the amount.</p>
${bars}
<h2>Every category, deaths and injuries</h2>
<div class="table-scroll">${stackLabels(html`<table class="spend"><caption>${amount} spent: deaths and injuries attributed, by category</caption><thead><tr><th scope="col">Category</th><th scope="col">Deaths: central (p05–p95)</th><th scope="col">Injuries: central (p05–p95)</th><th scope="col" class="num">Share of household spending</th><th scope="col" class="num">Made in the consumer's region</th></tr></thead><tbody>${table}</tbody></table>`)}</div>
<p class="muted">Left out (${pct(left.share_of_spend)} of spending): ${left.industries.join(', ')}. ${left.why}</p>`;
  }
  const body = html`<p class="lede">What a sum of household spending attributes, category by category: deaths and injuries <strong>statistically attributed to the supply chains</strong> of what it buys (consumer: ${d.consumer}; categories of COICOP 2018).</p>
${illustrativeNotice(env)}${withheldNotice(env)}${form}${READING}
<section aria-labelledby="spend-h"><h2 id="spend-h">${amount} spent, by category</h2>${figures}</section>
${aboutFigures(env)}${apiCalls(api.calls)}`;
  return explorePage({ title: 'Spending: harm attributed per category', body });
}

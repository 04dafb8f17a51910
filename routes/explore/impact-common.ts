/**
 * What every impact explorer page shares: calling the impact API on the visitor's behalf (and turning
 * a refusal into a page: the API's 400 detail on a 400 page, a 404, and on 429 a page saying the daily
 * allowance is used and when it renews), and rendering the envelope's parts the same way everywhere:
 * the withheld notice with the API's reason, caveats, run and methodology, citation with the sources'
 * credits, and the list of API calls the page made (links to the same JSON).
 *
 * Quota: each API call a page makes counts on the visitor's address exactly as if they had made it
 * (routes/explore/api.ts). Pages therefore make few calls, each says which in its header comment, and
 * the page says how many it made and how many are left today.
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { errorOf, type ApiAnswer, type ApiCall } from './api.ts';
import { explorePage } from './layout.ts';

export const IMPACT = '/impact/v1';

/** The document's scenario codes (they never change); S-MAX is the published default. */
export const SCENARIOS = ['S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'] as const;
export const METRICS = ['deaths', 'injuries'] as const;

export interface Figure {
  central: number | null;
  low: number;
  median: number;
  high: number;
  grade: string;
  unit: string;
  display: string;
  /** The figure per a round number of units ("21 (10–30) deaths per million phones"), methodology v2 §10. */
  quotable?: string;
  /** Shares of the value by what it rests on (null when nothing is attributed; absent before v2). */
  provenance?: {
    published: number;
    derived: number;
    assumption: number;
    illustrative: number;
    summary: string;
  } | null;
}

/** A product as the API lists it (/products) and heads its own page with (/product/{slug}). */
export interface ProductSummary {
  slug: string;
  name: string;
  tier: string;
  category: { code: string; name: string };
  unit_label: string;
  unit_mass_g: number | null;
  complete: boolean;
  bom_confidence: string | null;
  /** What the bill of materials rests on (issue 33). */
  bom_basis: {
    lines: Record<'published' | 'derived' | 'assumption' | 'illustrative', number>;
    published_or_derived: number | null;
    sources: Array<{ code: string; name: string; lines: number }>;
    summary: string;
  };
  is_arms: boolean;
}

export interface Contribution {
  key: string;
  label: string;
  seq: number;
  share: number | null;
  figure: Figure;
}

export interface Source {
  code: string;
  name: string;
  homepage: string;
  licence: { name: string | null; url: string | null };
  credit: string | null;
  usage_restriction: string | null;
}

export interface Envelope<D> {
  status: 'published' | 'withheld';
  scenario: string;
  run: { id: number; published_at: string | null; illustrative: boolean; links: { self: string } } | null;
  methodology_version: string;
  data_version: string | null;
  metrics: Record<string, unknown> | null;
  data: D;
  withheld: { code: string; reason: string } | null;
  sources: Source[];
  licence: {
    name: string;
    url: string;
    note: string;
    open?: boolean;
    terms?: Array<{ source: string; licence: string; url: string | null; open: boolean; reuse: string }>;
  };
  caveats: Array<{ code: string; text: string }>;
  citation: { text: string; run_id: number | null; url: string };
}

/** An API answer other than 200: the page shows it instead of its content. */
export class ApiRefusal extends Error {
  constructor(
    readonly target: string,
    readonly answer: ApiAnswer,
  ) {
    super(`${target} answered ${answer.status}`);
  }
}

export interface Called {
  target: string;
  answer: ApiAnswer;
}

/** A page's API access: every call is recorded, so the page can list them and the allowance left. */
export interface ImpactSession {
  get<D = unknown>(path: string, query?: Record<string, string | undefined>): Promise<Envelope<D>>;
  calls: Called[];
}

/** `/impact/v1` + path + the query's set values, in the order given. */
export function target(path: string, query: Record<string, string | undefined> = {}): string {
  const set = Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  return IMPACT + path + (set.length ? '?' + new URLSearchParams(set).toString() : '');
}

/** One query value of the visitor's request: the first if repeated, undefined when absent or empty. */
export function param(req: ApiRequest, name: string): string | undefined {
  const value = new URL(req.url).searchParams.get(name);
  return value === null || value.trim() === '' ? undefined : value.trim();
}

type Handler = (req: ApiRequest, session: ImpactSession) => Promise<Reply>;

/** Wraps a page: its API calls go through a session, and a refusal becomes the refusal page. */
export function impactPage(api: ApiCall, handler: Handler) {
  return async (req: ApiRequest): Promise<Reply> => {
    const calls: Called[] = [];
    const session: ImpactSession = {
      calls,
      async get<D>(path: string, query: Record<string, string | undefined> = {}): Promise<Envelope<D>> {
        const t = target(path, query);
        const answer = await api(req, t);
        calls.push({ target: t, answer });
        if (answer.status !== 200) throw new ApiRefusal(t, answer);
        return answer.json as Envelope<D>;
      },
    };
    try {
      return await handler(req, session);
    } catch (err) {
      if (err instanceof ApiRefusal) return refusalPage(req, err);
      throw err;
    }
  };
}

/** Seconds as "3 h 20 min" (or "45 s"). */
export function inWords(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

function refusalPage(req: ApiRequest, refusal: ApiRefusal): Reply {
  const { status, headers } = refusal.answer;
  const detail: string = errorOf(refusal.answer).detail ?? `The API answered ${status}.`;
  const asked = html`<p class="muted">The API call: <a href="${refusal.target}"><code>GET ${refusal.target}</code></a></p>`;
  if (status === 429) {
    const seconds = Number(headers['retry-after'] ?? headers['x-ratelimit-reset'] ?? 0);
    const at = new Date(req.now + seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
    const page = explorePage({
      status: 429,
      title: "Today's allowance is used up",
      body: html`<p class="notice error" role="alert">The impact API serves each address ${headers['x-ratelimit-limit'] ?? '100'} requests a day, and this page's requests count on yours, as if you had called the API yourself. Today's are used.</p>
<p>The allowance renews at <strong>00:00 UTC</strong>, in <strong>${inWords(seconds)}</strong> (at ${at} UTC).</p>
<p>The API said: <q>${detail}</q></p>${asked}
<p><a href="/explore/impact">Back to the impact explorer</a></p>`,
    });
    page.headers = { ...page.headers, 'retry-after': String(seconds) };
    return page;
  }
  const titles: Record<number, string> = { 400: 'That request was not accepted', 404: 'Not found' };
  return explorePage({
    status: status >= 400 ? status : 502,
    title: titles[status] ?? 'The impact API could not answer',
    body: html`<p class="notice error" role="alert">${detail}</p>${asked}<p><a href="/explore/impact">Back to the impact explorer</a></p>`,
  });
}

/** The API's reason, where the figures would be: withheld is never shown as zero or blank. */
export function withheldNotice(env: Envelope<unknown>): Html {
  if (env.status !== 'withheld') return html``;
  return html`<div class="notice warn withheld" role="status"><p><strong>Figures withheld.</strong> ${env.withheld?.reason ?? 'The API publishes no figure for this request.'}</p><p>The facts below are the register's; no figure is shown because the API serves none.</p></div>`;
}

/**
 * The illustrative-data caveats, prominently, when the API gives them: a run on the demo register
 * (illustrative as a whole), or published-data figures that rest in part on illustrative inputs or
 * mostly on unmeasured ones (issue 24).
 */
export function illustrativeNotice(env: Envelope<unknown>): Html {
  const heads: Record<string, string> = {
    illustrative: 'Illustrative data.',
    illustrative_inputs: 'Partly illustrative inputs.',
    not_measured: 'Mostly assumed or illustrative.',
  };
  return html`${env.caveats
    .filter((c) => heads[c.code])
    .map((c) => html`<p class="notice warn"><strong>${heads[c.code]}</strong> ${c.text}</p>`)}`;
}

/** Scenario, run, methodology and data version, in one line. */
export function provenance(env: Envelope<unknown>): Html {
  const run = env.run
    ? html`run <a href="${env.run.links.self}">${env.run.id}</a>`
    : html`<strong>no published run</strong>`;
  return html`<p class="provenance">Scenario <strong>${env.scenario}</strong>, ${run}, methodology <a href="${IMPACT}/methodology">${env.methodology_version}</a>, data version ${env.data_version ?? 'none'}.</p>`;
}

/** Caveats, citation, sources with their credits and licences: what the API says goes with the figures. */
export function aboutFigures(env: Envelope<unknown>): Html {
  const sources = env.sources.map(
    (s) =>
      html`<li id="used-${s.code}"><a href="${s.homepage}">${s.name}</a> (<a href="/explore/impact/sources#src-${s.code}">${s.code}</a>). Credit: ${s.credit ?? 'none required'}. Licence: ${s.licence.url ? html`<a href="${s.licence.url}">${s.licence.name ?? s.licence.url}</a>` : (s.licence.name ?? 'not stated')}.${s.usage_restriction ? html` <strong>Restriction: ${s.usage_restriction}.</strong>` : ''}</li>`,
  );
  return html`<section aria-labelledby="about-h"><h2 id="about-h">Caveats, sources and citation</h2>
<p>Every dataset the register uses, with its release, licence and what it feeds: <a href="/explore/impact/sources">data sources</a>.</p>
<ul class="caveats">${env.caveats.map((c) => html`<li>${c.text}</li>`)}</ul>
${provenance(env)}
<h3>How to cite</h3>
<blockquote class="citation">${env.citation.text}</blockquote>
<h3>Sources</h3>
${env.sources.length ? html`<ul class="sources">${sources}</ul>` : html`<p class="muted">No source is listed: ${env.status === 'withheld' ? 'no figure is served, so none was used.' : 'these figures used none.'}</p>`}
<p class="muted">Reuse: <a href="${env.licence.url}">${env.licence.name}</a>. ${env.licence.note}</p>
${env.licence.open === false ? html`<ul class="licence-terms">${(env.licence.terms ?? []).filter((t) => !t.open).map((t) => html`<li><strong>${t.source}</strong>: ${t.reuse}</li>`)}</ul>` : ''}</section>`;
}

/** The JSON behind the page, and what the calls cost the visitor's daily allowance. */
export function apiCalls(calls: Called[]): Html {
  const last = calls[calls.length - 1];
  const left = last?.answer.headers['x-ratelimit-remaining'];
  const limit = last?.answer.headers['x-ratelimit-limit'];
  const reset = Number(last?.answer.headers['x-ratelimit-reset'] ?? NaN);
  return html`<section aria-labelledby="calls-h" class="api-calls"><h2 id="calls-h">The API calls behind this page</h2>
<p>Everything above is what these calls answered; open them to see the same figures as JSON.</p>
<ul>${calls.map((c) => html`<li><a href="${c.target}"><code>GET ${c.target}</code></a></li>`)}</ul>
${left !== undefined ? html`<p class="muted quota">This page made ${calls.length} request${calls.length === 1 ? '' : 's'} to the impact API on your behalf. ${left} of your ${limit} requests are left today${Number.isFinite(reset) ? `; the allowance renews at 00:00 UTC, in ${inWords(reset)}` : ''}.</p>` : ''}</section>`;
}

/** A <select> of fixed values; the current one selected. */
export function select(
  name: string,
  label: string,
  options: Array<[string, string]>,
  current: string | undefined,
): Html {
  return html`<label>${label}<select name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${text}</option>`)}</select></label>`;
}

export const scenarioOptions = (): Array<[string, string]> =>
  SCENARIOS.map((s) => [s, s === 'S-MAX' ? 'S-MAX (the published default)' : s]);

/** Plain-language reading of a figure, used on every page that shows some. */
export const READING = html`<details class="reading"><summary>How to read these figures</summary>
<p>A figure is the number of deaths (or injuries) per year of world production <em>statistically attributed to the supply chain of</em> one unit of a product: a share of harm that sources counted, never a claim that the product caused it.</p>
<p>Each figure comes from many draws of a model with uncertain inputs. Its <strong>interval</strong> runs from the 5th to the 95th percentile of the draws (p05–p95): in 90% of them the figure was inside it. Its <strong>central value</strong> is the mean of the draws. Figures are given at two significant figures, like 3.9e-5, which means 0.000039.</p>
<p>The <strong>grade</strong> says how wide the interval is: ROBUST (high is at most 3 times low), MODERATE (at most 10 times) or INDICATIVE (wider, or the inputs are too weak). An INDICATIVE figure has <strong>no central value</strong>: only its interval may be quoted.</p>
<p>A <strong>scenario</strong> is a set of assumptions about which harm to attribute; S-MAX, the default, attributes the most the evidence supports. Every figure is a <strong>floor</strong>: it covers the production phase only, and only harm that a source counted.</p></details>`;

/**
 * A table that fits a phone (issue 14): on a narrow screen each row becomes a card, its row header the
 * title and every cell labelled by its column (data-label, shown by the stylesheet's `table.stack`).
 * Wide screens get the ordinary table.
 */
export function stackTable(o: {
  className: string;
  caption: Html | string;
  head: string[];
  rows: Array<{ header: Html | string; cells: Array<Html | string>; className?: string }>;
}): Html {
  const [first, ...rest] = o.head;
  // In a scrolling box too, for widths between a phone's and the table's own.
  return html`<div class="table-scroll"><table class="stack ${o.className}"><caption>${o.caption}</caption>
<thead><tr><th scope="col">${first ?? ''}</th>${rest.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${o.rows.map((r) => html`<tr${r.className ? html` class="${r.className}"` : ''}><th scope="row">${r.header}</th>${r.cells.map((c, i) => html`<td data-label="${rest[i] ?? ''}">${c}</td>`)}</tr>`)}</tbody></table></div>`;
}

/** A figure in a table cell: its display, its grade when INDICATIVE; withheld or absent said in words. */
export function figureCell(f: Figure | null | undefined, withheld: boolean): Html {
  if (withheld) return html`<span class="withheld-cell">withheld</span>`;
  if (!f) return html`<span class="muted">not computed</span>`;
  return html`${f.display}${f.grade === 'INDICATIVE' ? html` <span class="grade">INDICATIVE</span>` : ''}`;
}

/** The scenario form every register page carries (GET, no JavaScript). */
export function scenarioForm(action: string, current: string | undefined): Html {
  return html`<form class="filters" method="get" action="${action}">${select('scenario', 'Scenario', scenarioOptions(), current ?? 'S-MAX')}<button type="submit">Show</button></form>`;
}

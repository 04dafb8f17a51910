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
import { explorePage } from './layout.ts';

interface ReachItem {
  metric: string;
  rank: number;
  product: { slug: string; name: string } | null;
  figure: Figure | null;
  per_unit: Figure | null;
  share: number | null;
  counted: number | null;
}
interface Reaching {
  reach: ReachItem[];
  reach_order: string;
}

const enc = encodeURIComponent;
const pct = (x: number | null) => (x === null ? '—' : `${formatSig(x * 100, 2)}%`);
const scenarioOf = (req: ApiRequest) => param(req, 'scenario');
const withScenario = (href: string, scenario: string | undefined) =>
  scenario ? `${href}?scenario=${enc(scenario)}` : href;

/** The deaths a subject's attribution reaches: its total per year, then the products per kg. */
function reachSection(
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
${total?.figure ? html`<p class="headline">Deaths per year attributed through ${subject} to the register's materials: <strong>${total.figure.display}</strong>${total.counted !== null ? html` of ${total.counted.toLocaleString('en-GB')} counted a year (${pct(total.share)})` : ''}.</p>` : ''}
<p class="muted">${results.reach_order}</p>
${
  products.length
    ? stackTable({
        className: 'reach',
        caption: `Products reached through ${subject}, by deaths per kg of product (p05–p95)`,
        head: ['Product', 'Deaths per kg of product', 'Deaths per unit', 'Share of the product’s figure'],
        rows: products.map((r) => ({
          header: html`<a href="${withScenario(`/explore/impact/products/${r.product!.slug}`, scenario)}">${r.product!.name}</a>`,
          cells: [
            figureCell(r.figure, false),
            html`${figureCell(r.per_unit, false)}${r.per_unit ? html` <span class="muted">${r.per_unit.unit}</span>` : ''}`,
            pct(r.share),
          ],
        })),
      })
    : html`<p class="muted">No product of the register is reached through ${subject}.</p>`
}
</section>`;
}

const page = (
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

const browseLinks = html`<p class="browse">Browse the register: <a href="/explore/impact">products</a> · <a href="/explore/impact/materials">materials</a> · <a href="/explore/impact/conflicts">conflicts</a> · <a href="/explore/impact/countries">countries</a></p>`;

// Materials

interface MaterialList {
  count: number;
  materials: Array<{ slug: string; name: string; category: string; criticality: string; conflict_mineral: boolean }>;
  results: { figures: Record<string, { deaths_per_kg: Figure | null; injuries_per_kg: Figure | null }> } | null;
}

export async function impactMaterials(req: ApiRequest, api: ImpactSession) {
  const scenario = scenarioOf(req);
  const env = await api.get<MaterialList>('/materials', { scenario });
  const figures = env.data.results?.figures ?? null;
  const table = stackTable({
    className: 'materials',
    caption: `${env.data.count} materials; deaths and injuries per kg, scenario ${env.scenario}`,
    head: [
      'Material',
      'Category',
      'Criticality',
      'Conflict mineral',
      'Deaths per kg (p05–p95)',
      'Injuries per kg (p05–p95)',
    ],
    rows: env.data.materials.map((m) => ({
      header: html`<a href="${withScenario(`/explore/impact/materials/${m.slug}`, scenario)}">${m.name}</a>`,
      cells: [
        m.category,
        m.criticality,
        m.conflict_mineral ? 'yes' : 'no',
        figureCell(figures?.[m.slug]?.deaths_per_kg, figures === null),
        figureCell(figures?.[m.slug]?.injuries_per_kg, figures === null),
      ],
    })),
  });
  return page(
    'Materials',
    env,
    api,
    '/explore/impact/materials',
    scenario,
    html`${browseLinks}${table}`,
    html`<p class="lede">Every material the register models, with the deaths and injuries <strong>statistically attributed to the supply chain</strong> of a kilogram of it.</p>`,
  );
}

interface Material extends Reaching {
  slug: string;
  name: string;
  category: string;
  unit: string;
  content_basis: string | null;
  note: string;
  criticality: { level: string; source: string };
  conflict_mineral: { flag: boolean; source: string };
  used_in: Array<{ product: { slug: string; name: string }; qty: number; unit: string }>;
  records: {
    production: {
      year: number | null;
      unit: string;
      world_total: number | null;
      countries: Array<{ iso3: string; name: string; qty: number; quality: string }>;
    } | null;
  };
  results: (Reaching & { per_kg: { deaths: Figure | null; injuries: Figure | null } }) | null;
}

export async function impactMaterial(req: ApiRequest, api: ImpactSession) {
  const scenario = scenarioOf(req);
  const slug = req.params.slug ?? '';
  const env = await api.get<Material>(`/material/${enc(slug)}`, { scenario });
  const m = env.data;
  const production = m.records.production;
  const facts = html`<dl class="call-detail"><dt>Category</dt><dd>${m.category}</dd><dt>Unit</dt><dd>${m.unit}${m.content_basis ? ` (${m.content_basis})` : ''}</dd>
<dt>Criticality</dt><dd>${m.criticality.level} <span class="muted">(${m.criticality.source})</span></dd>
<dt>Conflict mineral</dt><dd>${m.conflict_mineral.flag ? 'yes' : 'no'} <span class="muted">(${m.conflict_mineral.source})</span></dd>
<dt>Deaths per kg</dt><dd>${figureCell(m.results?.per_kg.deaths, m.results === null)}</dd><dt>Injuries per kg</dt><dd>${figureCell(m.results?.per_kg.injuries, m.results === null)}</dd></dl>
<p>${m.note}</p>`;
  const prod =
    production && production.countries.length
      ? stackTable({
          className: 'production',
          caption: `Production by country, ${production.year ?? 'latest year'} (${production.unit}; world ${production.world_total === null ? 'not stated' : formatSig(production.world_total, 3)})`,
          head: ['Country', 'Quantity', 'Share of world', 'Quality'],
          rows: production.countries.map((c) => ({
            header: html`<a href="${withScenario(`/explore/impact/countries/${c.iso3}`, scenario)}">${c.name}</a>`,
            cells: [formatSig(c.qty, 3), production.world_total ? pct(c.qty / production.world_total) : '—', c.quality],
          })),
        })
      : html`<p class="muted">No production by country in the register.</p>`;
  const used = m.used_in.length
    ? html`<p>Used in: ${m.used_in.map((u, i) => html`${i ? ', ' : ''}<a href="/explore/impact/products/${u.product.slug}">${u.product.name}</a>`)}.</p>`
    : '';
  return page(
    m.name,
    env,
    api,
    `/explore/impact/materials/${enc(m.slug)}`,
    scenario,
    html`${browseLinks}${facts}${used}<h2>Where it is produced</h2>${prod}${reachSection(env as Envelope<{ results: Reaching | null }>, m.name, scenario)}`,
    html`<p class="lede">A material of the register: its facts, where it is produced, and the products its attributed harm reaches.</p>`,
  );
}

// Conflicts

interface ConflictList {
  count: number;
  conflicts: Array<{
    slug: string;
    name: string;
    type: string;
    region: string;
    years: { from: number | null; to: number | null };
  }>;
  results: { figures: Record<string, Figure | null> } | null;
}
const years = (y: { from: number | null; to: number | null }) =>
  y.from === null ? '—' : `${y.from}–${y.to ?? 'ongoing'}`;

export async function impactConflicts(req: ApiRequest, api: ImpactSession) {
  const scenario = scenarioOf(req);
  const env = await api.get<ConflictList>('/conflicts', { scenario });
  const figures = env.data.results?.figures ?? null;
  const table = stackTable({
    className: 'conflicts',
    caption: `${env.data.count} conflicts; deaths per year attributed through each, scenario ${env.scenario}`,
    head: ['Conflict', 'Type', 'Region', 'Years', 'Deaths per year attributed (p05–p95)'],
    rows: env.data.conflicts.map((k) => ({
      header: html`<a href="${withScenario(`/explore/impact/conflicts/${k.slug}`, scenario)}">${k.name}</a>`,
      cells: [k.type, k.region, years(k.years), figureCell(figures?.[k.slug], figures === null)],
    })),
  });
  return page(
    'Conflicts',
    env,
    api,
    '/explore/impact/conflicts',
    scenario,
    html`${browseLinks}${table}`,
    html`<p class="lede">The conflicts whose deaths the register attributes, by documented shares, to the sectors that supply materials: an attribution, never a claim that a product caused them.</p>`,
  );
}

interface Conflict extends Reaching {
  slug: string;
  name: string;
  ucdp_conflict_id: number | null;
  ucdp_id_note: string | null;
  type: string;
  region: string;
  years: { from: number | null; to: number | null };
  attribution: {
    scenario: string;
    periods: Array<{
      label: string;
      year_from: number;
      year_to: number;
      rationale: string;
      shares: Array<{ sector: string; name: string; share: number | null; confidence: string | null }>;
    }>;
  };
  records: {
    ledger: {
      events: number;
      deaths_best: number;
      precise_location_pct: number | null;
      year_min: number | null;
      year_max: number | null;
      countries: number;
    };
  } | null;
  results: Reaching | null;
}

export async function impactConflict(req: ApiRequest, api: ImpactSession) {
  const scenario = scenarioOf(req);
  const env = await api.get<Conflict>(`/conflict/${enc(req.params.slug ?? '')}`, { scenario });
  const k = env.data;
  const ledger = k.records?.ledger;
  const facts = html`<dl class="call-detail"><dt>Type</dt><dd>${k.type}</dd><dt>Region</dt><dd>${k.region}</dd><dt>Years</dt><dd>${years(k.years)}</dd>
<dt>UCDP conflict id</dt><dd>${k.ucdp_conflict_id ?? html`<span class="muted">none: ${k.ucdp_id_note ?? 'not verified'}</span>`}</dd>
${ledger ? html`<dt>Deaths counted</dt><dd>${ledger.deaths_best.toLocaleString('en-GB')} in ${ledger.events.toLocaleString('en-GB')} events, ${ledger.year_min}–${ledger.year_max}, ${ledger.countries} countries</dd>` : ''}</dl>`;
  const periods = k.attribution.periods.map(
    (p) =>
      html`<h3>${p.label}, ${p.year_from}–${p.year_to}</h3><p>${p.rationale}</p>${stackTable({
        className: 'shares',
        caption: `Shares of the conflict's deaths attributed to sectors, ${p.label} (scenario ${k.attribution.scenario})`,
        head: ['Sector', 'Share', 'Confidence'],
        rows: p.shares.map((s) => ({ header: s.name, cells: [pct(s.share), s.confidence ?? '—'] })),
      })}`,
  );
  return page(
    k.name,
    env,
    api,
    `/explore/impact/conflicts/${enc(k.slug)}`,
    scenario,
    html`${browseLinks}${facts}<h2>Attribution to sectors</h2>${periods}${reachSection(env as Envelope<{ results: Reaching | null }>, k.name, scenario)}`,
    html`<p class="lede">A conflict of the register: its death ledger, how its deaths are attributed to sectors, and the products that attribution reaches.</p>`,
  );
}

// Countries

interface CountryList {
  count: number;
  countries: Array<{
    iso3: string;
    name: string;
    region: string;
    income_group: string | null;
    deaths_counted: number;
    data: { harm_counted: boolean; production: boolean };
  }>;
  results: { figures: Record<string, Figure | null> } | null;
}

export async function impactCountries(req: ApiRequest, api: ImpactSession) {
  const scenario = scenarioOf(req);
  const env = await api.get<CountryList>('/countries', { scenario });
  const figures = env.data.results?.figures ?? null;
  const table = stackTable({
    className: 'countries',
    caption: `${env.data.count} countries with data; deaths counted and deaths per year attributed, scenario ${env.scenario}`,
    head: ['Country', 'Code', 'Region', 'Income group', 'Deaths counted', 'Deaths per year attributed (p05–p95)'],
    rows: env.data.countries.map((c) => ({
      header: html`<a href="${withScenario(`/explore/impact/countries/${c.iso3}`, scenario)}">${c.name}</a>`,
      cells: [
        c.iso3,
        c.region,
        c.income_group ?? '—',
        c.deaths_counted.toLocaleString('en-GB'),
        figureCell(figures?.[c.iso3], figures === null),
      ],
    })),
  });
  return page(
    'Countries',
    env,
    api,
    '/explore/impact/countries',
    scenario,
    html`${browseLinks}${table}`,
    html`<p class="lede">The countries the register holds data for (harm counted in them, or production of a material), under their ISO 3166-1 names.</p>`,
  );
}

interface Country extends Reaching {
  iso3: string;
  name: string;
  region: string;
  income_group: string | null;
  records: {
    harm_counted: {
      channels: Array<{
        channel: string;
        deaths: number;
        year_min: number | null;
        year_max: number | null;
        latest_year_deaths: number | null;
      }>;
      deaths: number;
    };
  } | null;
  results: Reaching | null;
}

export async function impactCountry(req: ApiRequest, api: ImpactSession) {
  const scenario = scenarioOf(req);
  const env = await api.get<Country>(`/country/${enc(req.params.iso3 ?? '')}`, { scenario });
  const c = env.data;
  const channels = c.records?.harm_counted.channels ?? [];
  const facts = html`<dl class="call-detail"><dt>ISO 3166-1 code</dt><dd>${c.iso3}</dd><dt>Region</dt><dd>${c.region}</dd><dt>Income group</dt><dd>${c.income_group ?? 'not classified'}</dd></dl>`;
  const harm = channels.length
    ? stackTable({
        className: 'harm',
        caption: `Deaths counted in ${c.name}, by harm channel`,
        head: ['Channel', 'Deaths counted', 'Years', 'Latest year'],
        rows: channels.map((h) => ({
          header: html`${h.channel}`,
          cells: [
            h.deaths.toLocaleString('en-GB'),
            h.year_min === null ? '—' : `${h.year_min}–${h.year_max}`,
            h.latest_year_deaths === null ? '—' : h.latest_year_deaths.toLocaleString('en-GB'),
          ],
        })),
      })
    : html`<p class="muted">No harm counted in ${c.name} in the register.</p>`;
  return page(
    c.name,
    env,
    api,
    `/explore/impact/countries/${enc(c.iso3)}`,
    scenario,
    html`${browseLinks}${facts}<h2>Harm counted</h2>${harm}${reachSection(env as Envelope<{ results: Reaching | null }>, c.name, scenario)}`,
    html`<p class="lede">A country of the register: the harm counted in it, and the products its attributed harm reaches.</p>`,
  );
}

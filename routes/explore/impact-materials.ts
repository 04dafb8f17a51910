/** The explorer's materials: a list and a page each (routes/explore/impact-subjects.ts holds what the register pages share). */
import { html } from '../../lib/html.ts';
import { formatSig } from '../../lib/impact/figure.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { figureCell, stackTable, type Envelope, type Figure, type ImpactSession } from './impact-common.ts';
import {
  reachSection,
  page,
  browseLinks,
  enc,
  pct,
  scenarioOf,
  withScenario,
  type Reaching,
} from './impact-subjects.ts';

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

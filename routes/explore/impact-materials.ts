/** The explorer's materials: a list and a page each (routes/explore/impact-subjects.ts holds what the register pages share). */
import { html } from '../../lib/html.ts';
import { formatSig } from '../../lib/impact/figure.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { figureCell, stackTable, type Envelope, type Figure, type ImpactSession } from './impact-common.ts';
import { BASIS_LEGEND, figureWithBasis, sourceOf, type RowProvenance } from './impact-provenance.ts';
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
  price: { eur_per_kg: number | null; source: string | null; provenance: RowProvenance | null };
  used_in: Array<{ product: { slug: string; name: string }; qty: number; unit: string }>;
  records: {
    production: {
      year: number | null;
      unit: string;
      world_total: number | null;
      source: string | null;
      provenance: RowProvenance | null;
      countries: Array<{ iso3: string; name: string; qty: number | null; quality: string }>;
    } | null;
    work_reports: {
      channel: string;
      activity: string;
      years: [number, number];
      reported: string[];
      not_reported: Array<{ iso3: string; name: string }>;
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
<dt>Price</dt><dd>${m.price.eur_per_kg === null ? 'not stated' : `${formatSig(m.price.eur_per_kg, 3)} EUR/kg`} <span class="muted">from</span> ${sourceOf(m.price.provenance)}</dd>
<dt>Deaths per kg</dt><dd>${m.results ? figureWithBasis(m.results.per_kg.deaths) : figureCell(null, true)}</dd><dt>Injuries per kg</dt><dd>${m.results ? figureWithBasis(m.results.per_kg.injuries) : figureCell(null, true)}</dd></dl>
${m.results ? BASIS_LEGEND : ''}<p>${m.note}</p>`;
  const prod =
    production && production.countries.length
      ? stackTable({
          className: 'production',
          caption: `Production by country, ${production.year ?? 'latest year'} (${production.unit}; world ${production.world_total === null ? 'not stated' : formatSig(production.world_total, 3)})`,
          head: ['Country', 'Quantity', 'Share of world', 'Quality'],
          rows: production.countries.map((c) => ({
            header: html`<a href="${withScenario(`/explore/impact/countries/${c.iso3}`, scenario)}">${c.name}</a>`,
            cells: [
              c.qty === null ? html`<span class="muted">unknown (${c.quality})</span>` : formatSig(c.qty, 3),
              production.world_total && c.qty !== null ? pct(c.qty / production.world_total) : '—',
              c.quality,
            ],
          })),
        })
      : html`<p class="muted">No production by country in the register.</p>`;
  const prodSource = production
    ? html`<p class="muted">Source: ${sourceOf(production.provenance)}. A withheld quantity stays unknown: it is never counted as 0.</p>`
    : '';
  const work = m.records.work_reports;
  const reports = work
    ? html`<p>Work injuries (${work.channel}, ISIC ${work.activity}, ${work.years[0]}–${work.years[1]}): ${work.reported.length} producing countries report to ILOSTAT${work.not_reported.length ? html`; not reported by ${work.not_reported.map((c, i) => html`${i ? ', ' : ''}<a href="${withScenario(`/explore/impact/countries/${c.iso3}`, scenario)}">${c.name}</a>`)} (their work harm is not counted)` : ''}.</p>`
    : '';
  const used = m.used_in.length
    ? html`<p>Used in: ${m.used_in.map((u, i) => html`${i ? ', ' : ''}<a href="/explore/impact/products/${u.product.slug}">${u.product.name}</a>`)}.</p>`
    : '';
  return page(
    m.name,
    env,
    api,
    `/explore/impact/materials/${enc(m.slug)}`,
    scenario,
    html`${browseLinks}${facts}${used}<h2>Where it is produced</h2>${prod}${prodSource}${reports}${reachSection(env as Envelope<{ results: Reaching | null }>, m.name, scenario)}`,
    html`<p class="lede">A material of the register: its facts, where it is produced, and the products its attributed harm reaches.</p>`,
  );
}

// Conflicts

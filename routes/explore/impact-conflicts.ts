/** The explorer's conflicts: a list and a page each (routes/explore/impact-subjects.ts holds what the register pages share). */
import { html } from '../../lib/html.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { figureCell, stackTable, type Envelope, type Figure, type ImpactSession } from './impact-common.ts';
import { sourceOf, type RowProvenance } from './impact-provenance.ts';
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
  provenance: RowProvenance | null;
  attribution: {
    scenario: string;
    periods: Array<{
      label: string;
      year_from: number;
      year_to: number;
      rationale: string;
      shares: Array<{
        sector: string;
        name: string;
        share: number | null;
        confidence: string | null;
        basis: string | null;
      }>;
    }>;
  };
  records: {
    ledger: {
      events: number | null;
      deaths_best: number;
      precise_location_pct: number | null;
      year_min: number | null;
      year_max: number | null;
      countries: number;
      source: string | null;
      by_year: Array<{ year: number; deaths_best: number; deaths_low: number; deaths_high: number; countries: number }>;
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
<dt>Identified from</dt><dd>${sourceOf(k.provenance)}</dd>
${ledger ? html`<dt>Deaths counted</dt><dd>${ledger.deaths_best.toLocaleString('en-GB')}${ledger.events === null ? '' : ` in ${ledger.events.toLocaleString('en-GB')} events`}, ${ledger.year_min}–${ledger.year_max}, ${ledger.countries} ${ledger.countries === 1 ? 'country' : 'countries'} <span class="muted">(${ledger.source === 'ucdp-ged' ? 'UCDP GED events' : 'UCDP battle-related deaths, its dyads summed'}; <a href="/explore/impact/sources#src-${ledger.source ?? ''}">source</a>)</span></dd>` : ''}</dl>`;
  const byYear = ledger?.by_year.length
    ? html`<details class="ledger"><summary>Deaths counted by year (${ledger.by_year.length} years)</summary>${stackTable(
        {
          className: 'ledger-years',
          caption: `Battle deaths of ${k.name} by year: best estimate (low–high), as UCDP counts them`,
          head: ['Year', 'Deaths (best)', 'Low–high', 'Countries'],
          rows: ledger.by_year.map((y) => ({
            header: String(y.year),
            cells: [
              y.deaths_best.toLocaleString('en-GB'),
              `${y.deaths_low.toLocaleString('en-GB')}–${y.deaths_high.toLocaleString('en-GB')}`,
              String(y.countries),
            ],
          })),
        },
      )}</details>`
    : '';
  const periods = k.attribution.periods.map(
    (p) =>
      html`<h3>${p.label}, ${p.year_from}–${p.year_to}</h3><p>${p.rationale}</p>${stackTable({
        className: 'shares',
        caption: `Shares of the conflict's deaths attributed to sectors, ${p.label} (scenario ${k.attribution.scenario})`,
        head: ['Sector', 'Share', 'Confidence', 'Basis'],
        rows: p.shares.map((s) => ({ header: s.name, cells: [pct(s.share), s.confidence ?? '—', s.basis ?? '—'] })),
      })}`,
  );
  return page(
    k.name,
    env,
    api,
    `/explore/impact/conflicts/${enc(k.slug)}`,
    scenario,
    html`${browseLinks}${facts}${byYear}<h2>Attribution to sectors</h2>${periods}${reachSection(env as Envelope<{ results: Reaching | null }>, k.name, scenario)}`,
    html`<p class="lede">A conflict of the register: its death ledger, how its deaths are attributed to sectors, and the products that attribution reaches.</p>`,
  );
}

// Countries

/** The explorer's countries with data: a list and a page each (routes/explore/impact-subjects.ts holds what the register pages share). */
import { html } from '../../lib/html.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { figureCell, stackTable, type Envelope, type Figure, type ImpactSession } from './impact-common.ts';
import { sourceOf, SOURCES_PAGE, type RowProvenance } from './impact-provenance.ts';
import { reachSection, page, browseLinks, enc, scenarioOf, withScenario, type Reaching } from './impact-subjects.ts';

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
  world_bank_region: string | null;
  income_provenance: RowProvenance | null;
  records: {
    harm_counted: {
      channels: Array<{
        channel: string;
        deaths: number | null;
        year_min: number | null;
        year_max: number | null;
        latest_year_deaths: number | null;
        activities: Array<{
          activity: string;
          label: string;
          deaths: number | null;
          injuries: number | null;
          year_min: number;
          year_max: number;
          source: string;
        }>;
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
  const facts = html`<dl class="call-detail"><dt>ISO 3166-1 code</dt><dd>${c.iso3}</dd><dt>Region</dt><dd>${c.region}</dd><dt>Income group</dt><dd>${c.income_group ?? 'not classified'}${c.world_bank_region ? ` (World Bank region: ${c.world_bank_region})` : ''} <span class="muted">from</span> ${sourceOf(c.income_provenance)}</dd></dl>`;
  const count = (n: number | null) => (n === null ? 'unknown' : n.toLocaleString('en-GB'));
  const harm = channels.length
    ? stackTable({
        className: 'harm',
        caption: `Deaths counted in ${c.name}, by harm channel and what the source counts them under`,
        head: ['Channel', 'Deaths counted', 'Injuries counted', 'Years', 'Source'],
        rows: channels.flatMap((h) => [
          {
            header: html`<strong>${h.channel}</strong>`,
            cells: [count(h.deaths), '', h.year_min === null ? '—' : `${h.year_min}–${h.year_max}`, ''],
          },
          ...h.activities.map((a) => ({
            header: html`${h.channel}: ${a.label}`,
            className: 'activity',
            cells: [
              count(a.deaths),
              a.injuries === null ? '—' : a.injuries.toLocaleString('en-GB'),
              `${a.year_min}–${a.year_max}`,
              html`<a href="${SOURCES_PAGE}#src-${a.source}">${a.source}</a>`,
            ],
          })),
        ]),
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

/**
 * The register facts of a material, conflict and country (their `data` besides reach), with the
 * provenance of the values that come from a source: a material's price and production, a conflict's
 * identity and ledger, a country's income group and the harm counted in it per activity (methodology
 * v2 §3). Served whether or not figures are withheld.
 */
import type { MaterialRow } from '../../db/impact/queries/catalogue.ts';
import type { ConflictRow, CountryRow } from '../../db/impact/queries/register.ts';
import type { ImpactDeps } from './serve.ts';
import { usedInItem } from './links.ts';
import { DEFAULT_SCENARIO } from './schemas.ts';

type Deps = Pick<ImpactDeps, 'catalogue' | 'register'>;

const ACTIVITY_LABELS: Record<string, string> = {
  all: "the country's whole count",
  A: 'agriculture, forestry and fishing (ISIC A)',
  B: 'mining and quarrying (ISIC B)',
  C: 'manufacturing (ISIC C)',
  'D-U': 'utilities, construction and services (ISIC D–U)',
  battle: 'battle deaths of state-based conflicts',
  other: 'other organised violence (non-state conflict, one-sided violence)',
};

/** The ILOSTAT activity a material's sector is counted under. */
const ACTIVITY_OF_SECTOR: Record<string, string> = { AGR: 'A', 'MIN-ORE': 'B', 'MIN-OTH': 'B', 'MIN-ENE': 'B' };

/** The years the default scenario averages work injuries over. */
function workWindow(deps: Deps): [number, number] {
  const s = deps.register.scenarios().find((x) => x.code === DEFAULT_SCENARIO);
  const params = s
    ? (JSON.parse(s.params) as { years: [number, number]; channel_years?: Record<string, [number, number]> })
    : null;
  return params?.channel_years?.C2 ?? params?.years ?? [0, 0];
}

export function materialFacts(deps: Deps, m: MaterialRow) {
  const production = deps.catalogue.production(m.slug);
  const activity = ACTIVITY_OF_SECTOR[m.sector];
  let work = null;
  if (activity && deps.catalogue.countsWorkByActivity()) {
    const [from, to] = workWindow(deps);
    const rows = deps.catalogue.workReports(m.slug, activity, from, to);
    work = {
      channel: 'C2',
      activity,
      years: [from, to],
      reported: rows.filter((r) => r.reported === 1).map((r) => r.iso3),
      not_reported: rows.filter((r) => r.reported !== 1).map((r) => ({ iso3: r.iso3, name: r.name })),
    };
  }
  return {
    slug: m.slug,
    name: m.name,
    category: m.category,
    unit: m.unit,
    content_basis: m.content_basis,
    flags: JSON.parse(m.flags) as Record<string, unknown>,
    criticality: { level: m.criticality_level, source: m.criticality_source },
    conflict_mineral: { flag: m.conflict_mineral === 1, source: m.conflict_mineral_source },
    note: m.note,
    price: {
      eur_per_kg: m.price_eur_per_kg,
      source: m.price_source,
      provenance: deps.register.provenance(m.price_provenance),
    },
    used_in: deps.catalogue.usedIn('material', m.slug).map(usedInItem),
    records: {
      production: production && {
        year: production.year,
        unit: production.unit,
        world_total: production.world_total,
        source: production.source,
        provenance: deps.register.provenance(production.provenance),
        countries: production.countries,
      },
      work_reports: work,
    },
  };
}

export function conflictFacts(deps: Deps, k: ConflictRow, scenario: string) {
  const shares = deps.register.shares(k.slug, scenario);
  const ledger = deps.register.ledger(k.slug);
  return {
    slug: k.slug,
    name: k.name,
    ucdp_conflict_id: k.ucdp_conflict_id,
    ucdp_id_note: k.ucdp_id_note,
    type: k.type,
    region: k.region,
    years: { from: k.year_from, to: k.year_to },
    provenance: deps.register.provenance(k.provenance),
    attribution: {
      scenario,
      periods: deps.register.periods(k.slug, scenario).map((p) => ({
        ...p,
        shares: shares
          .filter((s) => s.label === p.label)
          .map((s) => ({ sector: s.sector, name: s.name, share: s.share, confidence: s.confidence, basis: s.basis })),
      })),
    },
    records:
      ledger.rows === 0
        ? null
        : {
            ledger: {
              events: ledger.events,
              deaths_best: ledger.deaths_best,
              precise_location_pct:
                ledger.events !== null && ledger.precise_events !== null && ledger.events > 0
                  ? Math.round((1000 * ledger.precise_events) / ledger.events) / 10
                  : null,
              year_min: ledger.year_min,
              year_max: ledger.year_max,
              countries: ledger.countries,
              source: ledger.source,
              by_year: deps.register.ledgerYears(k.slug),
            },
          },
  };
}

export function countryFacts(deps: Deps, c: CountryRow) {
  const activities = deps.register.activities(c.iso3);
  const channels = deps.register.harmCounted(c.iso3).map((ch) => ({
    ...ch,
    activities: activities
      .filter((a) => a.channel === ch.channel)
      .map((a) => ({
        activity: a.activity,
        label: ACTIVITY_LABELS[a.activity] ?? a.activity,
        deaths: a.deaths,
        injuries: a.injuries,
        year_min: a.year_min,
        year_max: a.year_max,
        source: a.source,
      })),
  }));
  return {
    iso3: c.iso3,
    name: c.name,
    region: c.region,
    income_group: c.income_group,
    world_bank_region: c.wb_region,
    income_provenance: deps.register.provenance(c.income_provenance),
    records: { harm_counted: { channels, deaths: channels.reduce((a, ch) => a + (ch.deaths ?? 0), 0) } },
  };
}

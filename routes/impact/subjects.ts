/**
 * GET /material/{slug}, /conflict/{slug}, /country/{iso3}, /channel/{code}: register facts of the
 * subject (impact_materials and production; impact_conflicts, periods, shares and ledger;
 * impact_countries and impact_harm_counted; impact_channels) and, when published, its reach
 * (impact_reach: the harm attributed through it per year, and the products it reaches).
 */
import { notFound } from '../../lib/http/errors.ts';
import { FigureCheckError, scaleRow, type Figure } from '../../lib/impact/check-figure.ts';
import { materialPerKg, productBasisCap } from './headlines.ts';
import { IMPACT_BASE, productRef } from './links.ts';
import { conflictFacts, countryFacts, materialFacts } from './subject-facts.ts';
import {
  channelParams,
  conflictParams,
  countryParams,
  DEFAULT_SCENARIO,
  materialParams,
  scenarioQuery,
} from './schemas.ts';
import type { FigureSession, ImpactDeps, RouteDef } from './serve.ts';

type SubjectType = 'material' | 'conflict' | 'country' | 'channel';

/** How reach lists its products (issue 14): in one unit for all, so that the order means something. */
export const REACH_ORDER =
  'Rank 0 is the total per year. Ranks 1… are products ordered by the harm attributed through this subject per kg of product (figure, unit "… per kg"), largest first; per_unit gives the same part per unit of the product. Products with no unit mass come last, by name, with figure null.';

/** The reach of a subject, both metrics, each figure checked; shares only between figures with a central value. */
export function reach(f: FigureSession, deps: ImpactDeps, type: SubjectType, key: string) {
  const rows = deps.figures.reach(f.run.id, type, key);
  if (type === 'material') f.use(`material:${key}`);
  else f.use('material:', f.run, true); // a conflict, country or channel reaches products through every material
  const products = new Map(deps.catalogue.products({ tier: null, category: null }).map((p) => [p.slug, p]));
  const items = rows.map((r) => {
    if (r.rank === 0 || r.product === null) {
      const figure = f.figure(r, `reach ${type} ${key} ${r.metric} total`, `${r.metric} per year`, f.runCap());
      return {
        order: Infinity,
        item: {
          metric: r.metric,
          rank: r.rank,
          product: null,
          figure,
          per_unit: null,
          share: figure.central !== null && r.counted ? figure.central / r.counted : null,
          counted: r.counted,
        },
      };
    }
    const p = products.get(r.product);
    if (!p)
      throw new FigureCheckError(
        `reach ${type} ${key} #${r.rank}`,
        `names product ${r.product}, which the register does not have`,
      );
    // Through a material, a product's part is the material's own figure; through a conflict, country or
    // channel it may include arms manufacture (S-ARMS), whose source only the product's record names.
    if (type !== 'material') f.use(`product:${p.slug}`);
    const unit = `${r.metric} per ${p.unit_label}`;
    const cap = f.partCap(p.slug, r.metric, 'material');
    const perUnit = f.figure(r, `reach ${type} ${key} ${r.metric} #${r.rank} ${p.slug}`, unit, cap);
    // Per kg: the same row scaled by the product's mass; the spread (so the grade) is unchanged.
    const kg = p.unit_mass_g === null ? null : p.unit_mass_g / 1000;
    const figure =
      kg === null
        ? null
        : f.figure(
            scaleRow(r, 1 / kg),
            `reach ${type} ${key} ${r.metric} #${r.rank} ${p.slug} per kg`,
            `${r.metric} per kg`,
            cap,
          );
    const head = deps.figures.figure(f.run.id, 'product', p.slug, r.metric, 'per_unit');
    // The product's headline is checked (not counted: it is not in the response) before a share of it is given.
    const headline: Figure | null = head
      ? f.figure(
          head,
          `product ${p.slug} ${r.metric} per_unit`,
          unit,
          productBasisCap(f, p.slug, 'per_unit'),
          f.run,
          false,
        )
      : null;
    const share =
      headline && perUnit.central !== null && headline.central !== null && headline.central > 0
        ? perUnit.central / headline.central
        : null;
    return {
      order: kg === null ? -Infinity : r.mean / kg,
      item: { metric: r.metric, rank: r.rank, product: productRef(p), figure, per_unit: perUnit, share, counted: null },
    };
  });
  // Per metric: the total first, then products by per-kg mean, largest first (a run written before the
  // engine ranked per kg is served in this order too), ranks renumbered.
  const out: Array<(typeof items)[number]['item']> = [];
  for (const metric of [...new Set(items.map((x) => x.item.metric))]) {
    const mine = items
      .filter((x) => x.item.metric === metric)
      .sort((a, b) => b.order - a.order || (a.item.product?.slug ?? '').localeCompare(b.item.product?.slug ?? ''));
    mine.forEach((x, i) => out.push({ ...x.item, rank: x.item.product === null ? 0 : i }));
  }
  return out;
}

export const materialRoute: RouteDef<typeof scenarioQuery, typeof materialParams> = {
  path: '/material/:slug',
  operationId: 'getMaterial',
  summary: 'One material',
  description:
    'Register facts of a material (flags, criticality, conflict-mineral status, where it is used, its latest production by country) and, when published, its deaths and injuries per kg and its reach.',
  response: 'MaterialResponse',
  query: scenarioQuery,
  params: materialParams,
  defaults: { scenario: DEFAULT_SCENARIO },
  build({ query, params }, deps) {
    const m = deps.catalogue.material(params.slug);
    if (!m) throw notFound(`No material '${params.slug}'. Find one with ${IMPACT_BASE}/search?q=….`);
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: materialFacts(deps, m),
      figures: (f) => ({
        results: {
          reach: reach(f, deps, 'material', m.slug),
          reach_order: REACH_ORDER,
          deaths_per_tonne: null,
          per_kg: materialPerKg(f, deps, m.slug),
        },
      }),
    };
  },
};

export const conflictRoute: RouteDef<typeof scenarioQuery, typeof conflictParams> = {
  path: '/conflict/:slug',
  operationId: 'getConflict',
  summary: 'One conflict',
  description:
    'Register facts of a conflict (UCDP identifier where verified, type, region, years, its attribution periods and sector shares in the scenario, its death ledger) and, when published, its reach.',
  response: 'ConflictResponse',
  query: scenarioQuery,
  params: conflictParams,
  defaults: { scenario: DEFAULT_SCENARIO },
  build({ query, params }, deps) {
    const k = deps.register.conflict(params.slug);
    if (!k) throw notFound(`No conflict '${params.slug}'. Find one with ${IMPACT_BASE}/search?q=….`);
    const scenario = query.scenario ?? DEFAULT_SCENARIO;
    return {
      scenario,
      data: conflictFacts(deps, k, scenario),
      figures: (f) => ({ results: { reach: reach(f, deps, 'conflict', k.slug), reach_order: REACH_ORDER } }),
    };
  },
};

export const countryRoute: RouteDef<typeof scenarioQuery, typeof countryParams> = {
  path: '/country/:iso3',
  operationId: 'getCountry',
  summary: 'One country',
  description:
    'A country (ISO 3166-1 alpha-3, either case), its UN M49 region and World Bank income group, the harm counted in it per channel, and, when published, its reach.',
  response: 'CountryResponse',
  query: scenarioQuery,
  params: countryParams,
  defaults: { scenario: DEFAULT_SCENARIO },
  normalize: (input) => ({ ...input, params: { iso3: input.params.iso3.toUpperCase() } }),
  build({ query, params }, deps) {
    const c = deps.register.country(params.iso3);
    if (!c) throw notFound(`No country '${params.iso3}' in ISO 3166-1 alpha-3.`);
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: countryFacts(deps, c),
      figures: (f) => ({ results: { reach: reach(f, deps, 'country', c.iso3), reach_order: REACH_ORDER } }),
    };
  },
};

export const channelRoute: RouteDef<typeof scenarioQuery, typeof channelParams> = {
  path: '/channel/:code',
  operationId: 'getChannel',
  summary: 'One harm channel',
  description:
    'A harm channel (C1 conflict, C2 work, C3 deprivation, C4 exposure): what it counts, whether it needs a population attributable fraction, what it excludes, its attribution rule, the harm counted through it, and, when published, its reach.',
  response: 'ChannelResponse',
  query: scenarioQuery,
  params: channelParams,
  defaults: { scenario: DEFAULT_SCENARIO },
  normalize: (input) => ({ ...input, params: { code: input.params.code.toUpperCase() } }),
  build({ query, params }, deps) {
    const c = deps.register.channel(params.code);
    if (!c)
      throw notFound(
        `No harm channel '${params.code}'. The channels are C1 conflict, C2 work, C3 deprivation and C4 exposure.`,
      );
    const r = deps.register.channelRecords(c.code);
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: {
        code: c.code,
        name: c.name,
        description: c.description,
        requires_paf: c.requires_paf === 1,
        exclusion_rule: c.exclusion_rule,
        attribution: c.attribution === null ? null : (JSON.parse(c.attribution) as Record<string, unknown>),
        records:
          r.rows === 0
            ? null
            : {
                events: r.events,
                deaths: r.deaths,
                countries: r.countries,
                year_min: r.year_min!,
                year_max: r.year_max!,
              },
      },
      figures: (f) => ({ results: { reach: reach(f, deps, 'channel', c.code), reach_order: REACH_ORDER } }),
    };
  },
};

/**
 * GET /materials, /conflicts, /countries, /categories: what a researcher would otherwise have to guess
 * (issue 14). Register facts in one stable order, enveloped like every response; when the scenario has
 * a published run, `results` carries each entry's headline figures (a material's deaths and injuries per
 * kg; a conflict's or country's deaths per year attributed through it, its reach total), each checked.
 * /countries lists only the countries the register has data for (harm counted or production).
 */
import type { Figure } from '../../lib/impact/check-figure.ts';
import { materialPerKg } from './headlines.ts';
import { links } from './links.ts';
import { DEFAULT_SCENARIO, noQuery, scenarioQuery } from './schemas.ts';
import type { FigureSession, ImpactDeps, RouteDef } from './serve.ts';

/** A subject's total attributed per year (its reach, rank 0), for one metric; null when the run has none. */
function perYear(
  f: FigureSession,
  deps: ImpactDeps,
  type: 'conflict' | 'country',
  key: string,
  metric: string,
): Figure | null {
  const row = deps.figures.reach(f.run.id, type, key).find((r) => r.rank === 0 && r.metric === metric);
  return row ? f.figure(row, `reach ${type} ${key} ${metric} total`, `${metric} per year`, f.runCap()) : null;
}

/** When published: the deaths per year attributed through each listed conflict or country. */
const deathsPerYear = (deps: ImpactDeps, type: 'conflict' | 'country', keys: string[]) => (f: FigureSession) => {
  f.use('material:', f.run, true);
  return {
    results: {
      metric: 'deaths',
      figures: Object.fromEntries(keys.map((key) => [key, perYear(f, deps, type, key, 'deaths')])),
    },
  };
};

export const materialsRoute: RouteDef<typeof scenarioQuery, typeof noQuery> = {
  path: '/materials',
  operationId: 'listMaterials',
  summary: 'Every material',
  description:
    "Every material of the register (slug, name, category, unit, criticality, conflict-mineral flag), by slug; when published, each one's deaths and injuries per kg.",
  response: 'MaterialListResponse',
  query: scenarioQuery,
  defaults: { scenario: DEFAULT_SCENARIO },
  build({ query }, deps) {
    const rows = deps.lists.materials();
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: {
        count: rows.length,
        materials: rows.map((m) => ({
          slug: m.slug,
          name: m.name,
          category: m.category,
          unit: m.unit,
          criticality: m.criticality_level,
          conflict_mineral: m.conflict_mineral === 1,
          links: links.material(m.slug),
        })),
        records: null,
      },
      figures: (f) => {
        f.use('material:', f.run, true);
        const figures: Record<string, { deaths_per_kg: Figure | null; injuries_per_kg: Figure | null }> = {};
        for (const m of rows) {
          const x = materialPerKg(f, deps, m.slug);
          figures[m.slug] = { deaths_per_kg: x.deaths, injuries_per_kg: x.injuries };
        }
        return { results: { figures } };
      },
    };
  },
};

export const conflictsRoute: RouteDef<typeof scenarioQuery, typeof noQuery> = {
  path: '/conflicts',
  operationId: 'listConflicts',
  summary: 'Every conflict',
  description:
    "Every conflict of the register (slug, name, UCDP identifier where verified, type, region, years), by slug; when published, the deaths per year attributed through each to the register's materials.",
  response: 'ConflictListResponse',
  query: scenarioQuery,
  defaults: { scenario: DEFAULT_SCENARIO },
  build({ query }, deps) {
    const rows = deps.lists.conflicts();
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: {
        count: rows.length,
        conflicts: rows.map((k) => ({
          slug: k.slug,
          name: k.name,
          ucdp_conflict_id: k.ucdp_conflict_id,
          type: k.type,
          region: k.region,
          years: { from: k.year_from, to: k.year_to },
          links: links.conflict(k.slug),
        })),
        records: null,
      },
      figures: deathsPerYear(
        deps,
        'conflict',
        rows.map((k) => k.slug),
      ),
    };
  },
};

export const countriesRoute: RouteDef<typeof scenarioQuery, typeof noQuery> = {
  path: '/countries',
  operationId: 'listCountries',
  summary: 'Countries with data',
  description:
    'The countries the register holds data for (harm counted in them, or production of a material), by ISO alpha-3 code, each with its ISO short name, region, income group, what data it has and the deaths counted; when published, the deaths per year attributed through each.',
  response: 'CountryListResponse',
  query: scenarioQuery,
  defaults: { scenario: DEFAULT_SCENARIO },
  build({ query }, deps) {
    const rows = deps.lists.countries();
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: {
        count: rows.length,
        countries: rows.map((c) => ({
          iso3: c.iso3,
          name: c.name,
          region: c.region,
          income_group: c.income_group,
          data: { harm_counted: c.harm_counted === 1, production: c.production === 1 },
          deaths_counted: c.deaths_counted,
          links: links.country(c.iso3),
        })),
        records: null,
      },
      figures: deathsPerYear(
        deps,
        'country',
        rows.map((c) => c.iso3),
      ),
    };
  },
};

export const categoriesRoute: RouteDef<typeof noQuery, typeof noQuery> = {
  path: '/categories',
  operationId: 'listCategories',
  summary: 'Product categories',
  description:
    'Every product category (code, name, how many products it has), by code; links.products lists its products.',
  response: 'CategoryListResponse',
  query: noQuery,
  build(_input, deps) {
    const rows = deps.lists.categories();
    return {
      scenario: DEFAULT_SCENARIO,
      data: {
        count: rows.length,
        categories: rows.map((c) => ({
          code: c.code,
          name: c.name,
          products: c.products,
          links: { products: `${links.products()}?category=${encodeURIComponent(c.code)}` },
        })),
        records: null,
      },
    };
  },
};

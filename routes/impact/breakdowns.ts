/**
 * GET /product/{slug}/contributions and GET /product/{slug}/explain: a product's headline broken down
 * (impact_contributions), on the material route (per unit) or the input-output route (per 1,000 EUR).
 * Before any part is served, the parts of each breakdown or stage are summed and compared with the
 * headline (on the means of the draws, as gate sums_to_headline did); a mismatch is a 500, not a number.
 */
import type { ContributionRow } from '../../db/impact/queries/figures.ts';
import { badRequest, notFound } from '../../lib/http/errors.ts';
import { checkSum, shareOf, type Figure } from '../../lib/impact/check-figure.ts';
import { productFigure, unitOf, type Basis } from './headlines.ts';
import { IMPACT_BASE, links } from './links.ts';
import { contributionsQuery, DEFAULT_SCENARIO, explainQuery, productParams } from './schemas.ts';
import type { FigureSession, ImpactDeps, RouteDef } from './serve.ts';

type Route = 'material' | 'mrio';
const BASIS: Record<Route, Basis> = { material: 'per_unit', mrio: 'per_1000_eur' };
/** The provenance breakdowns (methodology v2 §2): by the weakest input, and by each kind of input. */
const PROVENANCE = ['basis', 'basis_counts', 'basis_attribution', 'basis_materials', 'basis_bom'];
const DIMENSIONS: Record<Route, string[]> = {
  material: ['material', 'country', 'conflict', 'channel', 'sector', ...PROVENANCE],
  mrio: ['country', 'channel', 'sector', 'basis'],
};
/** Explain stages, in order (methodology v1 §4, §5): lines → materials → countries → channels; layers of suppliers. */
const STAGES: Record<Route, string[]> = { material: ['line', 'material', 'country', 'channel'], mrio: ['layer'] };

function product(deps: ImpactDeps, slug: string) {
  const p = deps.catalogue.product(slug);
  if (!p) throw notFound(`No product '${slug}'. Find one with ${IMPACT_BASE}/search?q=… or ${IMPACT_BASE}/products.`);
  return p;
}

/** The headline of a route and its parts by dimension, each dimension checked to sum to the headline. */
function breakdown(
  f: FigureSession,
  deps: ImpactDeps,
  p: { slug: string; unit_label: string },
  metric: string,
  route: Route,
  dimensions: string[],
) {
  const basis = BASIS[route];
  const headline = productFigure(f, deps, p, metric, basis);
  if (!headline) return null;
  const headRow = deps.figures.figure(f.run.id, 'product', p.slug, metric, basis)!;
  const rows = deps.figures.contributions(f.run.id, p.slug, metric, route);
  const cap = f.partCap(p.slug, metric, route as 'material' | 'mrio');
  const unit = unitOf(metric, basis, p.unit_label);
  const parts: Record<string, ReturnType<typeof contribution>[]> = {};
  // A run from before provenance was computed has parts by country (its paths) but none by basis.
  const traced = rows.some((r) => r.dimension === 'basis') || !rows.some((r) => r.dimension === 'country');
  for (const dim of dimensions) {
    if (!traced && PROVENANCE.includes(dim)) continue;
    const of = rows.filter((r) => r.dimension === dim);
    checkSum(`product ${p.slug} ${metric} ${route} by ${dim}`, headRow, of);
    parts[dim] = of.map((r) =>
      contribution(f, r, headline, `product ${p.slug} ${metric} ${route} ${dim}=${r.key}`, unit, cap),
    );
  }
  return { headline, steps: parts };
}

function contribution(
  f: FigureSession,
  r: ContributionRow,
  headline: Figure,
  what: string,
  unit: string,
  cap: ReturnType<FigureSession['runCap']>,
) {
  const figure = f.figure(r, what, unit, cap);
  return { key: r.key, label: r.label, seq: r.seq, share: shareOf(figure, headline), figure };
}

export const contributionsRoute: RouteDef<typeof contributionsQuery, typeof productParams> = {
  path: '/product/:slug/contributions',
  operationId: 'getContributions',
  summary: "Breakdowns of a product's headline",
  description:
    'The headline (per unit on the material route, per 1,000 EUR on the mrio route) and its breakdowns by material, country, conflict, channel and sector (mrio: country = input-output region, channel, sector), and by what it rests on: basis (each path at its weakest input: published, derived, assumption, illustrative) and basis_counts, basis_attribution, basis_materials, basis_bom (by the basis of one kind of input). Each breakdown sums to the headline.',
  response: 'ContributionsResponse',
  query: contributionsQuery,
  params: productParams,
  defaults: { scenario: DEFAULT_SCENARIO, metric: 'deaths', method: 'material' },
  build({ query, params }, deps) {
    const p = product(deps, params.slug);
    const metric = query.metric ?? 'deaths';
    const method: Route = query.method ?? 'material';
    if (query.type !== undefined && !DIMENSIONS[method].includes(query.type)) {
      throw badRequest(
        `Invalid query parameter 'type': method ${method} breaks down by ${DIMENSIONS[method].join(', ')}; '${query.type}' is a breakdown of method material only.`,
        'type',
      );
    }
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: { slug: p.slug, name: p.name, links: links.product(p.slug), metric, method, records: null },
      figures: (f) => {
        const b = breakdown(f, deps, p, metric, method, query.type ? [query.type] : DIMENSIONS[method]);
        return { results: { headline: b?.headline ?? null, breakdowns: b?.steps ?? {} } };
      },
    };
  },
};

export const CHECK_TEXT =
  "Every stage of a route lists the same headline split another way, so its parts add up to the headline: this was checked on the means of the draws (within 1e-9 relative) when the run was validated (gate sums_to_headline) and again before this response was served. Where the headline and every part have a central value, the centrals add up to the headline's; a part or headline graded INDICATIVE has no central value, and no share.";

export const explainRoute: RouteDef<typeof explainQuery, typeof productParams> = {
  path: '/product/:slug/explain',
  operationId: 'explainProduct',
  summary: "How a product's headline is built",
  description:
    'For each route, the headline and its stages: material route by bill-of-materials line, material, country and channel; input-output route by layer of suppliers (last stage, first tier, second tier, further tiers). Each stage sums to the headline. Also the raw-material quantities of one unit.',
  response: 'ExplainResponse',
  query: explainQuery,
  params: productParams,
  defaults: { scenario: DEFAULT_SCENARIO, metric: 'deaths' },
  build({ query, params }, deps) {
    const p = product(deps, params.slug);
    const metric = query.metric ?? 'deaths';
    return {
      scenario: query.scenario ?? DEFAULT_SCENARIO,
      data: { slug: p.slug, name: p.name, links: links.product(p.slug), metric, records: null },
      figures: (f) => ({
        results: {
          routes: {
            material: breakdown(f, deps, p, metric, 'material', STAGES.material),
            mrio: breakdown(f, deps, p, metric, 'mrio', STAGES.mrio),
          },
          quantities: deps.figures
            .quantities(f.run.id, p.slug)
            .map((q) => ({ material: { key: q.material, name: q.name }, qty: q.qty, unit: q.unit })),
          check: CHECK_TEXT,
        },
      }),
    };
  },
};

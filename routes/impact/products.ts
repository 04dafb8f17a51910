/**
 * GET /products and GET /product/{slug}. Register facts from the catalogue tables (impact_products,
 * impact_bom_lines, impact_product_raw_inputs, impact_sectors, impact_mrio_regions); figures from the
 * scenario's run: impact_figures (headlines, and each scenario's deaths per unit), impact_nearest, and
 * impact_run_products for each figure's grade cap.
 */
import type { ProductRow } from '../../db/impact/queries/catalogue.ts';
import { notFound } from '../../lib/http/errors.ts';
import { bomBasisOf, type BomBasis, type BomBasisCount } from '../../lib/impact/bom-basis.ts';
import { industriesOf, traceOf } from '../../lib/impact/present-product.ts';
import { servedLink } from '../../lib/impact/served-links.ts';
import { productFigure, productMetrics } from './headlines.ts';
import { IMPACT_BASE, links, productRef, usedInItem } from './links.ts';
import { DEFAULT_SCENARIO, noQuery, productParams, productsQuery, scenarioQuery } from './schemas.ts';
import type { FigureSession, RouteDef } from './serve.ts';
import type { Figure } from '../../lib/impact/check-figure.ts';

const CONFIDENCE_RANK: Record<string, number> = { high: 0, medium: 1, low: 2 };
const byName = (a: ProductRow, b: ProductRow) => a.name.localeCompare(b.name, 'en') || (a.slug < b.slug ? -1 : 1);

/** Each product's bill-of-materials basis, from the catalogue's counts by basis and source. */
function bomBases(counts: readonly BomBasisCount[]): (slug: string) => BomBasis {
  const by = new Map<string, BomBasisCount[]>();
  for (const c of counts) (by.get(c.product) ?? by.set(c.product, []).get(c.product)!).push(c);
  return (slug) => bomBasisOf(by.get(slug) ?? []);
}

export function listItem(p: ProductRow, bomBasis: BomBasis) {
  return {
    slug: p.slug,
    name: p.name,
    links: links.product(p.slug),
    tier: p.tier,
    category: { code: p.category, name: p.category_name },
    unit: p.unit,
    unit_label: p.unit_label,
    unit_mass_g: p.unit_mass_g,
    complete: p.complete === 1,
    bom_lines: p.bom_lines,
    bom_confidence: p.bom_confidence,
    bom_basis: bomBasis,
    is_arms: p.is_arms === 1,
  };
}

export const productListRoute: RouteDef<typeof productsQuery, typeof noQuery> = {
  path: '/products',
  operationId: 'listProducts',
  summary: 'The product catalogue',
  description:
    'Every product (filtered by tier or category), with deaths per unit and per kg on the material route when the scenario has a published run.',
  response: 'ProductListResponse',
  query: productsQuery,
  defaults: { scenario: DEFAULT_SCENARIO, sort: 'name' },
  build({ query }, deps, state) {
    const scenario = query.scenario ?? DEFAULT_SCENARIO;
    if (query.category !== undefined && !deps.catalogue.category(query.category)) {
      throw notFound(
        `No product category '${query.category}'. Categories are listed in each product's category.code on /products.`,
      );
    }
    const rows = deps.catalogue.products({ tier: query.tier ?? null, category: query.category ?? null });
    const runId = state.current.get(scenario);
    // Sorting by toll while withheld would leak the figures' order: fall back to name, and say so in `sort`.
    const sort = query.sort === 'toll' && runId === undefined ? 'name' : (query.sort ?? 'name');
    let ordered = [...rows].sort(byName);
    if (sort === 'confidence')
      ordered.sort(
        (a, b) =>
          (CONFIDENCE_RANK[a.bom_confidence ?? ''] ?? 3) - (CONFIDENCE_RANK[b.bom_confidence ?? ''] ?? 3) ||
          byName(a, b),
      );
    if (sort === 'complete') ordered.sort((a, b) => b.complete - a.complete || byName(a, b));
    if (sort === 'toll') {
      const perKg = new Map(
        deps.figures
          .productFigures(runId!, 'deaths')
          .filter((r) => r.basis === 'per_kg')
          .map((r) => [r.subject_key, r.mean]),
      );
      ordered = ordered.sort((a, b) => (perKg.get(b.slug) ?? -1) - (perKg.get(a.slug) ?? -1) || byName(a, b));
    }
    const basisOf = bomBases(deps.catalogue.bomBasis());
    return {
      scenario,
      data: {
        sort,
        count: ordered.length,
        products: ordered.map((p) => listItem(p, basisOf(p.slug))),
        records: null,
      },
      figures: (f: FigureSession) => {
        const figures: Record<string, { per_unit: Figure | null; per_kg: Figure | null }> = {};
        for (const p of ordered) {
          figures[p.slug] = {
            per_unit: productFigure(f, deps, p, 'deaths', 'per_unit'),
            per_kg: productFigure(f, deps, p, 'deaths', 'per_kg'),
          };
        }
        return { results: { metric: 'deaths', route: 'material', figures } };
      },
    };
  },
};

export const productRoute: RouteDef<typeof scenarioQuery, typeof productParams> = {
  path: '/product/:slug',
  operationId: 'getProduct',
  summary: 'One product',
  description:
    'Register facts of a product (bill of materials, raw inputs, trace, industries, where it is used) and, when the scenario has a published run, its headline figures (metrics), its deaths per unit in every scenario with a published run, and the products nearest to it by deaths per kg.',
  response: 'ProductResponse',
  query: scenarioQuery,
  params: productParams,
  defaults: { scenario: DEFAULT_SCENARIO },
  build({ query, params }, deps) {
    const scenario = query.scenario ?? DEFAULT_SCENARIO;
    const p = deps.catalogue.product(params.slug);
    if (!p)
      throw notFound(
        `No product '${params.slug}'. Find one with ${IMPACT_BASE}/search?q=… or ${IMPACT_BASE}/products.`,
      );
    const raw = deps.catalogue.rawInputs(p.slug);
    const materials = raw
      .filter((r) => r.type === 'material' && r.key !== null && r.sector !== null)
      .map((r) => ({ key: r.key!, sector: r.sector! }));
    const data = {
      ...listItem(p, bomBases(deps.catalogue.bomBasis())(p.slug)),
      archetype: p.archetype,
      status: p.status,
      bill_of_materials: deps.catalogue.bom(p.slug).map((l) => ({
        line: l.line,
        role: l.role,
        component: { type: l.component_type, key: l.component_key, name: l.component_name },
        qty: l.qty,
        unit: l.unit,
        loss_factor: l.loss_factor,
        qty_range: l.qty_low !== null && l.qty_high !== null ? { low: l.qty_low, high: l.qty_high } : null,
        source: { text: l.source_text, url: servedLink(l.source_url, IMPACT_BASE) },
        confidence: l.confidence,
        note: l.note,
        provenance: deps.register.provenance(l.provenance),
        citations: l.citations === null ? [] : (JSON.parse(l.citations) as unknown[]),
      })),
      raw_inputs: raw.map((r) => ({ type: r.type, key: r.key, name: r.name, qty: r.qty, unit: r.unit })),
      trace: traceOf(p.slug, deps.catalogue.bomByProduct()),
      industries: industriesOf(p, deps.catalogue.sectors(), deps.catalogue.regions(), materials),
      used_in: deps.catalogue.usedIn('product', p.slug).map(usedInItem),
      records: null,
    };
    // The document's order of fields: bom_lines is a list-item field only.
    const { bom_lines: _lines, ...product } = data;
    return {
      scenario,
      data: product,
      figures: (f: FigureSession) => {
        const metrics = productMetrics(f, deps, p);
        const scenarios = deps.register.scenarios().map((s) => {
          const run = f.runOf(s.code);
          return {
            code: s.code,
            name: s.name,
            run: run ? run.id : null,
            deaths_per_unit: run ? productFigure(f, deps, p, 'deaths', 'per_unit', run) : null,
          };
        });
        const nearest = deps.figures.nearest(f.run.id, p.slug).map((n) => ({
          product: productRef({ slug: n.other, name: n.name, tier: n.tier, unit: n.unit }),
          deaths_per_kg: productFigure(f, deps, { slug: n.other, unit_label: n.unit }, 'deaths', 'per_kg'),
        }));
        return { results: { scenarios, nearest_by_kg: nearest }, metrics };
      },
    };
  },
};

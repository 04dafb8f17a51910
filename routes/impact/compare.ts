/**
 * GET /compare?a=&b=: two products of one run side by side (impact_figures), and their ratio a / b
 * from their stored draws paired by draw index (impact_draws, through db/impact/read.ts readDraws),
 * per unit, per kg and per 1,000 EUR (lib/impact/present-compare.ts; SPEC "Impact attribution").
 */
import { notFound } from '../../lib/http/errors.ts';
import { FigureCheckError, type Figure } from '../../lib/impact/check-figure.ts';
import { pairedRatio, type RatioStats } from '../../lib/impact/present-compare.ts';
import type { ProductDraws } from '../../db/impact/read.ts';
import { productFigure, type Basis } from './headlines.ts';
import { IMPACT_BASE, productRef } from './links.ts';
import { compareQuery, DEFAULT_SCENARIO, noQuery } from './schemas.ts';
import type { FigureSession, ImpactDeps, RouteDef } from './serve.ts';

type Bases = Record<Basis, Figure | null>;

export type DrawReader = (runId: number, slug: string, metric: 'deaths' | 'injuries') => ProductDraws | null;

function bases(f: FigureSession, deps: ImpactDeps, p: { slug: string; unit_label: string }, metric: string): Bases {
  return {
    per_unit: productFigure(f, deps, p, metric, 'per_unit'),
    per_kg: productFigure(f, deps, p, metric, 'per_kg'),
    per_1000_eur: productFigure(f, deps, p, metric, 'per_1000_eur'),
  };
}

const central = (x: Figure | null) => x?.central ?? null;

export function compareRoute(readDraws: DrawReader): RouteDef<typeof compareQuery, typeof noQuery> {
  return {
    path: '/compare',
    operationId: 'compareProducts',
    summary: 'Two products compared',
    description:
      "Both products' headlines, and the ratio a / b from their Monte Carlo draws paired by draw index: its p05, median and p95, the share of draws in which a exceeds b and the share in which they are equal (a tie), and a verdict that is a_larger or b_larger only when the ratio's p05–p95 interval lies wholly above or below 1.",
    response: 'CompareResponse',
    query: compareQuery,
    defaults: { scenario: DEFAULT_SCENARIO, metric: 'deaths' },
    build({ query }, deps) {
      const find = (slug: string, param: string) => {
        const p = deps.catalogue.product(slug);
        if (!p)
          throw notFound(
            `No product '${slug}' (query parameter '${param}'). Find one with ${IMPACT_BASE}/search?q=… or ${IMPACT_BASE}/products.`,
          );
        return p;
      };
      const a = find(query.a, 'a');
      const b = find(query.b, 'b');
      const metric = query.metric ?? 'deaths';
      return {
        scenario: query.scenario ?? DEFAULT_SCENARIO,
        data: { a: productRef(a), b: productRef(b), metric, records: null },
        figures: (f) => {
          const A = bases(f, deps, a, metric);
          const B = bases(f, deps, b, metric);
          const da = readDraws(f.run.id, a.slug, metric);
          const db = readDraws(f.run.id, b.slug, metric);
          let pair = null;
          if (da && db) {
            for (const [slug, x] of [
              [a.slug, da],
              [b.slug, db],
            ] as const) {
              if (x.perUnit.length !== f.run.draws || x.per1000Eur.length !== f.run.draws) {
                throw new FigureCheckError(
                  `draws of ${slug}`,
                  `${x.perUnit.length} stored, run ${f.run.id} made ${f.run.draws}`,
                );
              }
            }
            const by: Record<string, RatioStats> = {
              per_unit: pairedRatio(da.perUnit, db.perUnit, 1, [central(A.per_unit), central(B.per_unit)]),
            };
            if (da.unitMassG !== null && db.unitMassG !== null) {
              // (a/ma) / (b/mb) = (a/b) × (mb/ma): the same draws, scaled. The centrals are the per-kg
              // figures' own, already divided by the masses: not scaled again.
              by.per_kg = pairedRatio(da.perUnit, db.perUnit, db.unitMassG / da.unitMassG, [
                central(A.per_kg),
                central(B.per_kg),
              ]);
            }
            by.per_1000_eur = pairedRatio(da.per1000Eur, db.per1000Eur, 1, [
              central(A.per_1000_eur),
              central(B.per_1000_eur),
            ]);
            pair = {
              ratio_of: 'a / b',
              by,
              p_a_greater: by.per_unit!.p_a_greater,
              p_a_equal: by.per_unit!.p_a_equal,
              samples: da.perUnit.length,
            };
          }
          return { results: { a: A, b: B, pair } };
        },
      };
    },
  };
}

/**
 * Reading a product's or material's headline figures through a FigureSession, so that each is
 * checked with the right grade cap and named by the right unit, the same way on every endpoint:
 * per unit and per kg come from the material route (capped by what the run knew of the product's bill
 * of materials), per 1,000 EUR from the input-output route (capped by the run's inputs only).
 */
import type { RunRow } from '../../db/impact/queries/state.ts';
import type { Figure } from '../../lib/impact/check-figure.ts';
import type { Grade } from '../../lib/impact/figure.ts';
import type { FigureSession, ImpactDeps } from './serve.ts';

export type Basis = 'per_unit' | 'per_kg' | 'per_1000_eur';
export const BASES: readonly Basis[] = ['per_unit', 'per_kg', 'per_1000_eur'];

export function unitOf(metric: string, basis: Basis, unitLabel: string): string {
  if (basis === 'per_unit') return `${metric} per ${unitLabel}`;
  if (basis === 'per_kg') return `${metric} per kg`;
  return `${metric} per 1,000 EUR`;
}

/** The cap of a product figure of this basis in this run. */
export function productBasisCap(f: FigureSession, slug: string, basis: Basis, run: RunRow = f.run): Grade {
  return basis === 'per_1000_eur' ? f.runCap(run) : f.productCap(slug, run);
}

/** One headline of a product, checked; null when the run has no such row (no unit mass, or not computed). */
export function productFigure(
  f: FigureSession,
  deps: ImpactDeps,
  product: { slug: string; unit_label: string },
  metric: string,
  basis: Basis,
  run: RunRow = f.run,
): Figure | null {
  const row = deps.figures.figure(run.id, 'product', product.slug, metric, basis);
  if (!row) return null;
  f.use(`product:${product.slug}`, run);
  return f.figure(
    row,
    `product ${product.slug} ${metric} ${basis} (run ${run.id})`,
    unitOf(metric, basis, product.unit_label),
    productBasisCap(f, product.slug, basis, run),
    run,
  );
}

/** The six headlines of a product: ProductMetrics. */
export function productMetrics(
  f: FigureSession,
  deps: ImpactDeps,
  product: { slug: string; unit_label: string },
): Record<string, Figure | null> {
  const out: Record<string, Figure | null> = {};
  for (const metric of ['deaths', 'injuries']) {
    for (const basis of BASES) out[`${metric}_${basis}`] = productFigure(f, deps, product, metric, basis);
  }
  return out;
}

/** A material's per-kg figures (the material route). */
export function materialPerKg(
  f: FigureSession,
  deps: ImpactDeps,
  slug: string,
): { deaths: Figure | null; injuries: Figure | null } {
  const one = (metric: string) => {
    const row = deps.figures.figure(f.run.id, 'material', slug, metric, 'per_kg');
    if (!row) return null;
    f.use(`material:${slug}`);
    return f.figure(row, `material ${slug} ${metric} per_kg`, `${metric} per kg`, f.runCap());
  };
  return { deaths: one('deaths'), injuries: one('injuries') };
}

/**
 * Reading helpers for the read API (issue 7), for what is not a plain SELECT: which run a scenario
 * serves, and a product's stored draws decoded (for /compare, which pairs two products' draws by
 * index within one run). Everything else is read straight from the tables of migration 005; see
 * docs/methodology/v1.md ("Where each figure is stored").
 */
import type { Db } from '../connection.ts';
import { bufferToDraws } from '../../lib/impact/rows.ts';
import { statementsFor } from '../statements.ts';

export interface ProductDraws {
  /** per unit, material route */
  perUnit: Float64Array;
  /** per 1,000 EUR, input-output route (the product's column) */
  per1000Eur: Float64Array;
  /** grams per unit, to turn per-unit draws into per-kg draws; null when the product has none */
  unitMassG: number | null;
}

const statements = statementsFor((db) => ({
  product: db.prepare('SELECT unit_mass_g, mrio_column FROM impact_run_products WHERE run_id = ? AND product = ?'),
  draws: db
    .prepare('SELECT draws FROM impact_draws WHERE run_id = ? AND subject_type = ? AND subject_key = ? AND metric = ?')
    .pluck(),
}));

/** A product's draws in a run, or null if the run did not compute it. */
export function readDraws(db: Db, runId: number, product: string, metric: 'deaths' | 'injuries'): ProductDraws | null {
  const p = statements(db).product.get(runId, product) as
    { unit_mass_g: number | null; mrio_column: string } | undefined;
  if (!p) return null;
  const blob = (type: string, key: string) => statements(db).draws.get(runId, type, key, metric) as Buffer | undefined;
  const unit = blob('product', product);
  const eur = blob('mrio_column', p.mrio_column);
  if (!unit || !eur) return null;
  return { perUnit: bufferToDraws(unit), per1000Eur: bufferToDraws(eur), unitMassG: p.unit_mass_g };
}

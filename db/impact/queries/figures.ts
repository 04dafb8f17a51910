/**
 * Rows a run wrote (migration 005), as the read API asks for them: headline figures, breakdowns and
 * explain stages, reach, spend, nearest products, quantities, and the sources each subject used.
 * Nothing here computes: a figure is a row (rule 2). Every row carries its run_id, which the figure
 * check compares with the run being served (lib/impact/check-figure.ts).
 */
import type { Db } from '../../connection.ts';
import type { StatRow } from '../../../lib/impact/check-figure.ts';
import { statementsFor } from '../../statements.ts';

const STATS =
  'run_id, low, median, high, mean, central, grade, prov_published, prov_derived, prov_assumption, prov_illustrative';

export interface FigureRow extends StatRow {
  run_id: number;
  subject_key: string;
  metric: string;
  basis: string;
  route: string;
}
export interface ContributionRow extends StatRow {
  run_id: number;
  dimension: string;
  key: string;
  label: string;
  seq: number;
}
export interface ReachRow extends StatRow {
  run_id: number;
  metric: string;
  rank: number;
  product: string | null;
  counted: number | null;
}
export interface SpendRow extends StatRow {
  run_id: number;
  code: string;
  metric: string;
  reference: number;
  share_of_spend: number | null;
  made_in_consumer: number | null;
}
export interface RunProductRow {
  product: string;
  complete: number;
  bom_confidence: string | null;
  unit_mass_g: number | null;
}

const statements = statementsFor((db) => ({
  subjectFigures: db.prepare(`SELECT ${STATS}, subject_key, metric, basis, route FROM impact_figures
    WHERE run_id = ? AND subject_type = ? AND subject_key = ? ORDER BY metric, basis`),
  productFigures: db.prepare(`SELECT ${STATS}, subject_key, metric, basis, route FROM impact_figures
    WHERE run_id = ? AND subject_type = 'product' AND metric = ? AND basis IN ('per_unit', 'per_kg') ORDER BY subject_key, basis`),
  figure: db.prepare(`SELECT ${STATS}, subject_key, metric, basis, route FROM impact_figures
    WHERE run_id = ? AND subject_type = ? AND subject_key = ? AND metric = ? AND basis = ?`),
  runProduct: db.prepare(
    'SELECT product, complete, bom_confidence, unit_mass_g FROM impact_run_products WHERE run_id = ? AND product = ?',
  ),
  runProducts: db.prepare(
    'SELECT product, complete, bom_confidence, unit_mass_g FROM impact_run_products WHERE run_id = ?',
  ),
  contributions: db.prepare(`SELECT ${STATS}, dimension, key, label, seq FROM impact_contributions
    WHERE run_id = ? AND product = ? AND metric = ? AND route = ? ORDER BY dimension, seq`),
  quantities: db.prepare(
    'SELECT material, name, qty, unit FROM impact_run_quantities WHERE run_id = ? AND product = ? ORDER BY seq',
  ),
  reach: db.prepare(`SELECT ${STATS}, metric, rank, product, counted FROM impact_reach
    WHERE run_id = ? AND subject_type = ? AND subject_key = ? ORDER BY metric, rank`),
  spend: db.prepare(`SELECT ${STATS}, code, metric, reference, share_of_spend, made_in_consumer FROM impact_spend
    WHERE run_id = ? AND consumer = ? ORDER BY reference DESC, code, metric`),
  leftOut: db.prepare(
    'SELECT industries, share_of_spend, why FROM impact_spend_left_out WHERE run_id = ? AND consumer = ?',
  ),
  nearest:
    db.prepare(`SELECT n.other, p.name, p.tier, p.unit FROM impact_nearest n JOIN impact_products p ON p.slug = n.other
    WHERE n.run_id = ? AND n.product = ? ORDER BY n.rank`),
  sources: db
    .prepare(
      `SELECT DISTINCT source FROM impact_run_sources
    WHERE run_id = ? AND subject IN (SELECT value FROM json_each(?)) ORDER BY source`,
    )
    .pluck(),
  sourcesLike: db
    .prepare('SELECT DISTINCT source FROM impact_run_sources WHERE run_id = ? AND subject LIKE ? ORDER BY source')
    .pluck(),
}));

export function figureReads(db: Db) {
  const {
    subjectFigures,
    productFigures,
    figure,
    runProduct,
    runProducts,
    contributions,
    quantities,
    reach,
    spend,
    leftOut,
    nearest,
    sources,
    sourcesLike,
  } = statements(db);

  return {
    /** Headline figures of one product or material, every metric and basis. */
    subjectFigures: (runId: number, type: 'product' | 'material', key: string) =>
      subjectFigures.all(runId, type, key) as FigureRow[],
    /** Per unit and per kg of every product of a run, for one metric: the product list. */
    productFigures: (runId: number, metric: string) => productFigures.all(runId, metric) as FigureRow[],
    figure: (runId: number, type: 'product' | 'material', key: string, metric: string, basis: string) =>
      figure.get(runId, type, key, metric, basis) as FigureRow | undefined,
    /** What the run knew of a product (its grade cap comes from this, not from today's register). */
    runProduct: (runId: number, slug: string) => runProduct.get(runId, slug) as RunProductRow | undefined,
    runProducts: (runId: number) => new Map((runProducts.all(runId) as RunProductRow[]).map((p) => [p.product, p])),
    contributions: (runId: number, slug: string, metric: string, route: string) =>
      contributions.all(runId, slug, metric, route) as ContributionRow[],
    quantities: (runId: number, slug: string) =>
      quantities.all(runId, slug) as Array<{ material: string | null; name: string; qty: number; unit: string }>,
    reach: (runId: number, type: string, key: string) => reach.all(runId, type, key) as ReachRow[],
    spend: (runId: number, consumer: string) => spend.all(runId, consumer) as SpendRow[],
    leftOut(runId: number, consumer: string) {
      const row = leftOut.get(runId, consumer) as
        { industries: string; share_of_spend: number | null; why: string } | undefined;
      return row
        ? { industries: JSON.parse(row.industries) as string[], share_of_spend: row.share_of_spend, why: row.why }
        : null;
    },
    nearest: (runId: number, slug: string) =>
      nearest.all(runId, slug) as Array<{ other: string; name: string; tier: string; unit: string }>,
    /** Source codes the run used for these subjects ('product:<slug>', 'material:<slug>', 'spend', '*'). */
    sources: (runId: number, subjects: readonly string[]) => sources.all(runId, JSON.stringify(subjects)) as string[],
    /** Source codes the run used for every subject starting with a prefix (e.g. 'material:'). */
    sourcesWithPrefix: (runId: number, prefix: string) =>
      sourcesLike.all(runId, `${prefix.replace(/[%_]/g, '')}%`) as string[],
  };
}

export type FigureReads = ReturnType<typeof figureReads>;

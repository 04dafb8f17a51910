/**
 * `impact run`: for each scenario asked, read the register, compute the run (lib/impact/engine.ts),
 * recompute a sample alone, evaluate the seven gates, store everything in one transaction, and
 * publish it when asked and every gate passed. The computation happens outside any transaction (a
 * better-sqlite3 transaction cannot span an await, and a long one would block readers' checkpoints);
 * the clock is injected so that a test controls every timestamp.
 */
import type { Db } from '../connection.ts';
import { computeRun, ENGINE } from '../../lib/impact/engine.ts';
import { QUANTILES_LABEL } from '../../lib/impact/figure.ts';
import {
  gateBom,
  gateCounted,
  gateFigures,
  gateProduction,
  gateReproducible,
  gateSources,
  gateSums,
  sampleProducts,
  type GateResult,
} from '../../lib/impact/gates.ts';
import { rowsDigest } from '../../lib/impact/rows.ts';
import { SCENARIO_CODES, type Uncertainty } from '../../lib/impact/scenario.ts';
import type { Register } from '../../lib/impact/types.ts';
import { inputsSha256, readRegister } from './register.ts';
import { publishRun, storeRun } from './store.ts';

export const DEFAULT_DRAWS = 1000;
export const DEFAULT_SEED = 20260101;

export interface RunRequest {
  scenarios?: string[];
  draws?: number;
  seed?: number;
  publish?: boolean;
  now: () => number;
  onProgress?: (p: { scenario: string; index: number; of: number; done: number; total: number }) => void;
  /** Tests only: a register to use instead of the stored one, and input uncertainties other than v1's. */
  register?: Register;
  uncertainty?: Uncertainty;
}

export interface RunSummary {
  id: number;
  scenario: string;
  status: 'validated' | 'failed';
  published: boolean;
  draws: number;
  seed: number;
  failed_gates: string[];
  rows_sha256: string;
  products: number;
  seconds: number;
}

export function runImpact(db: Db, req: RunRequest): RunSummary[] {
  const reg = req.register ?? readRegister(db);
  const scenarios = req.scenarios?.length ? req.scenarios : reg.scenarios.map((s) => s.code);
  for (const s of scenarios) {
    if (!(SCENARIO_CODES as readonly string[]).includes(s) || !reg.scenarios.some((x) => x.code === s))
      throw new Error(`unknown scenario ${s}: one of ${reg.scenarios.map((x) => x.code).join(', ')}`);
  }
  const draws = req.draws ?? DEFAULT_DRAWS;
  const seed = req.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new Error('seed must be an integer from 0 to 4294967295');
  const engine = `${ENGINE}; node ${process.versions.node}`;
  return scenarios.map((scenario, index) => {
    const started = req.now();
    const result = computeRun(reg, scenario, {
      seed,
      draws,
      uncertainty: req.uncertainty,
      onProgress: (done, total) => req.onProgress?.({ scenario, index, of: scenarios.length, done, total }),
    });
    const sample = sampleProducts(result.checks.bom.order, seed);
    const again = computeRun(reg, scenario, { seed, draws, only: sample, uncertainty: req.uncertainty });
    const gates: GateResult[] = [
      gateBom(result.checks, reg),
      gateProduction(reg),
      gateFigures(result.rows),
      gateSums(result.rows),
      gateCounted(result.checks),
      gateSources(result.checks, reg),
      gateReproducible(result.rows, again.rows, sample, seed),
    ];
    const checkedAt = new Date(req.now()).toISOString();
    const rowsSha = rowsDigest(result.rows);
    const finished = req.now();
    const stored = storeRun(
      db,
      {
        scenario,
        draws,
        seed,
        quantiles: QUANTILES_LABEL,
        methodology_version: reg.methodology.code,
        data_version: reg.data_version,
        inputs_sha256: inputsSha256(reg, scenario),
        rows_sha256: rowsSha,
        engine,
        illustrative: reg.illustrative,
        started_at: new Date(started).toISOString(),
        finished_at: new Date(finished).toISOString(),
        summary: {
          products: result.checks.bom.order.length,
          blocked_products: result.checks.bom.blocked,
          excluded_harm_rows: result.checks.excludedRows,
          sources: result.checks.sourcesUsed,
          rows: Object.fromEntries(Object.entries(result.rows).map(([k, v]) => [k, (v as unknown[]).length])),
          params: result.params,
        },
      },
      result.rows,
      gates.map((g) => ({ ...g, engine, checked_at: checkedAt })),
    );
    const published = req.publish === true && stored.status === 'validated';
    if (published) publishRun(db, stored.id, req.now());
    return {
      id: stored.id,
      scenario,
      status: stored.status,
      published,
      draws,
      seed,
      failed_gates: gates.filter((g) => !g.passed).map((g) => g.gate),
      rows_sha256: rowsSha,
      products: result.checks.bom.order.length,
      seconds: (finished - started) / 1000,
    };
  });
}

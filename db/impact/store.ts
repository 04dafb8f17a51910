/**
 * Writes a computed run and its gates in one transaction, and publishes a run: making it the
 * current one for its scenario is a single UPSERT of impact_current_runs inside an immediate
 * transaction, so a reader sees the old run or the new one, never a mix. Earlier runs stay in the
 * tables, readable by id. A run whose gates did not all pass is refused here, whoever asks.
 */
import type { Db } from '../connection.ts';
import type { GateResult } from '../../lib/impact/gates.ts';
import { drawsToBuffer, TABLE_KEYS, type RunRows } from '../../lib/impact/rows.ts';
import { preparedSql, statementsFor } from '../statements.ts';

const TABLE_NAMES: { [K in keyof RunRows]: string } = {
  products: 'impact_run_products',
  figures: 'impact_figures',
  contributions: 'impact_contributions',
  quantities: 'impact_run_quantities',
  draws: 'impact_draws',
  spend: 'impact_spend',
  spendLeftOut: 'impact_spend_left_out',
  reach: 'impact_reach',
  intensities: 'impact_run_intensities',
  nearest: 'impact_nearest',
  sources: 'impact_run_sources',
};

export interface RunMeta {
  scenario: string;
  draws: number;
  seed: number;
  quantiles: string;
  methodology_version: string;
  data_version: string;
  inputs_sha256: string;
  rows_sha256: string;
  engine: string;
  illustrative: boolean;
  started_at: string;
  finished_at: string;
  summary: Record<string, unknown>;
}

const statements = statementsFor((db) => ({
  insertRun: db.prepare(
    `INSERT INTO impact_runs (scenario, status, draws, seed, quantiles, methodology_version, data_version, inputs_sha256,
      rows_sha256, engine, illustrative, started_at, finished_at, published_at, failed_gates, summary)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
  ),
  insertGate: db.prepare(
    'INSERT INTO impact_run_gates (run_id, gate, ordinal, passed, offenders, explained, detail, engine, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  runById: db.prepare('SELECT scenario, status, published_at FROM impact_runs WHERE id = ?'),
  currentRun: db.prepare('SELECT run_id FROM impact_current_runs WHERE scenario = ?').pluck(),
  setCurrent: db.prepare(
    `INSERT INTO impact_current_runs (scenario, run_id, published_at) VALUES (?, ?, ?)
      ON CONFLICT (scenario) DO UPDATE SET run_id = excluded.run_id, published_at = excluded.published_at`,
  ),
  setPublishedAt: db.prepare('UPDATE impact_runs SET published_at = ? WHERE id = ?'),
}));

export function storeRun(
  db: Db,
  meta: RunMeta,
  rows: RunRows,
  gates: Array<GateResult & { engine: string; checked_at: string }>,
): { id: number; status: 'validated' | 'failed' } {
  const failed = gates.filter((g) => !g.passed).map((g) => g.gate);
  const status = failed.length === 0 ? 'validated' : 'failed';
  const id = db
    .transaction(() => {
      const info = statements(db).insertRun.run(
        meta.scenario,
        status,
        meta.draws,
        meta.seed,
        meta.quantiles,
        meta.methodology_version,
        meta.data_version,
        meta.inputs_sha256,
        meta.rows_sha256,
        meta.engine,
        meta.illustrative ? 1 : 0,
        meta.started_at,
        meta.finished_at,
        failed.length ? failed.join(',') : null,
        JSON.stringify(meta.summary),
      );
      const runId = Number(info.lastInsertRowid);
      const gate = statements(db).insertGate;
      gates.forEach((g, i) =>
        gate.run(runId, g.gate, i + 1, g.passed ? 1 : 0, g.offenders, g.explained, g.detail, g.engine, g.checked_at),
      );
      for (const table of Object.keys(TABLE_NAMES) as Array<keyof RunRows>) {
        const keys = TABLE_KEYS[table];
        const stmt = preparedSql(
          db,
          `INSERT INTO ${TABLE_NAMES[table]} (run_id, ${keys.join(', ')}) VALUES (?, ${keys.map(() => '?').join(', ')})`,
        );
        for (const row of rows[table] as unknown as Array<Record<string, unknown>>) {
          stmt.run(
            runId,
            ...keys.map((k) => {
              const v = row[k];
              if (v instanceof Float64Array) return drawsToBuffer(v);
              if (Array.isArray(v)) return JSON.stringify(v);
              return v;
            }),
          );
        }
      }
      return runId;
    })
    .immediate();
  return { id, status };
}

export class PublishError extends Error {}

/** Makes run `id` the current one for its scenario. Only a validated run can be published. */
export function publishRun(db: Db, id: number, now: number): { scenario: string; previous: number | null } {
  return db
    .transaction(() => {
      const run = statements(db).runById.get(id) as
        { scenario: string; status: string; published_at: string | null } | undefined;
      if (!run) throw new PublishError(`no run ${id}`);
      if (run.status !== 'validated') throw new PublishError(`run ${id} failed its gates and cannot be published`);
      const at = new Date(now).toISOString();
      const previous = statements(db).currentRun.get(run.scenario) as number | undefined;
      statements(db).setCurrent.run(run.scenario, id, at);
      if (run.published_at === null) statements(db).setPublishedAt.run(at, id);
      return { scenario: run.scenario, previous: previous ?? null };
    })
    .immediate();
}

/**
 * What the impact read API serves right now, read in one statement per request: the current run of
 * each scenario and the register's version. Every response is a function of this state and the
 * request, because a run's rows never change once stored and the register is only ever replaced as a
 * whole (its fixtures_sha256 changes with it). So the state's `key` is what the response cache
 * (routes/impact/cache.ts) keys on: publishing a run or reloading the register changes it at once.
 *
 * Runs are read by id and kept once published (their row no longer changes; migration 005).
 *
 * The state is re-read at most every STATE_TTL_MS (real time, not the injected clock: this is cache
 * freshness, not a business rule). Reading it was half of a cached response's cost in the router (a
 * read transaction on the WAL per request); the price is that a run published by another process is
 * served up to half a second later, well inside the 5 minutes Cache-Control already allows. A closed
 * connection is noticed at once (the 503 does not wait).
 */
import { performance } from 'node:perf_hooks';
import type { Db } from '../../connection.ts';
import type { RunFacts } from '../../../lib/impact/envelope.ts';
import { statementsFor } from '../../statements.ts';

export interface ServingState {
  /** Identifies everything a response depends on besides the request. */
  key: string;
  /** Current run id of each scenario that has one. */
  current: ReadonlyMap<string, number>;
  registerLoaded: boolean;
  dataVersion: string | null;
  illustrative: boolean;
  /** Which register is loaded ('published' or 'demo'; null before migration 013 or any load) and its hash. */
  register: string | null;
  registerHash: string | null;
}

export interface RunRow extends RunFacts {
  failed_gates: string | null;
}

export interface GateRow {
  gate: string;
  passed: number;
  offenders: number;
  explained: number;
  detail: string;
  engine: string;
  checked_at: string | null;
}

export const STATE_TTL_MS = 500;

const RUN_COLUMNS = `id, scenario, status, draws, seed, quantiles, methodology_version, data_version, inputs_sha256, rows_sha256,
  engine, illustrative, started_at, finished_at, published_at, failed_gates`;

const statements = statementsFor((db) => ({
  stateStmt: db
    .prepare(
      `SELECT
      (SELECT group_concat(scenario || ':' || run_id, ',') FROM (SELECT scenario, run_id FROM impact_current_runs ORDER BY scenario)),
      (SELECT value FROM impact_register_meta WHERE key = 'fixtures_sha256'),
      (SELECT value FROM impact_register_meta WHERE key = 'data_version'),
      (SELECT value FROM impact_register_meta WHERE key = 'illustrative'),
      (SELECT value FROM impact_register_meta WHERE key = 'register')`,
    )
    .raw(),
  runStmt: db.prepare(`SELECT ${RUN_COLUMNS} FROM impact_runs WHERE id = ?`),
  publishedStmt:
    db.prepare(`SELECT ${RUN_COLUMNS}, (SELECT 1 FROM impact_current_runs c WHERE c.run_id = r.id) AS current
    FROM impact_runs r WHERE published_at IS NOT NULL ORDER BY id DESC`),
  gatesStmt: db.prepare(
    'SELECT gate, passed, offenders, explained, detail, engine, checked_at FROM impact_run_gates WHERE run_id = ? ORDER BY ordinal',
  ),
  methodologyStmt: db
    .prepare(
      `SELECT coalesce((SELECT value FROM impact_register_meta WHERE key = 'methodology_version'),
      (SELECT code FROM impact_methodology_versions ORDER BY code DESC LIMIT 1))`,
    )
    .pluck(),
}));

export function servingReads(db: Db) {
  const { stateStmt, runStmt, publishedStmt, gatesStmt, methodologyStmt } = statements(db);
  const published = new Map<number, RunRow>();
  let last: { raw: string; state: ServingState; at: number } | undefined;

  return {
    state(): ServingState {
      if (!db.open) throw new TypeError('The database connection is not open');
      const now = performance.now();
      if (last && now - last.at < STATE_TTL_MS) return last.state;
      const [runs, fixtures, dataVersion, illustrative, register] = stateStmt.get() as [
        string | null,
        string | null,
        string | null,
        string | null,
        string | null,
      ];
      const raw = `${runs ?? ''}|${fixtures ?? ''}|${dataVersion ?? ''}|${illustrative ?? ''}`;
      if (last?.raw === raw) {
        last.at = now;
        return last.state;
      }
      const current = new Map<string, number>();
      for (const pair of (runs ?? '').split(',').filter(Boolean)) {
        const at = pair.lastIndexOf(':');
        current.set(pair.slice(0, at), Number(pair.slice(at + 1)));
      }
      const state: ServingState = {
        key: raw,
        current,
        registerLoaded: dataVersion !== null,
        dataVersion,
        illustrative: illustrative === '1',
        register,
        registerHash: fixtures,
      };
      last = { raw, state, at: now };
      return state;
    },

    /** A run by id, or null. Kept in memory once published and validated: from then on its row never changes. */
    run(id: number): RunRow | null {
      const kept = published.get(id);
      if (kept) return kept;
      const row = runStmt.get(id) as RunRow | undefined;
      if (!row) return null;
      // A validated run, once published, never changes again; anything else is read afresh each time.
      if (row.published_at !== null && row.status === 'validated') published.set(id, row);
      return row;
    },

    /** Every run that has been published, newest first, with whether it is current for its scenario. */
    publishedRuns: () => publishedStmt.all() as Array<RunRow & { current: number | null }>,
    gates: (runId: number) => gatesStmt.all(runId) as GateRow[],
    /** The register's methodology version, named while figures are withheld. */
    methodology: () => (methodologyStmt.get() as string | undefined) ?? 'v1',
  };
}

export type ServingReads = ReturnType<typeof servingReads>;

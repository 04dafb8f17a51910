/**
 * The impact part of the first start (and of `main.ts demo`): load a register and, unless told not
 * to, compute and publish a run of every scenario. The published register (built from the published
 * files of data/impact/) is the default; the illustrative demo register is the explicit choice
 * `--impact-register demo`. Without a published run the read API withholds every figure (document
 * rule 3), so `demo --no-publish` is how to see that state.
 *
 * DEMO_DRAWS is kept modest so a first start stays well under a minute on a two-core machine;
 * `impact run` defaults to more.
 */
import type { Db } from '../connection.ts';
import { loadImpactRegister, type LoadSummary, type RegisterKind } from './load.ts';
import { isImpactRegisterLoaded } from './register.ts';
import { DEFAULT_SEED, runImpact, type RunSummary } from './run.ts';

export const DEMO_DRAWS = 500;

export interface DemoProgress {
  stage: 'register' | 'run';
  scenario?: string;
  done: number;
  total: number;
}

/** True when the impact register has never been loaded (the first start). */
export function isImpactEmpty(db: Db): boolean {
  return !isImpactRegisterLoaded(db);
}

export function loadImpactDemo(
  db: Db,
  now: number | (() => number),
  options: {
    publish?: boolean;
    draws?: number;
    register?: RegisterKind;
    onProgress?: (p: DemoProgress) => void;
  } = {},
): { register: LoadSummary; runs: RunSummary[] } {
  const clock = typeof now === 'number' ? () => now : now;
  const register = loadImpactRegister(db, clock(), { register: options.register ?? 'published' });
  options.onProgress?.({ stage: 'register', done: 1, total: 1 });
  if (options.publish === false) return { register, runs: [] };
  const runs = runImpact(db, {
    draws: options.draws ?? DEMO_DRAWS,
    seed: DEFAULT_SEED,
    publish: true,
    now: clock,
    onProgress: (p) =>
      options.onProgress?.({
        stage: 'run',
        scenario: p.scenario,
        done: p.index * p.total + p.done,
        total: p.of * p.total,
      }),
  });
  const failed = runs.filter((r) => r.status === 'failed');
  if (failed.length)
    throw new Error(
      `the first run failed its gates (${failed.map((r) => `${r.scenario} run ${r.id}: ${r.failed_gates.join(', ')}`).join('; ')}): see impact_run_gates`,
    );
  return { register, runs };
}

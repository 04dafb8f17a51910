/**
 * `impact run` and `impact publish`: computing runs of the impact register and making one the
 * current run of its scenario. `demo` (cli/server.ts) calls db/impact/demo.ts for the first load.
 */
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { publishRun } from '../db/impact/store.ts';
import { DEFAULT_DRAWS, DEFAULT_SEED, runImpact, type RunSummary } from '../db/impact/run.ts';
import { SCENARIO_CODES } from '../lib/impact/scenario.ts';
import { UsageError, type CliContext, type Command, type Values } from './command.ts';

function integerOption(values: Values, name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`--${name} is an integer from ${min} to ${max}`);
  return Number(raw);
}

/** One bar per scenario, drawn only on a terminal. */
function progress(ctx: CliContext) {
  if (!ctx.interactive) return { update: () => {}, stop: () => {} };
  const multi = new MultiBar(
    {
      format: 'impact run {scenario} [{bar}] {percentage}% {value}/{total} products × metrics',
      hideCursor: true,
      clearOnComplete: false,
    },
    Presets.shades_classic,
  );
  const bars = new Map<string, SingleBar>();
  return {
    update(p: { scenario: string; done: number; total: number }) {
      let bar = bars.get(p.scenario);
      if (!bar) bars.set(p.scenario, (bar = multi.create(p.total, 0, { scenario: p.scenario.padEnd(6) })));
      bar.update(p.done);
    },
    stop: () => multi.stop(),
  };
}

export function runLine(r: RunSummary): string {
  const what =
    r.status === 'failed'
      ? `FAILED gates ${r.failed_gates.join(', ')} (stored, not published)`
      : r.published
        ? 'validated and published'
        : 'validated (not published)';
  return `${r.scenario} run ${r.id} ${what}: ${r.products} products, ${r.draws} draws, seed ${r.seed}, ${r.seconds.toFixed(1)} s`;
}

export const impactCommands: Command[] = [
  {
    words: ['impact', 'run'],
    summary: `Compute a run of one scenario (or all), check its seven gates and store it; --publish makes a run that passed the current one (defaults: all scenarios, ${DEFAULT_DRAWS} draws, seed ${DEFAULT_SEED})`,
    usage: `impact run [--scenario ${SCENARIO_CODES.join('|')}] [--draws N] [--seed K] [--publish]`,
    options: {
      scenario: { type: 'string' },
      draws: { type: 'string' },
      seed: { type: 'string' },
      publish: { type: 'boolean' },
    },
    run(ctx, values) {
      const scenario = values.scenario;
      if (
        scenario !== undefined &&
        (typeof scenario !== 'string' || !(SCENARIO_CODES as readonly string[]).includes(scenario))
      ) {
        throw new UsageError(`--scenario is one of ${SCENARIO_CODES.join(', ')}`);
      }
      const draws = integerOption(values, 'draws', DEFAULT_DRAWS, 2, 100_000);
      const seed = integerOption(values, 'seed', DEFAULT_SEED, 0, 0xffffffff);
      const bar = progress(ctx);
      try {
        const runs = runImpact(ctx.openDb(), {
          scenarios: scenario ? [scenario] : undefined,
          draws,
          seed,
          publish: values.publish === true,
          now: ctx.now,
          onProgress: (p) => bar.update(p),
        });
        return { runs, ok: runs.every((r) => r.status === 'validated') };
      } finally {
        bar.stop();
      }
    },
    text: (r) => (r.runs as RunSummary[]).map(runLine).join('\n'),
  },
  {
    words: ['impact', 'publish'],
    summary:
      'Make a stored run that passed every gate the current run of its scenario (atomically; earlier runs stay readable by id)',
    usage: 'impact publish RUN_ID',
    options: {},
    positionals: ['RUN_ID'],
    run(ctx, _values, [id]) {
      if (!/^\d+$/.test(id!)) throw new UsageError('RUN_ID is a run id (an integer)');
      const result = publishRun(ctx.openDb(), Number(id), ctx.now());
      return { run: Number(id), ...result };
    },
    text: (r) => `run ${r.run} is now the current ${r.scenario} run${r.previous ? ` (was run ${r.previous})` : ''}`,
  },
];

/**
 * `impact data build`, `impact run` and `impact publish`: building the register from the published
 * files (or loading the demo register), computing runs of it and making one the current run of its
 * scenario. `demo` (cli/server.ts) calls db/impact/demo.ts for the first load.
 */
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { buildRegister, REGISTERS, storeRegister, type LoadSummary, type RegisterKind } from '../db/impact/load.ts';
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

/** One line per file: rows read, imported, unknown, checked, skipped by reason. */
export function reconciliationLines(r: Pick<LoadSummary, 'reconciliation'>): string[] {
  return r.reconciliation.map((x) => {
    const skipped = Object.entries(x.skipped).map(([why, n]) => `${n} ${why.replace(/_/g, ' ')}`);
    const parts = [
      `${x.imported} imported`,
      x.unknown ? `${x.unknown} unknown (withheld or not available)` : '',
      x.checked ? `${x.checked} checked` : '',
      skipped.length ? `skipped: ${skipped.join(', ')}` : '',
    ].filter(Boolean);
    return `  ${x.file}: ${x.rows} rows; ${parts.join('; ')}${x.notes.length ? ` (${x.notes.length} note${x.notes.length > 1 ? 's' : ''})` : ''}`;
  });
}

export const impactCommands: Command[] = [
  {
    words: ['impact', 'data', 'build'],
    summary:
      'Build the impact register from the published files of data/impact/ (every row with its provenance; each file reconciled) and load it; --register demo loads the illustrative demo register instead; --ged FILE adds a UCDP GED event file; --dry-run builds and reports without loading',
    usage: 'impact data build [--register published|demo] [--ged FILE] [--dry-run]',
    options: { register: { type: 'string' }, ged: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    run(ctx, values) {
      const register = (values.register ?? 'published') as RegisterKind;
      if (!(REGISTERS as readonly string[]).includes(register))
        throw new UsageError(`--register is one of ${REGISTERS.join(', ')}`);
      if (values.ged !== undefined && (typeof values.ged !== 'string' || register !== 'published'))
        throw new UsageError('--ged FILE takes a UCDP GED CSV file, for the published register');
      const built = buildRegister(register, { ged: values.ged as string | undefined });
      if (values['dry-run'] === true) {
        const counts = Object.fromEntries(Object.entries(built.tables).map(([t, rows]) => [t, rows.length]));
        return {
          register,
          data_version: built.data_version,
          register_sha256: built.sha256,
          loaded: false,
          counts,
          reconciliation: built.reconciliation,
        };
      }
      const summary = storeRegister(ctx.openDb(), built, ctx.now());
      return { ...summary, loaded: summary.changed };
    },
    text: (r) =>
      [
        `${r.register} register ${r.data_version}, hash ${r.register_sha256}: ${r.loaded ? 'loaded' : r.changed === false ? 'already loaded (unchanged)' : 'built, not loaded (--dry-run)'}`,
        ...((r.reconciliation as LoadSummary['reconciliation']).length
          ? ['reconciliation (every row of every file):']
          : []),
        ...reconciliationLines(r as unknown as LoadSummary),
        r.loaded ? 'figures stay those of the runs already published until `impact run --publish`' : '',
      ]
        .filter(Boolean)
        .join('\n'),
  },
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

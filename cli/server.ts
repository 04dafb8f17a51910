/** serve, migrate and demo: starting trio and preparing its database. */
import { SingleBar, Presets } from 'cli-progress';
import cluster from 'node:cluster';
import { loadFundingDemo } from '../db/demo.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../db/human/catalogue.ts';
import { loadDemoPeople } from '../db/human/demo-people.ts';
import { loadImpactDemo } from '../db/impact/demo.ts';
import { REGISTERS, type RegisterKind } from '../db/impact/load.ts';
import type { RunSummary } from '../db/impact/run.ts';
import { runLine } from './impact.ts';
import { importFundingFile } from '../db/funding/import.ts';
import { compactSearchIndex } from '../db/funding/search-index.ts';
import { openDatabase } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import { requireString, UsageError, type Command } from './command.ts';

const SOURCES = ['eu', 'cordis', 'bdns', 'boe'] as const;

export const serverCommands: Command[] = [
  {
    words: ['serve'],
    summary: 'Serve all three APIs, the console and the operations endpoints (PORT, HOST, DATABASE_PATH…)',
    usage: 'serve [--workers N]',
    options: { workers: { type: 'string' } },
    async run(ctx, values) {
      // The server's modules are imported when serving only: every other command starts in half the time.
      // A cluster worker (cli/cluster.ts forked it): serve, and leave the file and the jobs to the primary.
      if (cluster.isWorker && process.env.TRIO_CLUSTER_WORKER === '1') {
        const app = await (await import('../app.ts')).startApp(ctx.config, { role: 'worker' });
        process.once('SIGTERM', () => void app.stop().then(() => process.exit(0)));
        process.once('SIGINT', () => void app.stop().then(() => process.exit(0)));
        return { url: app.url, database: ctx.config.databasePath, worker: process.pid };
      }
      const workers = values.workers === undefined ? ctx.config.scaling.workers : Number(values.workers);
      if (!Number.isInteger(workers) || workers < 1 || workers > 64)
        throw new UsageError('--workers must be an integer from 1 to 64');
      if (workers > 1) {
        const running = await (await import('./cluster.ts')).startCluster(ctx.config, workers);
        const shutdown = (signal: string) => {
          process.stderr.write(`${signal}: draining ${workers} workers, then closing the database\n`);
          void running.stop().then(() => process.exit(0));
        };
        process.once('SIGTERM', () => shutdown('SIGTERM'));
        process.once('SIGINT', () => shutdown('SIGINT'));
        return { url: running.url, database: ctx.config.databasePath, workers };
      }
      const app = await (await import('../app.ts')).startApp(ctx.config);
      const shutdown = (signal: string) => {
        process.stderr.write(`${signal}: finishing requests in flight, then closing the database\n`);
        void app.stop().then(() => process.exit(0));
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
      return { url: app.url, database: ctx.config.databasePath };
    },
    // A worker prints nothing: its primary says where the cluster serves.
    text: (r) =>
      r.worker
        ? ''
        : `trio is serving at ${r.url} (database ${r.database}${r.workers ? `, ${r.workers} workers` : ''}). Ctrl-C stops it.`,
  },
  {
    words: ['migrate'],
    summary: 'Apply pending database migrations (serve does this at start too)',
    usage: 'migrate',
    options: {},
    run(ctx) {
      // Not ctx.openDb(): that migrates on open, and this command is to say what it applied.
      const db = openDatabase(ctx.config.databasePath);
      try {
        return { applied: migrate(db, undefined, ctx.now()), database: ctx.config.databasePath };
      } finally {
        db.close();
      }
    },
    text: (r) =>
      (r.applied as number[]).length
        ? `applied migrations ${(r.applied as number[]).join(', ')}`
        : 'the database is up to date',
  },
  {
    words: ['demo'],
    summary:
      'Load the demo data sets (funding corpus, impact register, human task catalogue and its people on duty) and publish an impact run of every scenario; the impact register is the one built from published data unless --impact-register demo; --no-publish loads the register only (figures stay withheld)',
    usage: 'demo [--no-publish] [--impact-register published|demo]',
    options: { 'no-publish': { type: 'boolean' }, 'impact-register': { type: 'string' } },
    run(ctx, values) {
      const db = ctx.openDb();
      const bar = ctx.interactive
        ? new SingleBar({ format: 'demo data [{bar}] {value}/{total} files' }, Presets.shades_classic)
        : null;
      let started = false;
      const files = loadFundingDemo(db, ctx.now(), (done, total) => {
        if (bar && !started) {
          bar.start(total, 0);
          started = true;
        }
        bar?.update(done);
      });
      bar?.stop();
      const impactBar = ctx.interactive
        ? new SingleBar({ format: 'impact demo [{bar}] {percentage}% {stage}' }, Presets.shades_classic)
        : null;
      let impactStarted = false;
      const register = (values['impact-register'] ?? 'published') as RegisterKind;
      if (!(REGISTERS as readonly string[]).includes(register))
        throw new UsageError(`--impact-register is one of ${REGISTERS.join(', ')}`);
      const impact = loadImpactDemo(db, ctx.now, {
        register,
        publish: values['no-publish'] !== true,
        onProgress: (p) => {
          if (impactBar && !impactStarted) {
            impactBar.start(p.total, 0, { stage: '' });
            impactStarted = true;
          }
          impactBar?.setTotal(p.total);
          impactBar?.update(p.done, { stage: p.stage === 'register' ? 'register loaded' : `run ${p.scenario}` });
        },
      });
      impactBar?.stop();
      const human = loadCatalogue(db, DEMO_CATALOGUE, ctx.now());
      const people = loadDemoPeople(db, ctx.now());
      return { files: files.length, imported: files, impact, human, people };
    },
    text: (r) => {
      const impact = r.impact as {
        register: { register: string; data_version: string; changed: boolean; register_sha256: string };
        runs: RunSummary[];
      };
      return [
        `loaded ${r.files} demo files`,
        `${r.people} demo people made, verified and on duty (fixtures/human/demo-people.json)`,
        `impact register ${impact.register.register} ${impact.register.data_version} (hash ${impact.register.register_sha256.slice(0, 12)}) ${impact.register.changed ? 'loaded' : 'already loaded'}`,
        ...(impact.runs.length
          ? impact.runs.map(runLine)
          : ['no impact run published (--no-publish): figures are withheld']),
      ].join('\n');
    },
  },
  {
    words: ['funding', 'import'],
    summary: 'Import a funding source file in its published format; all of it or, if malformed, none of it',
    usage: 'funding import --source eu|cordis|bdns|boe FILE',
    options: { source: { type: 'string' } },
    positionals: ['FILE'],
    run(ctx, values, [file]) {
      const source = requireString(values, 'source');
      if (!(SOURCES as readonly string[]).includes(source))
        throw new UsageError(`--source is one of ${SOURCES.join(', ')}`);
      const db = ctx.openDb();
      const summary = importFundingFile(db, source as (typeof SOURCES)[number], file!, ctx.now());
      // A bulk load leaves the index in dozens of segments: merged here, in steps (db/funding/search-index.ts).
      return { ...summary, index: compactSearchIndex(db) };
    },
  },
];

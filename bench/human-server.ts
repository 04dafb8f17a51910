/**
 * The trio server for `npm run bench -- human`, in its own process so the load generator and the
 * server do not share an event loop (two cores: one each). argv: <database path>. Everything is the
 * real startApp; only the per-key and per-address limits are lifted in this process (the benchmark
 * sends thousands of requests a second with one key). SANDBOX_DELAY_MS and HUMAN_DURABLE_COMMIT come
 * from the parent's environment (bench/human.ts sets them per run); nothing else of it is read, so an
 * operator's settings (HOST, LOG_LEVEL…) cannot change what is measured. Tells the parent {port};
 * answers 'stats' with the group commit's figures, and 'cpu' and 'profile:*' (bench/server-control.ts); stops on 'stop'.
 */
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { answerControl } from './server-control.ts';

const [databasePath] = process.argv.slice(2);
if (!databasePath || !process.send) throw new Error('usage: fork bench/human-server.ts <database> (with IPC)');

const app = await startApp({
  ...readConfig({
    PORT: '0',
    DATABASE_PATH: databasePath,
    DEMO: 'off',
    LOG_LEVEL: 'silent',
    // Passed on explicitly: readConfig reads only the object it is given, so without these the run
    // "HUMAN_DURABLE_COMMIT=off" was durable, and the scheduler ran every sandbox task (2 s delay).
    SANDBOX_DELAY_MS: process.env.SANDBOX_DELAY_MS,
    HUMAN_DURABLE_COMMIT: process.env.HUMAN_DURABLE_COMMIT,
  }),
  rateLimits: liftedLimits(),
});
process.send({ port: app.port });
answerControl((message) =>
  message === 'stats'
    ? {
        ...app.ctx.human.writer.stats,
        synchronous: app.db.pragma('synchronous', { simple: true }),
        journal: app.db.pragma('journal_mode', { simple: true }),
      }
    : undefined,
);
process.on('message', (message) => {
  if (message === 'stop') void app.stop().then(() => process.exit(0));
});

/**
 * The trio server for `npm run bench -- human`, in its own process so the load generator and the
 * server do not share an event loop (two cores: one each). argv: <database path>. Everything is the
 * real startApp; only the per-key and per-address limits are lifted in this process (the benchmark
 * sends thousands of requests a second with one key). The environment (SANDBOX_DELAY_MS,
 * HUMAN_DURABLE_COMMIT) is the parent's. Tells the parent {port}; answers 'stats' with the group
 * commit's figures and 'cpu' with its CPU time so far; stops on 'stop'.
 */
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { humanService } from '../lib/human/service.ts';
import { HUMAN_LIMITS } from '../routes/human/access.ts';

const [databasePath] = process.argv.slice(2);
if (!databasePath || !process.send) throw new Error('usage: fork bench/human-server.ts <database> (with IPC)');

HUMAN_LIMITS.key.perMinute = 1e9;
HUMAN_LIMITS.anonymous.perMinute = 1e9;
const app = await startApp(readConfig({ PORT: '0', DATABASE_PATH: databasePath, DEMO: 'off', LOG_LEVEL: 'silent' }));
process.send({ port: app.port });
process.on('message', (message) => {
  if (message === 'cpu') process.send!({ stats: process.cpuUsage() });
  if (message === 'stats') process.send!({ stats: { ...humanService(app.ctx).writer.stats, synchronous: app.db.pragma('synchronous', { simple: true }), journal: app.db.pragma('journal_mode', { simple: true }) } });
  if (message === 'stop') void app.stop().then(() => process.exit(0));
});

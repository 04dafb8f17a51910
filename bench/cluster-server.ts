/**
 * The server for `npm run bench -- cluster`: argv <database> <workers>. workers 0 is the plain single
 * process (startApp, the default `serve`); N ≥ 1 is `serve --workers N` (cli/cluster.ts). Only the
 * limits are lifted (the benchmark sends thousands of requests a second from one address and one
 * key); they are lifted in every process, since node:cluster runs this same file in each worker and
 * the workers pass their limits to the primary with every count. Tells the parent {port}; stops on
 * 'stop'.
 */
import cluster from 'node:cluster';
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { startCluster } from '../cli/cluster.ts';

const [databasePath, workersArg] = process.argv.slice(2);
const workers = Number(workersArg);
if (!databasePath || !Number.isInteger(workers))
  throw new Error('usage: fork bench/cluster-server.ts <database> <workers> (with IPC)');

const config = {
  ...readConfig({
    PORT: workers === 0 ? '0' : process.env.BENCH_PORT,
    DATABASE_PATH: databasePath,
    DEMO: 'off',
    LOG_LEVEL: 'silent',
    SANDBOX_DELAY_MS: '3600000',
    REDIS_URL: process.env.BENCH_REDIS_URL,
  }),
  rateLimits: liftedLimits(),
};

if (cluster.isWorker) {
  const app = await startApp(config, { role: 'worker' });
  process.once('SIGTERM', () => void app.stop().then(() => process.exit(0)));
} else if (workers === 0) {
  const app = await startApp(config);
  process.send!({ port: app.port });
  process.on('message', (m) => m === 'stop' && void app.stop().then(() => process.exit(0)));
} else {
  const running = await startCluster(config, workers);
  process.send!({ port: Number(new URL(running.url).port) });
  process.on('message', (m) => m === 'stop' && void running.stop().then(() => process.exit(0)));
}

/**
 * trio in a child process for the crash test (durability.test.ts): the real startApp on the given
 * database file; tells the parent its port over IPC. The parent kills it with SIGKILL.
 */
import { startApp } from '../../../app.ts';
import { readConfig } from '../../../lib/config.ts';
import { liftedLimits } from '../../../lib/limits.ts';

const [databasePath] = process.argv.slice(2);
if (!databasePath || !process.send) throw new Error('usage: fork crash-server.ts <database> (with IPC)');
const app = await startApp({
  ...readConfig({ PORT: '0', DATABASE_PATH: databasePath, DEMO: 'off', LOG_LEVEL: 'silent' }),
  rateLimits: liftedLimits(),
});
process.send({ port: app.port });

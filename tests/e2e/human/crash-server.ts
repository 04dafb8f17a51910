/**
 * trio in a child process for the crash test (durability.test.ts): the real startApp on the given
 * database file; tells the parent its port over IPC. The parent kills it with SIGKILL.
 */
import { startApp } from '../../../app.ts';
import { readConfig } from '../../../lib/config.ts';
import { HUMAN_LIMITS } from '../../../routes/human/access.ts';

const [databasePath] = process.argv.slice(2);
if (!databasePath || !process.send) throw new Error('usage: fork crash-server.ts <database> (with IPC)');
HUMAN_LIMITS.key.perMinute = 1e6; // many orders from one key in a few seconds
const app = await startApp(readConfig({ PORT: '0', DATABASE_PATH: databasePath, DEMO: 'off', LOG_LEVEL: 'silent' }));
process.send({ port: app.port });

/**
 * The trio server for `npm run bench -- funding-sync`, in a child process: bench/funding-server.ts
 * plus the scheduled funding sync. argv: <database> <corpus now, UTC ms> <FUNDING_SYNC_EVERY>. The
 * FUNDING_SYNC_* addresses and rates come from the environment the bench gives the child; the
 * scheduled sync runs `main.ts funding sync` (as `serve` would) against the same file. The search
 * page cache is off: every search runs its SQL (each batch a sync imports would end a cached page's
 * epoch anyway). Tells the parent {port} over IPC; stops on 'stop'.
 */
import { join } from 'node:path';
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';

const [databasePath, corpusNow, every] = process.argv.slice(2);
if (!databasePath || !corpusNow || !every || !process.send)
  throw new Error('usage: fork bench/funding-sync-server.ts <database> <corpus now ms> <every|off> (with IPC)');

process.env.DATABASE_PATH = databasePath; // the sync child reads the same file
const offset = Number(corpusNow) - Date.now();
const app = await startApp(
  {
    ...readConfig({
      ...process.env,
      PORT: '0',
      DATABASE_PATH: databasePath,
      DEMO: 'off',
      LOG_LEVEL: 'silent',
      SEARCH_CACHE_ENTRIES: '0',
      FUNDING_SYNC_EVERY: every,
    }),
    rateLimits: liftedLimits(),
  },
  {
    clock: () => Date.now() + offset,
    syncCommand: {
      file: process.execPath,
      args: ['--import', 'tsx', join(import.meta.dirname, '..', 'main.ts'), 'funding', 'sync', '--json'],
    },
  },
);
process.send({ port: app.port });
process.on('message', (message) => {
  if (message === 'stop') void app.stop().then(() => process.exit(0));
});

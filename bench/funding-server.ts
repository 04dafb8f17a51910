/**
 * The trio server for `npm run bench -- funding`, run in a child process so the load generator and
 * the server do not share one event loop (the machine has two cores: one each).
 *
 * argv: <database path> <corpus now, UTC ms> [uncached]: uncached turns the search page cache off. The clock starts at the corpus's "now" and runs at wall
 * speed, so open/closed shares are those the generator laid out. The limits are lifted through this
 * process's Config (rateLimits: liftedLimits()): the benchmark sends thousands of anonymous requests
 * a second from one address. Everything else is the real startApp.
 * Tells the parent {port} over IPC; answers 'cpu' and 'profile:*' (bench/server-control.ts); stops on 'stop'.
 */
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { answerControl } from './server-control.ts';

const [databasePath, corpusNow, cache] = process.argv.slice(2);
if (!databasePath || !corpusNow || !process.send)
  throw new Error('usage: fork bench/funding-server.ts <database> <corpus now ms> (with IPC)');

const offset = Number(corpusNow) - Date.now();
const app = await startApp(
  {
    ...readConfig({
      PORT: '0',
      DATABASE_PATH: databasePath,
      DEMO: 'off',
      LOG_LEVEL: 'silent',
      SEARCH_CACHE_ENTRIES: cache === 'uncached' ? '0' : '1000',
    }),
    rateLimits: liftedLimits(),
  },
  {
    clock: () => Date.now() + offset,
  },
);
process.send({ port: app.port });
answerControl();
process.on('message', (message) => {
  if (message === 'stop') void app.stop().then(() => process.exit(0));
});

/**
 * The servers for `npm run bench -- impact`, each in its own child process so that the load generator
 * and the server do not share an event loop (the machine has two cores: one each).
 *
 * argv: <database path> trio | raw
 *  - trio: the real startApp on the demo database, with limits no benchmark reaches (Config's
 *    rateLimits: liftedLimits()): the benchmark sends tens of thousands of anonymous requests a day
 *    from one address. Counting stays on: every request still goes through the limiter and the
 *    write-behind, and carries its accounting headers.
 *  - raw: the baseline, a bare node:http server that answers each path with the bytes trio sent for it,
 *    read per request from the same SQLite file (table bench_impact_bytes, written by bench/impact.ts):
 *    the cost of node:http plus one indexed SQLite read, and nothing else.
 * Tells the parent {port} over IPC; stops on the message 'stop'.
 */
import Database from 'better-sqlite3';
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { listenRaw } from './raw-server.ts';

const [databasePath, mode] = process.argv.slice(2);
if (!databasePath || (mode !== 'trio' && mode !== 'raw') || !process.send)
  throw new Error('usage: fork bench/impact-server.ts <database> trio|raw (with IPC)');

let stop: () => Promise<void>;
if (mode === 'trio') {
  const app = await startApp({
    ...readConfig({ PORT: '0', DATABASE_PATH: databasePath, DEMO: 'off', LOG_LEVEL: 'silent' }),
    rateLimits: liftedLimits(),
  });
  stop = () => app.stop();
  process.send({ port: app.port });
} else {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  const bytes = db.prepare('SELECT body, headers FROM bench_impact_bytes WHERE path = ?');
  const raw = await listenRaw((path) => {
    const row = bytes.get(path) as { body: Buffer; headers: string } | undefined;
    return row === undefined
      ? undefined
      : {
          status: 200,
          headers: {
            ...(JSON.parse(row.headers) as Record<string, string>),
            'content-length': String(row.body.length),
          },
          body: row.body,
        };
  });
  stop = () => raw.stop().then(() => void db.close());
  process.send({ port: raw.port });
}

process.on('message', (message) => {
  if (message === 'stop') void stop().then(() => process.exit(0));
});

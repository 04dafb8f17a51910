/**
 * The servers for `npm run bench -- request-path`, each in its own child process (the load generator
 * has the other core). argv:
 *  - `trio <database>`: the real startApp as `serve` runs it (access log at info on standard output,
 *    which the parent sends to /dev/null: every line is still built and written), limits lifted
 *    (Config's rateLimits: liftedLimits(); every request is still counted and carries its headers),
 *    sandbox tasks held still (SANDBOX_DELAY_MS one hour);
 *  - `raw <recorded.json>`: the baseline, bare node:http answering each path with the status, headers
 *    and bytes trio sent for it (recorded by bench/request-path.ts), from memory.
 * Both answer bench/server-control.ts's 'cpu' and 'profile:*'. Tells the parent {port}; stops on 'stop'.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { answerControl } from './server-control.ts';

export interface Recorded {
  path: string;
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

const [mode, file] = process.argv.slice(2);
if ((mode !== 'trio' && mode !== 'raw') || !file || !process.send)
  throw new Error('usage: fork bench/request-path-server.ts trio <database> | raw <recorded.json> (with IPC)');

let stop: () => Promise<void>;
if (mode === 'trio') {
  const app = await startApp({
    ...readConfig({
      PORT: '0',
      DATABASE_PATH: file,
      DEMO: 'off',
      LOG_LEVEL: 'info',
      SANDBOX_DELAY_MS: '3600000',
    }),
    rateLimits: liftedLimits(),
  });
  stop = () => app.stop();
  process.send({ port: app.port });
} else {
  const answers = new Map(
    (JSON.parse(readFileSync(file, 'utf8')) as Recorded[]).map((r) => {
      const body = Buffer.from(r.body, 'base64');
      return [r.path, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }];
    }),
  );
  const server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '/');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  process.send({ port: (server.address() as AddressInfo).port });
}

answerControl();
process.on('message', (message) => {
  if (message === 'stop') void stop().then(() => process.exit(0));
});

/**
 * The servers for `npm run bench -- request-path`, each in its own child process (the load generator
 * has the other core). argv:
 *  - `trio <database>`: the real startApp as `serve` runs it (access log at info on standard output,
 *    which the parent sends to /dev/null: every line is still built and written), limits lifted
 *    (Config's rateLimits: liftedLimits(); every request is still counted and carries its headers),
 *    sandbox tasks held still (SANDBOX_DELAY_MS one hour);
 *  - `raw <recorded.json>`: the baseline, bare node:http answering each path with the status, headers
 *    and bytes trio sent for it (recorded by bench/request-path.ts), from memory;
 *  - `fastify <recorded.json>`: the framework baseline, Fastify 5 answering the same recorded bytes
 *    from routes with the same patterns as trio's (a path parameter where trio has one), no logger.
 * Both answer bench/server-control.ts's 'cpu' and 'profile:*'. Tells the parent {port}; stops on 'stop'.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { startApp } from '../app.ts';
import type { Dispatch } from '../lib/http/adapter.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { listenRaw } from './raw-server.ts';
import { answerControl } from './server-control.ts';

export interface Recorded {
  path: string;
  status: number;
  headers: Record<string, string>;
  /** base64 */
  body: string;
}

/** The patterns of the paths bench/request-path.ts measures, as trio's routes declare them. */
const FASTIFY_PATTERNS = ['/healthz', '/human/v1/tasks/:ref/result', '/funding/v1/search', '/impact/v1/product/:slug'];

const [mode, file] = process.argv.slice(2);
if ((mode !== 'trio' && mode !== 'raw' && mode !== 'fastify') || !file || !process.send)
  throw new Error('usage: fork bench/request-path-server.ts trio <database> | raw|fastify <recorded.json> (with IPC)');

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
  answerControl((message) =>
    typeof message === 'string' && message.startsWith('inprocess ') ? ownWork(app.dispatch, message) : undefined,
  );
  process.send({ port: app.port });
} else if (mode === 'fastify') {
  const answers = recordedAnswers(file);
  const app = Fastify({ logger: false, keepAliveTimeout: 5_000 });
  for (const pattern of FASTIFY_PATTERNS)
    app.get(pattern, (req, reply) => {
      const found = answers.get(req.url);
      if (!found) return reply.code(404).send();
      return reply.code(found.status).headers(found.headers).send(found.body);
    });
  await app.listen({ port: 0, host: '127.0.0.1' });
  stop = () => app.close();
  process.send({ port: (app.server.address() as AddressInfo).port });
} else {
  const answers = recordedAnswers(file);
  const raw = await listenRaw((path) => answers.get(path));
  stop = raw.stop;
  process.send({ port: raw.port });
}

if (mode !== 'trio') answerControl();
process.on('message', (message) => {
  if (message === 'stop') void stop().then(() => process.exit(0));
});

/** The recorded answers by path (with their query), each with its Content-Length. */
function recordedAnswers(recorded: string) {
  return new Map(
    (JSON.parse(readFileSync(recorded, 'utf8')) as Recorded[]).map((r) => {
      const body = Buffer.from(r.body, 'base64');
      return [r.path, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body }];
    }),
  );
}

/**
 * trio's own work for a request, without the socket: the app's dispatch (the whole pipeline short of
 * node:http) and the access line and metrics, one request at a time, µs per request, the best of 15
 * rounds of 400. Steady on a loaded machine, where the figures with a socket are not. Asked with
 * 'inprocess <base64 JSON of { paths, headers }>'.
 */
async function ownWork(dispatch: Dispatch, message: string): Promise<number> {
  const { paths, headers } = JSON.parse(Buffer.from(message.slice('inprocess '.length), 'base64').toString()) as {
    paths: string[];
    headers: Record<string, string>;
  };
  const head = { host: '127.0.0.1', connection: 'keep-alive', ...headers };
  const nothing = { async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {} };
  let best = Infinity;
  for (let round = 0; round < 15; round++) {
    const started = performance.now();
    for (let i = 0; i < 400; i++) {
      const out = await dispatch({
        method: 'GET',
        target: paths[i % paths.length]!,
        headers: head,
        socketAddress: '127.0.0.1',
        encrypted: false,
        body: nothing,
        closed: () => false,
      });
      out.finish();
    }
    best = Math.min(best, ((performance.now() - started) * 1000) / 400);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return best;
}

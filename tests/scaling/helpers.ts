/**
 * For the scaling tests: trio `serve` processes from the repository, a real redis-server on a free
 * port (skipped with a note where Debian's redis-server is not installed; .ci/run installs it), and
 * requests that each open a new connection, so a cluster's round robin spreads them over its workers.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process.ts';

export { until } from '../helpers/until.ts';

export const REPO = join(import.meta.dirname, '..', '..');

export const redisInstalled = spawnSync('redis-server', ['--version']).status === 0;
export const NO_REDIS_NOTE =
  'redis-server is not installed (apt-get install redis-server; .ci/run installs it): skipped';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

export interface RedisProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A redis-server on a free port, or on `port` (the same server started again after a kill). */
export async function startRedis(port?: number): Promise<RedisProcess> {
  port ??= await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      if (!/Ready to accept connections/.test(out)) return;
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}/0`,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export const serve = (env: Record<string, string>, extraArgs: string[] = []): Promise<ServeProcess> =>
  startServeProcess(['--import', 'tsx', 'main.ts', 'serve', ...extraArgs], { DEMO: 'off', ...env }, REPO);

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a new connection (no keep-alive): `url` absolute. */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    // A connection handed to a worker as it was killed may never be answered: give up on it.
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.end(options.body);
  });
}

/** The pids of a cluster's workers, from their 'worker is serving' log lines (newest last). */
export function workerPids(output: string): number[] {
  return output
    .split('\n')
    .filter((l) => l.includes('"worker is serving"'))
    .map((l) => (JSON.parse(l) as { pid: number }).pid);
}

export function tally(answers: Answer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

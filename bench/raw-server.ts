/**
 * The raw node:http baselines' server: bare node:http answering each request with the status, headers
 * and bytes `answer` gives for its path (a 404 when none), nothing else; keep-alive as trio's. For the
 * benchmarks whose baseline answers per path (bench/impact-server.ts, bench/request-path-server.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export async function listenRaw(
  answer: (path: string) => RawAnswer | undefined,
): Promise<{ port: number; stop(): Promise<void> }> {
  const server = createServer((req, res) => {
    const found = answer(req.url ?? '/');
    if (!found) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(found.status, found.headers);
    res.end(found.body);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

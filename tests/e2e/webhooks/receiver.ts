/**
 * A real local webhook receiver for the tests: a node:http server on an ephemeral port that records
 * every request (headers and the raw body) and answers with what the test scripts: a status per
 * request, a delay (a slow receiver), or no answer at all (a hung one).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed (every trio delivery is JSON). */
  json: { id: string; type: string; timestamp: string; environment: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

type Answer = { status: number; delayMs?: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** The answers to the next requests, in order; then `otherwise`. */
  script(...answers: Answer[]): void;
  otherwise: Answer;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const queue: Answer[] = [];
  const hung = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    received: [],
    script: (...answers) => void queue.push(...answers),
    otherwise: { status: 204 },
    close: async () => {
      for (const end of hung) end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receiver.received.push({ path: req.url ?? '', headers: req.headers, body, json: JSON.parse(body) });
      const answer = queue.shift() ?? receiver.otherwise;
      if (answer === 'hang') {
        const end = () => res.destroy();
        hung.add(end);
        res.on('close', () => hung.delete(end));
        return;
      }
      setTimeout(() => res.writeHead(answer.status, answer.headers).end(), answer.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

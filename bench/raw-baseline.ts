/**
 * The baseline for `npm run bench -- funding`: a bare node:http server, in its own child process,
 * answering every request with one pre-rendered response: the body and headers trio sent for the
 * query being compared, so both put the same bytes on the wire. The ratio trio / baseline is then the
 * cost of trio's work per request (routing, validation, limits, SQLite, JSON) over node:http alone.
 *
 * argv: <body file> <headers JSON file>. Tells the parent {port} over IPC; stops on 'stop'.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

const [bodyFile, headersFile] = process.argv.slice(2);
if (!bodyFile || !headersFile || !process.send)
  throw new Error('usage: fork bench/raw-baseline.ts <body file> <headers file> (with IPC)');
const body = readFileSync(bodyFile);
const headers = {
  ...(JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>),
  'content-length': String(body.length),
};

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  if (message === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});

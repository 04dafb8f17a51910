/**
 * Rule 1 over raw sockets (issue 14): any method other than GET, HEAD and OPTIONS is 405 with Allow,
 * anywhere under /impact/v1, on a path that exists or not, including methods node:http does not hand
 * to a request listener (CONNECT, which it used to answer by closing the connection; unknown tokens such
 * as FOO, which got node's bare 400). Never a closed connection without an answer. Other client errors
 * keep node's own answers, and other services keep their 404 for an unknown path.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { parseHead } from '../../../lib/http/any-method.ts';
import { startImpactServer, type ImpactServer } from './harness.ts';

let server: ImpactServer;
before(async () => {
  server = await startImpactServer();
});
after(() => server.cleanup());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/** Sends bytes on a fresh socket and reads until the server closes it (or a complete response with content-length arrives). */
function send(bytes: string, untilClosed = false): Promise<RawResponse> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to ${JSON.stringify(bytes.slice(0, 40))}: ${buf.toString()}`));
    }, 5000);
    const done = (closed: boolean) => {
      const text = buf.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return false;
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      const body = text.slice(end + 4);
      const length = headers['content-length'];
      if (!closed && (untilClosed || length === undefined || Buffer.byteLength(body) < Number(length))) return false;
      clearTimeout(timer);
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body, closed });
      return true;
    };
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      done(false);
    });
    socket.on('close', () => {
      if (!done(true)) {
        clearTimeout(timer);
        resolve({ status: 0, headers: {}, body: buf.toString(), closed: true });
      }
    });
    socket.on('error', () => {});
  });
}

const request = (method: string, path: string, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.key}\r\n${extra}\r\n`;

test('every method other than GET, HEAD and OPTIONS is 405 with Allow, on known and unknown paths', async () => {
  const paths = [
    '/impact/v1/',
    '/impact/v1/products',
    '/impact/v1/product/smartphone',
    '/impact/v1/nope',
    '/impact/v1/product/smartphone/nope/deeper',
    '/impact/v1/products.csv',
  ];
  const methods = [
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'TRACE',
    'PROPFIND',
    'PURGE',
    'CONNECT',
    'FOO',
    'BREW',
    'get',
    'M-SEARCH',
    'X_CUSTOM',
  ];
  for (const path of paths) {
    for (const method of methods) {
      const res = await send(request(method, path, method === 'POST' ? 'Content-Length: 2\r\n' : ''));
      const where = `${method} ${path}`;
      assert.equal(res.status, 405, `${where}: ${res.body}`);
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS', where);
      const body = JSON.parse(res.body);
      assert.equal(body.error.code, 'method_not_allowed', where);
      assert.equal(body.error.status, 405, where);
      assert.ok(body.error.detail.includes(method), `${where}: the detail names the method`);
      assert.ok(
        res.headers['x-request-id'] && res.headers['x-ratelimit-limit'],
        `${where}: answered by the service, with its headers`,
      );
    }
  }
});

test('GET of an unknown path stays 404; the answer to an unknown method closes the connection only after answering', async () => {
  const res = await send(request('GET', '/impact/v1/nope', 'Connection: close\r\n'));
  assert.equal(res.status, 404);
  const foo = await send(request('FOO', '/impact/v1/products'), true);
  assert.equal(foo.status, 405);
  assert.equal(foo.headers.connection, 'close');
  assert.equal(foo.closed, true);
});

test("outside /impact/v1 node's behaviour is kept: an unknown method its bare 400, CONNECT closed", async () => {
  for (const path of ['/funding/v1/nope', '/healthz', '/impact/v10/x']) {
    const res = await send(request('FOO', path));
    assert.deepEqual([res.status, res.body, res.closed], [400, '', true], `FOO ${path}`);
    const connect = await send(request('CONNECT', path));
    assert.deepEqual([connect.status, connect.closed], [0, true], `CONNECT ${path}`);
  }
});

test("other malformed requests keep node's own answers", async () => {
  const bad = await send('GET /impact/v1/ HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
  assert.equal(bad.status, 400);
  const garbage = await send('\u0001\u0002 nonsense\r\n\r\n');
  assert.equal(garbage.status, 400);
  const huge = await send(`GET /impact/v1/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  assert.equal(huge.status, 431);
});

test('parseHead reads the method, target and headers of the bytes the parser refused', () => {
  assert.deepEqual(
    parseHead(Buffer.from('FOO /impact/v1/x?y=1 HTTP/1.1\r\nHost: a\r\nX-API-Key: k\r\nHost: b\r\n\r\nbody')),
    { method: 'FOO', url: '/impact/v1/x?y=1', headers: { host: 'a', 'x-api-key': 'k' } },
  );
  assert.deepEqual(
    parseHead(Buffer.from('FOO /x HTTP/1.1\r\nHost: a')),
    { method: 'FOO', url: '/x', headers: { host: 'a' } },
    'a head cut short',
  );
  assert.equal(parseHead(Buffer.from('FOO\r\n\r\n')), null);
  assert.equal(parseHead(Buffer.from('F(O) /x HTTP/1.1\r\n\r\n')), null);
});

test('a GET and a FOO in one packet: the GET answered once, never a second time for the FOO', async () => {
  // The GET is answered as soon as it is parsed (the adapter answers a synchronous handler without a
  // promise, issue 37), then the parser refuses the packet at FOO. The refused bytes begin with the GET,
  // so they are not read as the refused request (that would serve the GET again): node's own handling
  // follows, which sends no second answer while one is on the wire, and closes the connection.
  const res = await send(request('GET', '/impact/v1/scenarios') + request('FOO', '/impact/v1/products'), true);
  assert.deepEqual([res.status, res.closed], [200, true]);
  assert.ok(!res.body.includes('HTTP/1.1 200') && !res.body.includes('HTTP/1.1 405'), res.body.slice(-300));
});

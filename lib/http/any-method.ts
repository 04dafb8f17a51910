/**
 * Requests node:http does not hand to the request listener, handed to it anyway, so that every method
 * gets the service's own answer (a read-only service's 405 with Allow, issue 14) instead of a closed
 * connection or node's bare 400:
 *
 *  - CONNECT: node emits 'connect' and, with no listener, closes the socket. Here the request goes to
 *    the listener with a ServerResponse on that socket.
 *  - a method llhttp does not know (FOO, BREW, a lowercase get): the parser fails with
 *    HPE_INVALID_METHOD and node emits 'clientError' with the bytes it had (rawPacket). Here the request
 *    head is read from those bytes and given to the listener the same way.
 *
 * Only for targets under a base a service registered with answerMethodsUnder (a read-only service:
 * impact); elsewhere node's behaviour is kept (CONNECT closed, an unknown method its bare 400).
 * Either way the connection is closed after the answer: the parser has let go of the socket, so it
 * cannot carry another request. Every other client error is answered exactly as node does by default
 * (its responses, copied below), because a 'clientError' listener replaces node's own handling.
 */
import { IncomingMessage, METHODS, ServerResponse, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

const answeredBases = new Set<string>();

/** Every method on a target under `base` is handed to the listener (called by serviceRouter for a read-only service). */
export function answerMethodsUnder(base: string): void {
  answeredBases.add(base);
}

const answered = (url: string | undefined) => {
  if (!url) return false;
  for (const base of answeredBases)
    if (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) return true;
  return false;
};

// node's own answers to a client error (_http_server.js in Node's own sources), kept byte for byte.
const NODE_DEFAULT: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S{1,8192}) HTTP\/1\.[01]\r?\n/;

/** The request head in bytes the parser refused: method, target and whatever header lines arrived. */
export function parseHead(packet: Buffer): { method: string; url: string; headers: Record<string, string> } | null {
  const text = packet.toString('latin1');
  const line = REQUEST_LINE.exec(text);
  if (!line) return null;
  const end = text.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const raw of text.slice(line[0].length, end === -1 ? undefined : end).split(/\r?\n/)) {
    const colon = raw.indexOf(':');
    if (colon <= 0) continue;
    const name = raw.slice(0, colon).trim().toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || name in headers) continue;
    headers[name] = raw.slice(colon + 1).trim();
  }
  return { method: line[1]!, url: line[2]!, headers };
}

function answer(listener: Listener, req: IncomingMessage, socket: Duplex): void {
  req.push(null); // no body is read from a request answered this way
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.on('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end();
  });
  void listener(req, res);
}

/**
 * `onClientError`: told the code of every client error node reports (a request or its headers too
 * slow: ERR_HTTP_REQUEST_TIMEOUT; headers too large; a malformed request; a reset), for the metrics:
 * these never reach the access log.
 */
export function answerEveryMethod(server: Server, listener: Listener, onClientError?: (code: string) => void): void {
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    if (answered(req.url)) answer(listener, req, socket);
    else socket.destroy(); // node's default for a CONNECT nobody handles
  });
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    onClientError?.(err.code ?? 'unknown');
    const head = err.code === 'HPE_INVALID_METHOD' && err.rawPacket ? parseHead(err.rawPacket) : null;
    // The bytes start with the refused request only if their method is one llhttp refuses (pipelined
    // requests put an earlier, answered one first): anything else keeps node's answer.
    if (head && !METHODS.includes(head.method) && answered(head.url) && socket.writable) {
      const req = new IncomingMessage(socket as Socket);
      req.method = head.method;
      req.url = head.url;
      req.headers = head.headers;
      answer(listener, req, socket);
      return;
    }
    // node's default: an error response unless one is already under way, then the socket is gone.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && (!inFlight || !inFlight.headersSent))
      socket.write(NODE_DEFAULT[err.code ?? ''] ?? BAD_REQUEST);
    socket.destroy(err);
  });
}

/**
 * The node:http adapter in front of itty-router. Per request it builds one plain ApiRequest (no
 * WHATWG Request unless a handler asks for one), runs the router, and writes the Reply back. It
 * owns what every route shares: the request id, the client address, the body size limit, HEAD,
 * the 500 for an unexpected fault, and the access log line.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { addressBucket, clientAddress, type TrustProxy } from './client-address.ts';
import { HttpError } from './errors.ts';
import { isReply, jsonReply, type ApiRequest, type Reply, type ReplyBody } from './types.ts';
import { redactKeys } from '../keys.ts';

export interface AdapterOptions {
  fetch: (req: ApiRequest) => Promise<unknown>;
  log: Logger;
  clock: () => number;
  trustProxy: TrustProxy;
  bodyLimitBytes: number;
  /** Called once per finished request, for metrics. */
  observe?: (req: ApiRequest, status: number, seconds: number) => void;
}

// A client's own X-Request-Id is kept when it is a plain token, so its logs and ours line up.
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function createListener(options: AdapterOptions) {
  const { fetch, log, clock, trustProxy, bodyLimitBytes, observe } = options;

  return async function listener(raw: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const sent = raw.headers['x-request-id'];
    const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    const target = raw.url ?? '/';
    const socketAddress = raw.socket.remoteAddress ?? '';
    const ip = clientAddress(socketAddress, raw.headers['x-forwarded-for'], trustProxy);
    const secure =
      'encrypted' in raw.socket || (trustProxy(socketAddress) && raw.headers['x-forwarded-proto'] === 'https');
    const req = buildRequest(raw, id, target, ip, secure, clock(), bodyLimitBytes);

    let reply: Reply;
    if (!target.startsWith('/')) {
      // Absolute-form and asterisk-form targets are for proxies; we are an origin server.
      reply = jsonReply(400, { error: 'bad_request', message: 'The request target must be a path starting with /.' });
    } else {
      try {
        const result = await fetch(req);
        reply = isReply(result) ? result : jsonReply(404, { error: 'not_found', message: 'No such path.' });
      } catch (err) {
        reply = faultReply(err, req, log);
      }
    }
    await writeReply(res, req, reply, log);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    observe?.(req, reply.status, seconds);
    // The query string is never logged: it is where a misplaced key would be; a key pasted into the
    // path is cut to its prefix.
    log.info(
      {
        reqId: id,
        method: raw.method,
        path: redactKeys(req.path),
        status: reply.status,
        ms: Math.round(seconds * 1e4) / 10,
        ip: req.ipBucket,
        service: req.service,
      },
      'request',
    );
  };
}

function buildRequest(
  raw: IncomingMessage,
  id: string,
  target: string,
  ip: string,
  secure: boolean,
  now: number,
  limit: number,
): ApiRequest {
  const method = raw.method ?? 'GET';
  const queryAt = target.indexOf('?');
  let bodyPromise: Promise<Buffer> | undefined;
  const req: ApiRequest = {
    method: method === 'HEAD' ? 'GET' : method,
    originalMethod: method,
    url: 'http://localhost' + (target.startsWith('/') ? target : '/'),
    path: queryAt === -1 ? target : target.slice(0, queryAt),
    headers: raw.headers,
    query: {},
    params: {},
    id,
    secure,
    ip,
    ipBucket: addressBucket(ip),
    now,
    replyHeaders: {},
    raw,
    body: (limitBytes = limit) => (bodyPromise ??= readBody(raw, limitBytes)),
    toWebRequest: async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(raw.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const hasBody = method !== 'GET' && method !== 'HEAD';
      return new Request(req.url, { method, headers, body: hasBody ? await req.body() : undefined });
    },
  };
  return req;
}

async function readBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of raw as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof HttpError || !raw.destroyed) throw err;
    // The connection ended mid-body: the client left, the request timed out, or node's parser refused
    // the body's framing (a bad chunk). A client's doing, not a fault of ours; nobody reads the answer.
    throw new HttpError(400, 'bad_request', 'The connection closed before the request body was complete.');
  }
  return Buffer.concat(chunks);
}

const tooLarge = (limit: number) =>
  new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);

function faultReply(err: unknown, req: ApiRequest, log: Logger): Reply {
  if (err instanceof HttpError) {
    return jsonReply(err.status, { error: err.code, message: err.message }, err.headers);
  }
  log.error({ reqId: req.id, err }, 'unhandled fault');
  return jsonReply(500, {
    error: 'internal_error',
    message: `Internal error. Quote request id ${req.id} when reporting it.`,
  });
}

async function writeReply(res: ServerResponse, req: ApiRequest, reply: Reply, log: Logger): Promise<void> {
  const headers: Record<string, string | string[]> = { ...req.replyHeaders, ...reply.headers, 'x-request-id': req.id };
  // A refused body may still be arriving (a Content-Length of gigabytes, an endless chunked stream):
  // keeping the connection alive would mean reading all of it first. Closing frees the socket now.
  if (reply.status === 413) headers.connection = 'close';
  const head = req.originalMethod === 'HEAD';
  const body: ReplyBody = reply.body ?? null;
  if (body === null || typeof body === 'string' || Buffer.isBuffer(body)) {
    const bytes = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (reply.status !== 204 && reply.status !== 304) headers['content-length'] = String(bytes);
    res.writeHead(reply.status, headers);
    res.end(head || body === null ? undefined : body);
    return;
  }
  res.writeHead(reply.status, headers);
  if (head) {
    res.end();
    return;
  }
  try {
    for await (const chunk of body) {
      if (res.destroyed) break; // the client went away: stop producing
      if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    res.end();
  } catch (err) {
    // Headers are gone already: the only honest signal left is to cut the connection short.
    log.error({ reqId: req.id, err }, 'stream failed mid-response');
    res.destroy();
  }
}

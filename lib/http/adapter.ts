/**
 * The node:http adapter in front of itty-router. Per request it builds one plain ApiRequest (no
 * WHATWG Request unless a handler asks for one), runs the router, and writes the Reply back. It
 * owns what every route shares: the request id, the client address, the body size limit, HEAD,
 * the 500 for an unexpected fault, and the access log line. All of it but the socket is `dispatch`
 * (createDispatch), which the tests also call in-process; the listener only reads and writes.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { addressBucket, clientAddress, type TrustProxy } from './client-address.ts';
import { HttpError } from './errors.ts';
import { isReply, jsonReply, type ApiRequest, type Reply, type ReplyBody } from './types.ts';
import { redactKeys } from '../keys.ts';
import { refusalOf, serviceUnavailable } from './unavailable.ts';

export interface AdapterOptions {
  fetch: (req: ApiRequest) => Promise<unknown>;
  log: Logger;
  clock: () => number;
  trustProxy: TrustProxy;
  bodyLimitBytes: number;
  /** Called once per finished request, for metrics. */
  observe?: (req: ApiRequest, status: number, seconds: number) => void;
}

/**
 * A request as a transport received it: the head, and the body as it arrives. node:http makes one
 * from an IncomingMessage (below); the tests' in-process client (tests/helpers/in-process.ts) makes
 * one from memory, so both go through the same pipeline.
 */
export interface Inbound {
  method: string;
  target: string;
  headers: IncomingHttpHeaders;
  /** The peer's address on the socket. */
  socketAddress: string;
  /** Received over TLS. */
  encrypted: boolean;
  body: AsyncIterable<Buffer>;
  /** The connection is gone (a body read that failed was the client leaving, not a fault). */
  closed(): boolean;
}

/** The reply as it goes out: the status, every header, the body (null for HEAD). */
export interface Outbound {
  status: number;
  headers: Record<string, string | string[]>;
  body: ReplyBody;
  /** The request id, for a transport that must log a failure of its own. */
  id: string;
  /** Logs the access line and records the metrics: the transport calls it once the body is sent. */
  finish(): void;
}

export type Dispatch = (inbound: Inbound) => Promise<Outbound>;

// A client's own X-Request-Id is kept when it is a plain token, so its logs and ours line up.
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The whole request pipeline short of the socket: the request id, the client address, the light
 * request, the router, the error rendering and every reply header.
 */
export function createDispatch(options: AdapterOptions): Dispatch {
  const { fetch, log, clock, trustProxy, bodyLimitBytes, observe } = options;

  return async function dispatch(inbound: Inbound): Promise<Outbound> {
    const started = process.hrtime.bigint();
    const sent = inbound.headers['x-request-id'];
    const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    const { target, socketAddress } = inbound;
    const ip = clientAddress(socketAddress, inbound.headers['x-forwarded-for'], trustProxy);
    const secure = inbound.encrypted || (trustProxy(socketAddress) && inbound.headers['x-forwarded-proto'] === 'https');
    const req = buildRequest(inbound, id, ip, secure, clock(), bodyLimitBytes);

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
    return {
      ...outbound(req, reply),
      id,
      finish() {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        observe?.(req, reply.status, seconds);
        // The query string is never logged: it is where a misplaced key would be; a key pasted into the
        // path is cut to its prefix.
        log.info(
          {
            reqId: id,
            method: inbound.method,
            path: redactKeys(req.path),
            status: reply.status,
            ms: Math.round(seconds * 1e4) / 10,
            ip: req.ipBucket,
            service: req.service,
            refused: req.refused?.cause, // a 503 unserved: the dependency's state tells the rest
          },
          'request',
        );
      },
    };
  };
}

/** The node:http listener: the dispatch between reading an IncomingMessage and writing a ServerResponse. */
export function httpListener(dispatch: Dispatch, log: Logger) {
  return async function listener(raw: IncomingMessage, res: ServerResponse): Promise<void> {
    const out = await dispatch({
      method: raw.method ?? 'GET',
      target: raw.url ?? '/',
      headers: raw.headers,
      socketAddress: raw.socket.remoteAddress ?? '',
      encrypted: 'encrypted' in raw.socket,
      body: raw,
      closed: () => raw.destroyed,
    });
    await writeOut(res, out, log);
    out.finish();
  };
}

export function createListener(options: AdapterOptions) {
  return httpListener(createDispatch(options), options.log);
}

function buildRequest(
  inbound: Inbound,
  id: string,
  ip: string,
  secure: boolean,
  now: number,
  limit: number,
): ApiRequest {
  const { method, target, headers } = inbound;
  const queryAt = target.indexOf('?');
  let bodyPromise: Promise<Buffer> | undefined;
  const req: ApiRequest = {
    method: method === 'HEAD' ? 'GET' : method,
    originalMethod: method,
    url: 'http://localhost' + (target.startsWith('/') ? target : '/'),
    path: queryAt === -1 ? target : target.slice(0, queryAt),
    headers,
    query: {},
    params: {},
    id,
    secure,
    ip,
    ipBucket: addressBucket(ip),
    now,
    replyHeaders: {},
    body: (limitBytes = limit) => (bodyPromise ??= readBody(inbound, limitBytes)),
    toWebRequest: async () => {
      const web = new Headers();
      for (const [name, value] of Object.entries(headers)) {
        if (Array.isArray(value)) for (const v of value) web.append(name, v);
        else if (value !== undefined) web.set(name, value);
      }
      const hasBody = method !== 'GET' && method !== 'HEAD';
      return new Request(req.url, { method, headers: web, body: hasBody ? await req.body() : undefined });
    },
  };
  return req;
}

async function readBody(inbound: Inbound, limit: number): Promise<Buffer> {
  const declared = Number(inbound.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of inbound.body) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limit);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof HttpError || !inbound.closed()) throw err;
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
  // Outside the services (/metrics reading the sync state, say): the database refusing is a 503 too.
  const refusal = refusalOf(err);
  if (refusal) {
    req.refused = refusal;
    const refused = serviceUnavailable();
    return jsonReply(503, { error: refused.code, message: refused.message }, refused.headers);
  }
  log.error({ reqId: req.id, err }, 'unhandled fault');
  return jsonReply(500, {
    error: 'internal_error',
    message: `Internal error. Quote request id ${req.id} when reporting it.`,
  });
}

/** The headers and body that go out for a reply: X-Request-Id, Content-Length, HEAD's empty body. */
function outbound(req: ApiRequest, reply: Reply): Pick<Outbound, 'status' | 'headers' | 'body'> {
  const headers: Record<string, string | string[]> = { ...req.replyHeaders, ...reply.headers, 'x-request-id': req.id };
  // A refused body may still be arriving (a Content-Length of gigabytes, an endless chunked stream):
  // keeping the connection alive would mean reading all of it first. Closing frees the socket now.
  if (reply.status === 413) headers.connection = 'close';
  const body: ReplyBody = reply.body ?? null;
  if (body === null || typeof body === 'string' || Buffer.isBuffer(body)) {
    const bytes = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (reply.status !== 204 && reply.status !== 304) headers['content-length'] = String(bytes);
  }
  // HEAD: the headers GET would send, no body (a stream is never started).
  return { status: reply.status, headers, body: req.originalMethod === 'HEAD' ? null : body };
}

async function writeOut(res: ServerResponse, out: Outbound, log: Logger): Promise<void> {
  res.writeHead(out.status, out.headers);
  const { body } = out;
  if (body === null || typeof body === 'string' || Buffer.isBuffer(body)) {
    res.end(body ?? undefined);
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
    log.error({ reqId: out.id, err }, 'stream failed mid-response');
    res.destroy();
  }
}

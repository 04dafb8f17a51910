/**
 * The node:http adapter in front of itty-router. Per request it builds one plain ApiRequest (no
 * WHATWG Request unless a handler asks for one), runs the router, and writes the Reply back. It
 * owns what every route shares: the request id, the client address, the body size limit, HEAD,
 * the 500 for an unexpected fault, and the access log line. All of it but the socket is `dispatch`
 * (createDispatch), which the tests also call in-process; the listener only reads and writes.
 *
 * A request whose router answers synchronously (lib/http/route-walk.ts: no stage returned a promise)
 * is dispatched and written without a promise (issue 37: each was a microtask and an allocation on
 * every request); one that is not goes through the same steps when its answer settles.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { Logger } from 'pino';
import { addressBucket, clientAddress, unmapIPv4, type TrustProxy } from './client-address.ts';
import { HttpError } from './errors.ts';
import { accessLog, type AccessFields } from './log.ts';
import { GRANT, isReply, jsonReply, type ApiRequest, type Refusal, type Reply, type ReplyBody } from './types.ts';
import { redactKeys } from '../keys.ts';
import { refusalOf, serviceUnavailable } from './unavailable.ts';

export interface AdapterOptions {
  /** The router: its answer, or a promise of it (a Reply; anything else is a 404). */
  fetch: (req: ApiRequest) => unknown;
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

/** The pipeline: synchronous when the router answered synchronously (callers may always `await` it). */
export type Dispatch = (inbound: Inbound) => Outbound | Promise<Outbound>;

/** Where a light request keeps what its body is read from, the limit, and the read once started. */
const INBOUND = Symbol('inbound');
const LIMIT = Symbol('limit');
const READ = Symbol('read');
// Until the router sets them (itty-router replaces both on every request): shared, and frozen so that
// a write to them would fail loudly instead of reaching every request.
const NO_QUERY: Record<string, string | string[] | undefined> = Object.freeze({});
const NO_PARAMS: Record<string, string> = Object.freeze({});

// A client's own X-Request-Id is kept when it is a plain token, so its logs and ours line up; never one
// that holds a key (a key sent in the wrong header would be echoed and logged).
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const requestIdOf = (sent: string | string[] | undefined): string =>
  typeof sent === 'string' && REQUEST_ID.test(sent) && redactKeys(sent) === sent ? sent : randomUUID();

/**
 * The whole request pipeline short of the socket: the request id, the client address, the light
 * request, the router, the error rendering and every reply header. Nothing here is built per request
 * that a shared piece can do (no closures, one headers object, one access line): this path is what
 * every request pays (BENCHMARKS.md, "The cost of one request").
 */
export function createDispatch(options: AdapterOptions): Dispatch {
  const { fetch, log, clock, trustProxy, bodyLimitBytes } = options;
  const done: Finish = { log, access: accessLog(log), observe: options.observe };

  return function dispatch(inbound: Inbound): Outbound | Promise<Outbound> {
    const started = performance.now();
    const { target, socketAddress, headers } = inbound;
    const id = requestIdOf(headers['x-request-id']);
    const peer = peerOf(socketAddress);
    const forwarded = headers['x-forwarded-for'];
    // Through a trusted proxy, the nearest untrusted hop; otherwise the socket's address and its bucket, kept.
    const ip =
      forwarded === undefined || !trustProxy(peer.ip) ? peer.ip : clientAddress(socketAddress, forwarded, trustProxy);
    const bucket = ip === peer.ip ? peer.bucket : addressBucket(ip);
    const secure = inbound.encrypted || (trustProxy(socketAddress) && headers['x-forwarded-proto'] === 'https');
    const req = new LightRequest(inbound, id, ip, bucket, secure, clock(), bodyLimitBytes);

    if (target.charCodeAt(0) !== 47 /* '/' */) {
      // Absolute-form and asterisk-form targets are for proxies; we are an origin server.
      const refused = jsonReply(400, {
        error: 'bad_request',
        message: 'The request target must be a path starting with /.',
      });
      return new SentReply(req, refused, started, done);
    }
    let result: unknown;
    try {
      result = fetch(req);
    } catch (err) {
      return new SentReply(req, faultReply(err, req, log), started, done);
    }
    if (isThenable(result))
      return Promise.resolve(result).then(
        (settled) => new SentReply(req, replyOf(settled), started, done),
        (err: unknown) => new SentReply(req, faultReply(err, req, log), started, done),
      );
    return new SentReply(req, replyOf(result), started, done);
  };
}

const NO_SUCH_PATH = (): Reply => jsonReply(404, { error: 'not_found', message: 'No such path.' });
const replyOf = (result: unknown): Reply => (isReply(result) ? result : NO_SUCH_PATH());
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';

/**
 * A socket address as a client address (an IPv4-mapped IPv6 one unmapped) and its bucket, kept: a
 * keep-alive connection sends many requests from one address, and parsing it was 5 % of a light request.
 */
const peers = new Map<string, { ip: string; bucket: string }>();
const PEERS_KEPT = 4096;
function peerOf(socketAddress: string): { ip: string; bucket: string } {
  let peer = peers.get(socketAddress);
  if (peer === undefined) {
    const ip = unmapIPv4(socketAddress);
    peer = { ip, bucket: addressBucket(ip) };
    if (peers.size >= PEERS_KEPT) peers.clear();
    peers.set(socketAddress, peer);
  }
  return peer;
}

/** The node:http listener: the dispatch between reading an IncomingMessage and writing a ServerResponse. */
export function httpListener(dispatch: Dispatch, log: Logger) {
  const send = (res: ServerResponse, out: Outbound): void | Promise<void> => {
    const { body } = out;
    if (body === null || typeof body === 'string' || Buffer.isBuffer(body)) {
      // One write: node sends the head with a string body in one chunk, with a Buffer in one writev.
      res.writeHead(out.status, out.headers);
      res.end(body ?? undefined);
    } else return writeStream(res, out, body, log).then(() => out.finish());
    out.finish();
  };
  return function listener(raw: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const out = dispatch(new NodeInbound(raw));
    return out instanceof Promise ? out.then((settled) => send(res, settled)) : send(res, out);
  };
}

export function createListener(options: AdapterOptions) {
  return httpListener(createDispatch(options), options.log);
}

/** An IncomingMessage as an Inbound, read where it lies. */
class NodeInbound implements Inbound {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  readonly socketAddress: string;
  readonly encrypted: boolean;
  readonly body: IncomingMessage;
  constructor(raw: IncomingMessage) {
    this.method = raw.method ?? 'GET';
    this.target = raw.url ?? '/';
    this.headers = raw.headers;
    this.socketAddress = raw.socket.remoteAddress ?? '';
    this.encrypted = 'encrypted' in raw.socket;
    this.body = raw;
  }
  closed(): boolean {
    return this.body.destroyed;
  }
}

/** What finishing a request needs, shared by every request of a dispatch. */
interface Finish {
  log: Logger;
  access: (fields: AccessFields) => void;
  observe: AdapterOptions['observe'];
}

/** The reply as it goes out, and the access line and metrics once the transport has sent it. */
class SentReply implements Outbound {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: ReplyBody;
  readonly id: string;
  private readonly req: LightRequest;
  private readonly started: number;
  private readonly done: Finish;

  constructor(req: LightRequest, reply: Reply, started: number, done: Finish) {
    this.status = reply.status;
    this.headers = replyHeaders(req, reply);
    // HEAD: the headers GET would send, no body (a stream is never started).
    this.body = req.originalMethod === 'HEAD' ? null : (reply.body ?? null);
    this.id = req.id;
    this.req = req;
    this.started = started;
    this.done = done;
  }

  finish(): void {
    const { req, done } = this;
    const ms = performance.now() - this.started;
    done.observe?.(req, this.status, ms / 1000);
    if (!done.log.isLevelEnabled('info')) return;
    // The query string is never logged: it is where a misplaced key would be; a key pasted into the
    // path is cut to its prefix.
    done.access({
      reqId: req.id,
      method: req.originalMethod,
      path: redactKeys(req.path),
      status: this.status,
      ms: Math.round(ms * 10) / 10,
      ip: req.ipBucket,
      service: req.service,
      refused: req.refused?.cause,
    });
  }
}

/**
 * The light request (lib/http/types.ts): one object per request, its methods shared. `body` and
 * `toWebRequest` are own properties holding shared functions, and what they read is in own fields,
 * so a copy (`{ ...req, ip }`, the explorer's) still reads its body.
 */
class LightRequest implements ApiRequest {
  method: string;
  originalMethod: string;
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  query = NO_QUERY;
  params = NO_PARAMS;
  id: string;
  secure: boolean;
  ip: string;
  ipBucket: string;
  now: number;
  replyHeaders: Record<string, string> = {};
  readOnly?: { primaryUrl: string | null } = undefined;
  refused?: Refusal = undefined;
  service?: string = undefined;
  route?: string = undefined;
  [GRANT]?: unknown = undefined;
  body = readRequestBody;
  toWebRequest = toWebRequest;
  [INBOUND]: Inbound;
  [LIMIT]: number;
  [READ]: Promise<Buffer> | undefined = undefined;

  constructor(inbound: Inbound, id: string, ip: string, bucket: string, secure: boolean, now: number, limit: number) {
    const { method, target } = inbound;
    const queryAt = target.indexOf('?');
    this.method = method === 'HEAD' ? 'GET' : method;
    this.originalMethod = method;
    this.url = 'http://localhost' + (target.charCodeAt(0) === 47 ? target : '/');
    this.path = queryAt === -1 ? target : target.slice(0, queryAt);
    this.headers = inbound.headers;
    this.id = id;
    this.secure = secure;
    this.ip = ip;
    this.ipBucket = bucket;
    this.now = now;
    this[INBOUND] = inbound;
    this[LIMIT] = limit;
  }
}

function readRequestBody(this: LightRequest, limitBytes?: number): Promise<Buffer> {
  return (this[READ] ??= readBody(this[INBOUND], limitBytes ?? this[LIMIT]));
}

async function toWebRequest(this: LightRequest): Promise<Request> {
  const web = new Headers();
  for (const [name, value] of Object.entries(this.headers)) {
    if (Array.isArray(value)) for (const v of value) web.append(name, v);
    else if (value !== undefined) web.set(name, value);
  }
  const { method } = this[INBOUND];
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(this.url, { method, headers: web, body: hasBody ? await this.body() : undefined });
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

/** Every header of a reply in one object: the request's (accounting, CORS), the reply's, X-Request-Id, Content-Length. */
function replyHeaders(req: ApiRequest, reply: Reply): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const shared = req.replyHeaders;
  for (const name in shared) headers[name] = shared[name]!;
  const own = reply.headers;
  if (own !== undefined) for (const name in own) headers[name] = own[name]!;
  headers['x-request-id'] = req.id;
  // A refused body may still be arriving (a Content-Length of gigabytes, an endless chunked stream):
  // keeping the connection alive would mean reading all of it first. Closing frees the socket now.
  if (reply.status === 413) headers.connection = 'close';
  const body = reply.body ?? null;
  if (reply.status !== 204 && reply.status !== 304) {
    if (body === null) headers['content-length'] = '0';
    else if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    else if (Buffer.isBuffer(body)) headers['content-length'] = String(body.length);
  }
  return headers;
}

async function writeStream(
  res: ServerResponse,
  out: Outbound,
  body: AsyncIterable<string | Buffer>,
  log: Logger,
): Promise<void> {
  res.writeHead(out.status, out.headers);
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

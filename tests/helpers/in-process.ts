/**
 * Requests without a socket: straight into the app's `dispatch` (lib/http/adapter.ts), the pipeline
 * the node:http listener itself runs (request id, client address, light request, routers, error
 * rendering, reply headers, access log and metrics). Only the socket is left out, so a test of what a
 * route answers need not pay for (or wait on) a connection.
 *
 * The request is the one fetch would send: the same default headers (Accept, User-Agent, a text/plain
 * Content-Type for a string body, Content-Length), from 127.0.0.1, redirects followed unless
 * `redirect: 'manual'`; the text is decoded as fetch decodes it (UTF-8, a leading BOM dropped). Use a
 * socket (startTestServer without `inProcess`) where the connection is what a test is about: raw
 * bytes, slow clients, keep-alive, body framing, a real client library or browser, other processes.
 */
import type { Dispatch, Inbound } from '../../lib/http/adapter.ts';
import type { TestResponse } from './server.ts';

export interface InProcessInit {
  headers?: Record<string, string>;
  /** A FormData body is encoded as fetch encodes it (multipart, with its boundary). */
  body?: string | Uint8Array | FormData;
  /** 'follow' (fetch's default) follows 301/302/303/307/308 as fetch does. */
  redirect?: 'follow' | 'manual';
  /** The peer address the socket would have shown. */
  socketAddress?: string;
}

// What undici's fetch adds to every request it sends (Node 20), so the routes see the same head.
const FETCH_DEFAULTS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

export async function inProcessRequest(
  dispatch: Dispatch,
  method: string,
  path: string,
  init: InProcessInit = {},
): Promise<TestResponse> {
  let target = path;
  let currentMethod = method.toUpperCase();
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) given[name.toLowerCase()] = value;
  let body: Buffer | undefined;
  if (init.body instanceof FormData) {
    const encoded = new Response(init.body); // fetch's own multipart encoding
    body = Buffer.from(await encoded.arrayBuffer());
    given['content-type'] ??= encoded.headers.get('content-type')!;
  } else if (init.body !== undefined) {
    body = Buffer.from(init.body);
    if (typeof init.body === 'string') given['content-type'] ??= 'text/plain;charset=UTF-8';
  }

  for (let hops = 0; ; hops++) {
    const headers: Record<string, string> = {
      host: '127.0.0.1',
      connection: currentMethod === 'HEAD' ? 'close' : 'keep-alive',
      ...FETCH_DEFAULTS,
      ...given,
    };
    if (body !== undefined) headers['content-length'] = String(body.length);
    else if (['POST', 'PUT', 'PATCH'].includes(currentMethod)) headers['content-length'] = '0';
    const chunks = body === undefined || body.length === 0 ? [] : [body];
    const inbound: Inbound = {
      method: currentMethod,
      target,
      headers,
      socketAddress: init.socketAddress ?? '127.0.0.1',
      encrypted: false,
      body: (async function* () {
        yield* chunks;
      })(),
      closed: () => false,
    };
    const out = await dispatch(inbound);
    let bytes: Buffer;
    try {
      bytes = await collect(out.body); // a stream failing mid-way rejects, as fetch's body read would
    } finally {
      out.finish();
    }

    const location = out.headers.location;
    if (init.redirect !== 'manual' && [301, 302, 303, 307, 308].includes(out.status) && typeof location === 'string') {
      if (hops === 20) throw new TypeError('fetch failed: redirect count exceeded');
      const next = new URL(location, `http://127.0.0.1${target}`);
      target = next.pathname + next.search;
      // fetch turns a 303 (and a POST answered 301/302) into a GET without a body.
      if (out.status === 303 || ([301, 302].includes(out.status) && currentMethod === 'POST')) {
        if (currentMethod !== 'HEAD') currentMethod = 'GET';
        body = undefined;
        for (const name of BODY_HEADERS) delete given[name];
      }
      continue;
    }

    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(out.headers))
      for (const one of [value].flat()) responseHeaders.append(name, one);
    const text = new TextDecoder().decode(bytes);
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: tests read .text
    }
    return { status: out.status, headers: responseHeaders, bytes, text, json };
  }
}

async function collect(body: Awaited<ReturnType<Dispatch>>['body']): Promise<Buffer> {
  if (body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

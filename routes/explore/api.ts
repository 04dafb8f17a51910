/**
 * The explorer's only source of data: the public APIs themselves, called in process. A page asks for
 * `/impact/v1/product/x` and gets exactly the status, headers and JSON a client would get over HTTP
 * (same router, same access stage, same quota bucket of the visitor's address), so what a page shows
 * is what the API serves, and no page has a private query of its own.
 */
import type { ApiRequest, Reply } from '../../lib/http/types.ts';

export interface ApiAnswer {
  status: number;
  /** Reply headers, lower-case names, as a client would see them (rate-limit headers included). */
  headers: Record<string, string>;
  /** The parsed JSON body, null when there is none or it is not JSON; read it with `dataOf`/`errorOf`. */
  json: unknown;
  /** The body's bytes, for answers that are not JSON (an evidence photo); empty for a streamed body. */
  bytes?: Buffer;
}

export interface ApiCallOptions {
  method?: string;
  /** Extra request headers (lower-case names), e.g. an Idempotency-Key. */
  headers?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /**
   * Called with the in-process request before it is dispatched, so that server code can mark it (the
   * tasks playground marks it as made by its key: routes/human/in-process-caller.ts). Never set from
   * anything the visitor sent.
   */
  prepare?: (req: ApiRequest) => void;
}

/** The `data` member of a JSON answer; the caller names its type from the operation's contract. */
export function dataOf<T>(answer: ApiAnswer): T {
  return (answer.json as { data: T }).data;
}

/** The `error` object of an error answer (`{ code, message, detail }`), empty when the body has none. */
export function errorOf(answer: ApiAnswer): { code?: string; message?: string; detail?: string } {
  const error = (answer.json as { error?: unknown } | null)?.error;
  return typeof error === 'object' && error !== null ? error : {};
}

export type Dispatch = (req: ApiRequest) => Promise<Reply | undefined>;

/** A client bound to the whole URL space; each call is made on behalf of the page's visitor. */
export function apiClient(dispatch: Dispatch) {
  return async function call(visitor: ApiRequest, target: string, options: ApiCallOptions = {}): Promise<ApiAnswer> {
    const method = options.method ?? 'GET';
    const body = options.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(options.body));
    const headers = {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    };
    const queryAt = target.indexOf('?');
    const req: ApiRequest = {
      method,
      originalMethod: method,
      url: 'http://localhost' + target,
      path: queryAt === -1 ? target : target.slice(0, queryAt),
      headers,
      query: {},
      params: {},
      id: visitor.id,
      secure: visitor.secure,
      ip: visitor.ip,
      ipBucket: visitor.ipBucket,
      now: visitor.now,
      replyHeaders: {},
      body: async () => body,
      toWebRequest: async () => new Request(req.url, { method, headers, body: method === 'GET' ? undefined : body }),
    };
    options.prepare?.(req);
    const reply = (await dispatch(req)) ?? { status: 404, body: '{}' };
    const replyHeaders: Record<string, string> = { ...req.replyHeaders };
    for (const [name, value] of Object.entries(reply.headers ?? {}))
      replyHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    const bytes =
      typeof reply.body === 'string'
        ? Buffer.from(reply.body)
        : Buffer.isBuffer(reply.body)
          ? reply.body
          : Buffer.alloc(0);
    const text = bytes.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null; // not JSON (an export stream, say): the page gets the status only
    }
    return { status: reply.status, headers: replyHeaders, json, bytes };
  };
}

export type ApiCall = ReturnType<typeof apiClient>;

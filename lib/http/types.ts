/**
 * The light request and reply objects the adapter hands to itty-router. Building a WHATWG
 * Request/Response per call cost most of the throughput in our probe (BENCHMARKS.md, "HTTP adapter"),
 * so handlers get these plain objects; `toWebRequest()` builds a real Request only for a handler that
 * needs one.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Where the access stage keeps what it served a request as (lib/http/access.ts grantOf). */
export const GRANT = Symbol('grant');

export interface ApiRequest {
  /** The method routes are matched on: HEAD is routed as GET (the body is dropped on the way out). */
  method: string;
  /** The method the client sent. */
  originalMethod: string;
  /** Absolute URL, as itty-router parses it. */
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Set by itty-router: repeated keys become arrays. */
  query: Record<string, string | string[] | undefined>;
  /** Set by itty-router; NOT URL-decoded (lib/validate.ts decodes). */
  params: Record<string, string>;
  /** The matched route pattern, set by itty-router; used as the metrics label. */
  route?: string;
  id: string;
  /** Served over https: a TLS socket, or X-Forwarded-Proto https from a trusted proxy. */
  secure: boolean;
  /** Client address (SPEC: socket, or nearest untrusted X-Forwarded-For hop). */
  ip: string;
  /** The bucket the address is counted in (IPv6 per /64). */
  ipBucket: string;
  /** Clock reading at arrival, UTC epoch ms: every time-dependent decision of a request uses it. */
  now: number;
  /** Headers every reply to this request carries, errors included (rate-limit accounting, CORS). */
  replyHeaders: Record<string, string>;
  /** Served by a READ_ONLY node (lib/http/read-only.ts): the services refuse writes, naming the primary. */
  readOnly?: { primaryUrl: string | null };
  /**
   * Set when the request was refused with 503 without being served (lib/http/unavailable.ts): a part
   * it needs is down, the database is busy, or it is a write on a read-only node. Such a request is
   * never counted against the client (the access stage gives its count back); the access log line and
   * the metrics carry the cause, and the dependency's state says the rest (lib/http/dependency.ts).
   */
  refused?: Refusal;
  /** Service name for logs and metrics, set by the service's first stage. */
  service?: string;
  /** The access stage's grant (lib/http/access.ts); read it with grantOf. */
  [GRANT]?: unknown;
  /**
   * Reads the body, refusing more than BODY_LIMIT_BYTES with 413; a route that takes more (photo
   * uploads) passes its own limit. The first call reads; later calls get the same bytes.
   */
  body(limitBytes?: number): Promise<Buffer>;
  toWebRequest(): Promise<Request>;
}

/** Why a request was refused unserved: the metric label and the access log's `refused` field. */
export type RefusalCause = 'redis' | 'cluster_primary' | 'database' | 'database_busy' | 'read_only';

export interface Refusal {
  cause: RefusalCause;
  /** The error as one line (SQLITE_FULL: database or disk is full), for the dependency's state. */
  detail: string;
}

export type ReplyBody = string | Buffer | AsyncIterable<string | Buffer> | null;

export interface Reply {
  status: number;
  /** An array value sends the header once per element (Set-Cookie). */
  headers?: Record<string, string | string[]>;
  body?: ReplyBody;
}

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && typeof (value as Reply).status === 'number';
}

const JSON_HEADERS: Record<string, string> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

export function jsonReply(status: number, payload: unknown, headers?: Record<string, string>): Reply {
  return {
    status,
    // Shared when there is nothing to add (the adapter copies a reply's headers, never writes to them).
    headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(payload),
  };
}

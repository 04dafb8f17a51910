/**
 * An HTTP client that behaves like a well-mannered crawler, for the funding sync and webhook deliveries
 * (db/webhooks/dispatcher.ts):
 *  - every request names trio and the operator's contact in its User-Agent;
 *  - at most `ratePerHost` requests per second to any one host (requests to a host are spaced out,
 *    never sent in a burst);
 *  - conditional requests when the caller has validators (If-None-Match / If-Modified-Since);
 *  - a timeout over the whole exchange, headers and body, and an optional deadline over all attempts
 *    (the sync's per-source time bound): no attempt starts, waits or runs past it;
 *  - retries of network errors (refused, reset, timed out, a body cut short), 429 and 5xx, with
 *    exponential backoff and jitter, honouring Retry-After (lib/funding/backoff.ts).
 * It is node's own fetch underneath; the clock for spacing and the sleep are injectable for tests.
 */
import { backoffMs, isRetryableStatus, retryAfterMs } from '../funding/backoff.ts';

export interface PoliteOptions {
  userAgent: string;
  ratePerHost: number;
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface PoliteRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: FormData | string;
  /** Validators from an earlier answer: sent as If-None-Match / If-Modified-Since. */
  etag?: string | null;
  /** 'manual': a 3xx is an answer like any other (webhook deliveries do not follow redirects). */
  redirect?: 'follow' | 'manual';
  lastModified?: string | null;
  /** UTC ms by which the answer must be in, retries included (a source's time bound). */
  deadline?: number;
}

export interface PoliteResponse {
  url: string;
  /** 200…299, 304 (not modified) or 404 (the caller decides what a 404 means); other statuses throw. */
  status: number;
  body: Buffer;
  etag: string | null;
  lastModified: string | null;
  /** Requests sent for this answer (1 + retries). */
  attempts: number;
}

/** A request that failed for good: after its retries, or at once for a status retrying cannot fix. */
export class FetchFailedError extends Error {
  /** What went wrong, without the URL (the message starts with it). */
  readonly reason: string;
  constructor(
    readonly url: string,
    readonly status: number | null,
    detail: string,
    readonly attempts: number,
    /** The last answer's Retry-After, when it sent one (a webhook delivery schedules its next attempt by it). */
    readonly retryAfter: string | null = null,
  ) {
    const reason = `${detail}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}`;
    super(`${url}: ${reason}`);
    this.reason = reason;
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PoliteClient {
  private readonly nextSlot = new Map<string, number>();
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** Every request sent, retries included (for the summary). */
  requests = 0;

  constructor(private readonly options: PoliteOptions) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
  }

  private timeoutFor(req: PoliteRequest): number {
    return remaining(this.options.timeoutMs, req.deadline, this.now());
  }

  /** Waits for this host's next free slot, then books the one after it. */
  private async slot(host: string): Promise<void> {
    const interval = 1000 / this.options.ratePerHost;
    const now = this.now();
    const at = Math.max(now, this.nextSlot.get(host) ?? 0);
    this.nextSlot.set(host, at + interval);
    if (at > now) await this.sleep(at - now);
  }

  async fetch(url: string, req: PoliteRequest = {}): Promise<PoliteResponse> {
    const host = new URL(url).host;
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, ...req.headers };
    if (req.etag) headers['if-none-match'] = req.etag;
    if (req.lastModified) headers['if-modified-since'] = req.lastModified;
    const late = (attempts: number, detail: string) =>
      new FetchFailedError(
        url,
        null,
        `${detail}: the source's time bound (FUNDING_SYNC_SOURCE_MAX) was reached`,
        attempts,
      );
    for (let attempt = 0; ; attempt++) {
      await this.slot(host);
      if (req.deadline !== undefined && this.now() >= req.deadline) throw late(attempt, 'not sent');
      this.requests++;
      let wait: number | null = null;
      let retryAfter: string | null = null;
      let failure: { status: number | null; detail: string };
      try {
        const res = await fetch(url, {
          method: req.method ?? 'GET',
          headers,
          body: req.body ?? null,
          redirect: req.redirect ?? 'follow',
          signal: AbortSignal.timeout(this.timeoutFor(req)),
        });
        // The body is read under the same timeout; a body cut short rejects here ("terminated").
        const body = Buffer.from(await res.arrayBuffer());
        const result = {
          url,
          status: res.status,
          body,
          etag: res.headers.get('etag'),
          lastModified: res.headers.get('last-modified'),
          attempts: attempt + 1,
        };
        if ((res.status >= 200 && res.status < 300) || res.status === 304 || res.status === 404) return result;
        failure = { status: res.status, detail: `HTTP ${res.status}${snippet(body)}` };
        retryAfter = res.headers.get('retry-after');
        if (!isRetryableStatus(res.status))
          throw new FetchFailedError(url, res.status, failure.detail, attempt + 1, retryAfter);
        wait = retryAfterMs(retryAfter, this.now());
      } catch (err) {
        if (err instanceof FetchFailedError) throw err;
        if (req.deadline !== undefined && this.now() >= req.deadline) throw late(attempt + 1, 'no answer');
        failure = { status: null, detail: describe(err, this.options.timeoutMs) };
      }
      if (attempt >= this.options.retries)
        throw new FetchFailedError(url, failure.status, failure.detail, attempt + 1, retryAfter);
      if (wait !== null && wait > this.options.retryMaxMs) {
        throw new FetchFailedError(
          url,
          failure.status,
          `${failure.detail}; Retry-After asks for ${Math.round(wait / 1000)} s, more than FUNDING_SYNC_RETRY_MAX_MS`,
          attempt + 1,
        );
      }
      const delay = Math.max(
        wait ?? 0,
        backoffMs(attempt, this.options.retryBaseMs, this.options.retryMaxMs, this.random),
      );
      if (req.deadline !== undefined && this.now() + delay >= req.deadline)
        throw late(attempt + 1, `${failure.detail}; no time left to retry`);
      // Retry-After also holds the host's next slot back: no other request goes there sooner.
      this.nextSlot.set(host, Math.max(this.nextSlot.get(host) ?? 0, this.now() + delay));
    }
  }
}

/** The request's timeout: the configured one, shortened to what is left before its deadline. */
function remaining(timeoutMs: number, deadline: number | undefined, now: number): number {
  return deadline === undefined ? timeoutMs : Math.max(1, Math.min(timeoutMs, deadline - now));
}

function snippet(body: Buffer): string {
  const s = body.subarray(0, 200).toString('utf8').replace(/\s+/g, ' ').trim();
  return s ? `: ${s}` : '';
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return `no complete answer within ${timeoutMs} ms (timeout)`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `network error: ${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}

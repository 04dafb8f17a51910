/**
 * Keeps every HTTP exchange a test makes: while installed, the global fetch (which the console
 * client, the plain requests and, given as its `fetch`, the MCP client all use) is wrapped so that
 * each response's status, headers and body are recorded along with the request's cookies. The
 * secrets test scans all of it afterwards; nothing a server sent can be missed by forgetting to look.
 */

export interface Exchange {
  n: number;
  method: string;
  url: string;
  /** The request's Cookie header ('' when none): tells whose page a response is. */
  requestCookie: string;
  status: number;
  headers: Headers;
  /** The body as latin1 (byte for byte), so binary evidence is scanned too. */
  body: string;
}

export class Capture {
  readonly exchanges: Exchange[] = [];
  private readonly pending: Array<Promise<void>> = [];
  private original: typeof fetch | null = null;

  /** A fetch that records; usable directly (the MCP transport's `fetch` option) or installed. */
  readonly fetch: typeof fetch = async (input, init) => {
    const base = this.original ?? globalThis.fetch;
    const request = input instanceof Request ? input : null;
    const method = init?.method ?? request?.method ?? 'GET';
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers ?? request?.headers);
    const res = await base(input, init);
    const n = this.exchanges.length;
    const copy = res.clone();
    this.pending.push(
      copy.arrayBuffer().then((bytes) => {
        this.exchanges[n] = {
          n,
          method,
          url,
          requestCookie: headers.get('cookie') ?? '',
          status: res.status,
          headers: res.headers,
          body: Buffer.from(bytes).toString('latin1'),
        };
      }),
    );
    this.exchanges.length = n + 1;
    return res;
  };

  install(): void {
    this.original = globalThis.fetch;
    globalThis.fetch = this.fetch;
  }

  uninstall(): void {
    if (this.original) globalThis.fetch = this.original;
    this.original = null;
  }

  /** Waits for every recorded body; the exchanges are complete after this. */
  async settle(): Promise<Exchange[]> {
    await Promise.all(this.pending);
    return this.exchanges;
  }
}

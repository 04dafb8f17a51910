/**
 * A raw HTTP/1.1 client over node:net for the abuse tests: it sends bytes exactly as written (no
 * header normalisation, no framing of its own, so smuggling shapes and byte-at-a-time headers reach
 * the server as they would from a hostile client) and reports what came back: the raw bytes, the
 * responses parsed out of them, and whether and when the server closed the connection.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private readonly chunks: Buffer[] = [];
  private readonly socket: Socket;
  readonly opened: Promise<void>;
  /** Resolves when the server (or the network) closed the connection; never rejects. */
  readonly closed: Promise<void>;
  closedAt: number | null = null;
  readonly openedAt = Date.now();
  error: string | null = null;

  constructor(port: number, host = '127.0.0.1') {
    this.socket = connect({ port, host, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.socket.on('error', (err: NodeJS.ErrnoException) => (this.error = err.code ?? err.message));
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) =>
      this.socket.once('close', () => {
        this.closedAt = Date.now();
        resolve();
      }),
    );
  }

  get isClosed(): boolean {
    return this.closedAt !== null;
  }

  /**
   * Writes bytes as given; resolves once they are handed to the kernel or the socket is gone. A server
   * that stops reading without closing makes this fail after 30 s rather than wait for ever.
   */
  async write(bytes: string | Buffer): Promise<void> {
    await this.opened;
    if (this.socket.destroyed || !this.socket.writable) return;
    await new Promise<void>((resolve, reject) => {
      const stalled = setTimeout(
        () => reject(new Error('write stalled: the server stopped reading and did not close')),
        30_000,
      );
      const done = () => {
        clearTimeout(stalled);
        resolve();
      };
      this.socket.write(bytes, done);
      void this.closed.then(done);
    });
  }

  /** Writes the bytes one at a time with a pause between them; stops early if the server closes. */
  async trickle(bytes: string, pauseMs: number): Promise<number> {
    let sent = 0;
    for (const ch of bytes) {
      if (this.isClosed || !this.socket.writable) break;
      await this.write(ch);
      sent++;
      await sleep(pauseMs);
    }
    return sent;
  }

  get raw(): Buffer {
    return Buffer.concat(this.chunks);
  }

  get text(): string {
    return this.raw.toString('latin1');
  }

  get responses(): RawResponse[] {
    return parseResponses(this.raw);
  }

  /** Waits until `count` complete responses have arrived or the connection closed; false on timeout. */
  async waitForResponses(count: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.responses.length >= count || this.isClosed) return true;
      await sleep(10);
    }
    return false;
  }

  /** Waits for the close; false when it did not come within timeoutMs. */
  async waitForClose(timeoutMs: number): Promise<boolean> {
    const timer = sleep(timeoutMs).then(() => false);
    return Promise.race([this.closed.then(() => true), timer]);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** One request's bytes out, its answer back: waits for `responses` answers or the close. */
export async function exchange(
  port: number,
  bytes: string | Buffer,
  options: { responses?: number; timeoutMs?: number } = {},
) {
  const conn = new RawConnection(port);
  await conn.write(bytes);
  await conn.waitForResponses(options.responses ?? 1, options.timeoutMs ?? 10_000);
  // Give a closing server a moment to finish the close it announced, so `isClosed` is settled.
  if (conn.responses.some((r) => r.headers.connection === 'close')) await conn.waitForClose(2_000);
  return conn;
}

/**
 * Splits raw bytes into the HTTP/1.1 responses they hold (Content-Length or chunked framing; a body
 * with neither runs to the end of the bytes). An incomplete last response is left out.
 */
export function parseResponses(raw: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < raw.length) {
    const headEnd = raw.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = raw.subarray(at, headEnd).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers[name] =
        headers[name] === undefined
          ? line.slice(colon + 1).trim()
          : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
    }
    let bodyStart = headEnd + 4;
    let body: Buffer;
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (raw.length < bodyStart + length) break;
      body = raw.subarray(bodyStart, bodyStart + length);
      at = bodyStart + length;
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      let complete = false;
      for (;;) {
        const sizeEnd = raw.indexOf('\r\n', bodyStart);
        if (sizeEnd === -1) break;
        const size = parseInt(raw.subarray(bodyStart, sizeEnd).toString('latin1'), 16);
        if (size === 0) {
          const trailerEnd = raw.indexOf('\r\n\r\n', sizeEnd);
          if (trailerEnd === -1) break;
          at = trailerEnd + 4;
          complete = true;
          break;
        }
        if (raw.length < sizeEnd + 2 + size + 2) break;
        parts.push(raw.subarray(sizeEnd + 2, sizeEnd + 2 + size));
        bodyStart = sizeEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(parts);
    } else {
      const status = Number(match[1]);
      // 204/304 and bodiless answers (node's own parser errors) end at the blank line.
      if (status === 204 || status === 304 || headers.connection === 'close') {
        body = raw.subarray(bodyStart);
        at = raw.length;
      } else {
        body = Buffer.alloc(0);
        at = bodyStart;
      }
    }
    out.push({ status: Number(match[1]), headers, body: body.toString('utf8') });
  }
  return out;
}

/** Opens `count` connections that send nothing; resolves once all are connected. */
export async function openIdle(port: number, count: number): Promise<RawConnection[]> {
  const conns = Array.from({ length: count }, () => new RawConnection(port));
  await Promise.all(conns.map((c) => c.opened));
  return conns;
}

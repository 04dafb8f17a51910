/**
 * A raw HTTP client for the fuzzer. fetch (WHATWG URL) would normalise exactly what the fuzzer wants
 * to send: it resolves `..` and `%2e%2e` segments, re-encodes characters and forbids some headers.
 * node:http sends the request target byte for byte (it only refuses raw control characters and
 * spaces, which a real client would percent-encode anyway), repeated headers included.
 */
import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent: path and query, already percent-encoded as intended. */
  target: string;
  /** Header name → value; an array sends the header once per value. */
  headers: Record<string, string | string[]>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  body: Buffer;
  text: string;
  /**
   * The parsed body when it is JSON (undefined otherwise or when it does not parse). For an event
   * stream (MCP answers 2025-era requests with one SSE `message` event), the JSON of its one event.
   */
  json: unknown;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export function sendRaw(baseUrl: string, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
    const headers: Record<string, string | string[]> = { ...req.headers };
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
      headers['content-length'] = String(body.length);
    const outgoing = request(
      { host: hostname, port, method: req.method, path: req.target, headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const buffer = Buffer.concat(chunks);
          const contentType = String(res.headers['content-type'] ?? '');
          const text = buffer.toString('utf8');
          let json: unknown;
          const data = /^text\/event-stream/i.test(contentType)
            ? text
                .split('\n')
                .filter((l) => l.startsWith('data:'))
                .map((l) => l.slice(5).trim())
                .join('\n')
            : /json/i.test(contentType)
              ? text
              : undefined;
          if (data !== undefined) {
            try {
              json = JSON.parse(data);
            } catch {
              json = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, contentType, body: buffer, text, json });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export const closeRawAgent = () => agent.destroy();

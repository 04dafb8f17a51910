/**
 * Truly parallel HTTP for the quota tests: every request on its own socket (node:http, no keep-alive,
 * no socket limit), all issued before any answer is read, so the server sees them interleaved rather
 * than one after another. A request that dies on the wire (reset, refused during a restart) comes
 * back with status 0 and the error code instead of failing the whole burst.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  error?: string;
}

export interface BurstOptions {
  method?: string;
  /** Headers of the i-th request (a key, an X-Forwarded-For). */
  headers?: (i: number) => Record<string, string>;
  /** Called as each answer arrives (how many have arrived so far). */
  onAnswer?: (arrived: number) => void;
}

export async function burst(
  baseUrl: string,
  path: string | ((i: number) => string),
  count: number,
  options: BurstOptions = {},
): Promise<Answer[]> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  let arrived = 0;
  const one = (i: number) =>
    new Promise<Answer>((resolve) => {
      const url = new URL(typeof path === 'string' ? path : path(i), baseUrl);
      const req = request(
        url,
        { method: options.method ?? 'GET', agent, headers: options.headers?.(i) ?? {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (err: NodeJS.ErrnoException) =>
            resolve({ status: 0, headers: {}, body: '', error: err.code ?? err.message }),
          );
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ status: 0, headers: {}, body: '', error: err.code ?? err.message }),
      );
      // A request nobody answers fails by itself instead of stalling the burst.
      req.setTimeout(60_000, () => req.destroy(Object.assign(new Error('no answer in 60 s'), { code: 'TIMEOUT' })));
      req.end();
    }).then((answer) => {
      options.onAnswer?.(++arrived);
      return answer;
    });
  try {
    return await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
  } finally {
    agent.destroy();
  }
}

/** How many answers had each status: {200: 100, 429: 400}. */
export function tally(answers: Answer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

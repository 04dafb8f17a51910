/**
 * What every benchmark shares: servers in child processes (one core for the server, one for the load),
 * closed-loop load by autocannon with every response's latency recorded, the machine's description,
 * and writing a section of BENCHMARKS.md between markers so notes around it survive reruns.
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { refreshDocFigures } from './doc-figures.ts';

export const ROOT = join(import.meta.dirname, '..');
const BENCHMARKS_MD = join(ROOT, 'BENCHMARKS.md');

export interface Measurement {
  connections: number;
  /** Responses after the warm-up: the latencies measured. */
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Responses after the warm-up whose status was not 2xx. */
  non2xx: number;
  errors: number;
  /** Every response, warm-up included (the denominator of a server's CPU per request). */
  all: number;
}

/**
 * What a run sends: one request, or each request the next path of `paths` (a mix, shared by all
 * connections). `perRequest` adds headers to each request (a new Idempotency-Key); `onResponse` sees
 * every response's status and body, warm-up included (the refs of the orders a run created).
 */
export interface Load {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  paths?: readonly string[];
  perRequest?: () => Record<string, string>;
  onResponse?: (status: number, body: string) => void;
}

/** A positive number option (`--duration 6`), or the fallback when absent. */
export function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const n = Number(args[at + 1]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} needs a positive number`);
  return n;
}

export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–';

/** A server child; `stdout: 'ignore'` sends what it writes there (a server's log) to /dev/null. */
export async function startChild(
  file: string,
  args: string[],
  options: { stdout?: 'inherit' | 'ignore' } = {},
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(import.meta.dirname, file), args, {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before listening`)));
  });
  return { child, port };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.send('stop');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** Peak resident set (VmHWM) of a process, bytes; 0 where /proc is not there. */
export function peakRss(pid: number | undefined): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function fetchOnce(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** trio's response headers, minus the ones node:http writes itself. */
export function replayableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name) ||
      value === undefined
    )
      continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function cannon(
  url: string,
  connections: number,
  seconds: number,
  onResponse: (ms: number, status: number) => void,
  load: Load = {},
): Promise<autocannon.Result> {
  let next = 0;
  const target = new URL(url);
  const request = {
    method: load.method ?? 'GET',
    path: `${target.pathname}${target.search}`,
    ...(load.headers ? { headers: load.headers } : {}),
    ...(load.body !== undefined ? { body: load.body } : {}),
    ...(load.paths || load.perRequest
      ? {
          setupRequest: (req: { headers?: Record<string, string>; path?: string }) => ({
            ...req,
            ...(load.perRequest ? { headers: { ...req.headers, ...load.perRequest() } } : {}),
            ...(load.paths ? { path: load.paths[next++ % load.paths.length]! } : {}),
          }),
        }
      : {}),
    ...(load.onResponse ? { onResponse: load.onResponse } : {}),
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections, pipelining: 1, duration: seconds, timeout: 120, requests: [request as autocannon.Request] },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, status, _bytes, ms) => onResponse(ms, status));
  });
}

/**
 * One closed-loop run of warm-up + duration seconds; only responses that complete after the warm-up
 * count. Requests still in flight when the run ends were abandoned by the client but may still be
 * computed by the server, so before the next measurement we wait until `idleUrl` answers promptly.
 */
export async function measure(
  url: string,
  connections: number,
  warmupS: number,
  durationS: number,
  idleUrl: string,
  load: Load = {},
): Promise<Measurement> {
  const latencies: number[] = [];
  let non2xx = 0;
  let all = 0;
  const started = process.hrtime.bigint();
  const from = started + BigInt(Math.round(warmupS * 1e9));
  const result = await cannon(
    url,
    connections,
    warmupS + durationS,
    (ms, status) => {
      all++;
      if (process.hrtime.bigint() < from) return;
      latencies.push(ms);
      if (status < 200 || status > 299) non2xx++;
    },
    load,
  );
  const seconds = Number(process.hrtime.bigint() - from) / 1e9;
  await waitIdle(idleUrl);
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies.length === 0 ? NaN : latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!;
  return {
    connections,
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    non2xx,
    errors: result.errors + result.timeouts,
    all,
  };
}

export async function waitIdle(url: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const t = process.hrtime.bigint();
    await fetchOnce(url);
    if (Number(process.hrtime.bigint() - t) / 1e6 < 20) return;
  }
}

/** One measurement on a console line; `extra` goes after the latencies (a server's CPU per request). */
export const describe = (m: Measurement, extra = '') =>
  `${fmt(m.rps, 0).padStart(7)} req/s  p50 ${fmt(m.p50, 2)}  p95 ${fmt(m.p95, 2)}  p99 ${fmt(m.p99, 2)} ms${extra}  (${m.requests} requests${m.non2xx ? `, ${m.non2xx} non-2xx` : ''}${m.errors ? `, ${m.errors} errors` : ''})`;

export function machine(sqlite: string): string {
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? model;
  } catch {
    // not Linux: os.cpus() is enough
  }
  const pkg = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return (
    `${cpus().length} × ${model}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${process.platform} ${process.arch}, Node ${process.version}, ` +
    `SQLite ${sqlite} (better-sqlite3 ${pkg('better-sqlite3')}), load by autocannon ${pkg('autocannon')}`
  );
}

/** Prints a benchmark's report and, unless the run says `--no-write`, writes it as its BENCHMARKS.md block. */
export function printAndWrite(args: readonly string[], name: string, heading: string, report: string): void {
  console.log('\n' + report);
  if (!args.includes('--no-write')) writeBenchmarkSection(name, heading, report);
}

export function writeBenchmarkSection(name: string, heading: string, report: string, script = name): void {
  const begin = `<!-- bench:${name}:begin — written by bench/${script}.ts on each run; notes go outside these markers -->`;
  const endMark = `<!-- bench:${name}:end -->`;
  const block = `${begin}\n${report}\n${endMark}`;
  let text = existsSync(BENCHMARKS_MD)
    ? readFileSync(BENCHMARKS_MD, 'utf8')
    : '# Benchmarks\n\nSpeed targets live here, never in unit tests. Each benchmark measures its baseline in the same run.\n';
  const at = text.indexOf(`<!-- bench:${name}:begin`);
  const end = text.indexOf(endMark);
  if (at !== -1 && end > at) text = text.slice(0, at) + block + text.slice(end + endMark.length);
  else if (!text.includes(heading)) text = `${text.trimEnd()}\n\n${heading}\n\n${block}\n`;
  else text = `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(BENCHMARKS_MD, text);
  // The documents quote figures from these blocks: they follow every run (bench/doc-figures.ts).
  try {
    for (const doc of refreshDocFigures()) console.log(`${doc}: its figures now follow this run`);
  } catch (err) {
    console.error(`The documents' figures cannot follow this run: ${(err as Error).message}`);
  }
}

/** Asks a server child (bench/server-control.ts) and waits for its `{ stats }` answer. */
export function ask(child: ChildProcess, message: string): Promise<unknown> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { stats: unknown }).stats));
    child.send(message);
  });
}

/**
 * The server's CPU time (user + system) per request over a measurement, warm-up included: a figure
 * that does not depend on what else the machine is doing, unlike requests per second.
 */
export async function withCpu<M extends Measurement>(
  child: ChildProcess,
  run: () => Promise<M>,
): Promise<M & { cpuUs: number }> {
  const before = (await ask(child, 'cpu')) as NodeJS.CpuUsage;
  const m = await run();
  const after = (await ask(child, 'cpu')) as NodeJS.CpuUsage;
  return { ...m, cpuUs: (after.user - before.user + after.system - before.system) / Math.max(1, m.all) };
}

/** A server measured in turns with others (bench/impact.ts, bench/request-path.ts). */
export interface Turn {
  label: string;
  /** The first request's URL (the load's paths give the rest), and the URL that says the server is idle again. */
  url: string;
  idleUrl: string;
  /** The server's process: its CPU per request is measured too. */
  child?: ChildProcess;
  /** The best round at each connection count (most requests/s). */
  best: Map<number, Measurement & { cpuUs?: number }>;
  /** Every round at each connection count, in order (for medians and per-round ratios). */
  rounds?: Map<number, Array<Measurement & { cpuUs?: number }>>;
}

/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Servers measured in turn, `rounds` times at each connection count: every server stays up, idle while
 * another is measured, because on a shared machine the load drifts and alternating keeps the drift out
 * of their ratio. The best round of each is kept.
 */
export async function inTurns(
  turns: Turn[],
  name: string,
  connections: readonly number[],
  rounds: number,
  time: { warmupS: number; durationS: number },
  load: Load,
): Promise<void> {
  for (const c of connections)
    for (let round = 1; round <= rounds; round++)
      for (const turn of turns) {
        const run = () => measure(turn.url, c, time.warmupS, time.durationS, turn.idleUrl, load);
        const m: Measurement & { cpuUs?: number } = turn.child ? await withCpu(turn.child, run) : await run();
        if (!turn.best.has(c) || m.rps > turn.best.get(c)!.rps) turn.best.set(c, m);
        if (turn.rounds) turn.rounds.set(c, [...(turn.rounds.get(c) ?? []), m]);
        const cpu = m.cpuUs === undefined ? '' : `  CPU ${fmt(m.cpuUs, 1)} µs/req`;
        console.log(
          `${turn.label} ${name.padEnd(60)} ${String(c).padStart(2)} conn, round ${round}: ${describe(m, cpu)}  (load ${loadavg()[0]!.toFixed(2)})`,
        );
      }
}

/** A measurement's responses that were not 2xx, as a table cell says it. */
export const not2xx = (m: Measurement) => (m.non2xx ? ` (${m.non2xx} not 2xx)` : '');

/** The run's 1-minute load average before and after, and whether other work shared the machine. */
export function loadSentence(before: number, after: number): string {
  const loaded = Math.max(before, after) > 1.5;
  return (
    `1-minute load average ${before.toFixed(2)} before the run and ${after.toFixed(2)} after, on ${cpus().length} cores` +
    (loaded
      ? ': **loaded machine**, requests/s and latency are lower and noisier than on an idle one (CPU per request holds better).'
      : '.')
  );
}

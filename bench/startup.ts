/**
 * `npm run bench -- startup [--runs N] [--requests N] [--no-write]`
 *
 * What the bundle saves at start: the time from spawning `serve` to the first 200 from /readyz, the
 * resident memory right after that, and after a short warm-up (a few hundred requests over the three
 * APIs, the console and /metrics), for
 *   - `node dist/main.js serve`, the bundle (`npm run build`), beside node_modules holding only
 *     better-sqlite3, as in production;
 *   - `tsx main.ts serve`, what `npm start` runs: tsx's CLI relays to a second node process, so its
 *     memory is the sum over the process tree;
 *   - `node --import tsx main.ts serve`, the same loader in one process (the tests' way).
 * Each runs N times (default 7), interleaved so that a slow moment of the machine hurts all alike, on
 * the same demo database; the table gives medians. Warm-up requests come from distinct addresses
 * (X-Forwarded-For, TRUST_PROXY=loopback) so that anonymous rate limits do not turn them into 429s.
 */
import Database from 'better-sqlite3';
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildBundle, EXTERNAL } from '../deploy/build.ts';
import { fmt, machine, option, printAndWrite, ROOT } from './load.ts';

interface Variant {
  name: string;
  command: string[];
  cwd: string;
}
interface Sample {
  readyMs: number;
  rssStartMb: number;
  rssWarmMb: number;
  non2xx: number;
}

const WARMUP_PATHS = [
  '/readyz',
  '/impact/v1/products',
  '/impact/v1/product/smartphone',
  '/impact/v1/compare?a=smartphone&b=laptop',
  '/funding/v1/search?q=energy',
  '/funding/v1/search?q=hydrogen&status=open',
  '/human/v1/capabilities',
  '/human/v1/coverage',
  '/impact/v1/openapi.json',
  '/console/sign-in',
  '/metrics',
  '/',
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Resident memory of a process and all its descendants, in MB (Linux /proc; 0 elsewhere). */
function treeRssMb(pid: number): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      parents.set(Number(entry), Number(/PPid:\s+(\d+)/.exec(status)?.[1]));
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
    } catch {
      // the process ended while we looked
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree.reduce((sum, p) => sum + (rss.get(p) ?? 0), 0) / 1024;
}

async function warmUp(url: string, requests: number, addressBase: number): Promise<number> {
  let next = 0;
  let non2xx = 0;
  const worker = async () => {
    while (next < requests) {
      const i = next++;
      const n = addressBase + i;
      const res = await fetch(url + WARMUP_PATHS[i % WARMUP_PATHS.length], {
        headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
        redirect: 'manual',
      });
      await res.arrayBuffer();
      if (res.status >= 300) non2xx++;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return non2xx;
}

async function sampleOnce(
  variant: Variant,
  databasePath: string,
  requests: number,
  addressBase: number,
): Promise<Sample> {
  const started = performance.now();
  const child = spawn(variant.command[0]!, variant.command.slice(1), {
    cwd: variant.cwd,
    env: { ...process.env, PORT: '0', DATABASE_PATH: databasePath, LOG_LEVEL: 'info', TRUST_PROXY: 'loopback' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = once(child, 'exit');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const m = /"url":"([^"]+)".*"msg":"trio is serving"/.exec(line);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`${variant.name} exited before serving`)));
    });
    child.stdout!.resume();
    while (
      (await fetch(url + '/readyz').then(
        (r) => r.status,
        () => 0,
      )) !== 200
    )
      await new Promise((r) => setTimeout(r, 5));
    const readyMs = performance.now() - started;
    const rssStartMb = treeRssMb(child.pid!);
    const non2xx = await warmUp(url, requests, addressBase);
    return { readyMs, rssStartMb, rssWarmMb: treeRssMb(child.pid!), non2xx };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export async function run(args: string[]): Promise<void> {
  const runs = option(args, '--runs', 7);
  const requests = option(args, '--requests', 600);
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-startup-'));
  try {
    const t0 = performance.now();
    const built = await buildBundle(join(dir, 'app', 'dist'));
    const buildMs = performance.now() - t0;
    mkdirSync(join(dir, 'app', 'node_modules'));
    for (const name of EXTERNAL)
      symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'app', 'node_modules', name), 'dir');
    const databasePath = join(dir, 'trio.sqlite');
    execFileSync(process.execPath, [built.main, 'demo', '--json'], {
      cwd: join(dir, 'app'),
      env: { ...process.env, DATABASE_PATH: databasePath },
      stdio: 'ignore',
    });

    const variants: Variant[] = [
      {
        name: 'node dist/main.js serve (bundle)',
        command: [process.execPath, built.main, 'serve'],
        cwd: join(dir, 'app'),
      },
      {
        name: 'tsx main.ts serve (npm start)',
        command: [join(ROOT, 'node_modules', '.bin', 'tsx'), 'main.ts', 'serve'],
        cwd: ROOT,
      },
      {
        name: 'node --import tsx main.ts serve',
        command: [process.execPath, '--import', 'tsx', 'main.ts', 'serve'],
        cwd: ROOT,
      },
    ];
    console.log(
      `startup: ${runs} runs of each, ${requests} warm-up requests; bundle ${(built.bytes / 1024).toFixed(0)} KiB built in ${(buildMs / 1000).toFixed(1)} s`,
    );
    const samples = new Map<Variant, Sample[]>(variants.map((v) => [v, []]));
    let addressBase = 0;
    for (let r = 0; r < runs; r++) {
      for (const v of variants) {
        const s = await sampleOnce(v, databasePath, requests, (addressBase += requests));
        samples.get(v)!.push(s);
        console.log(
          `  ${v.name.padEnd(34)} ready ${fmt(s.readyMs, 0).padStart(5)} ms  RSS ${fmt(s.rssStartMb, 0)} MB, after warm-up ${fmt(s.rssWarmMb, 0)} MB${s.non2xx ? `  (${s.non2xx} non-2xx)` : ''}`,
        );
      }
    }

    const sqlite = new Database(':memory:').prepare('SELECT sqlite_version()').pluck().get() as string;
    const rows = variants.map((v) => {
      const s = samples.get(v)!;
      return `| ${v.name} | ${fmt(median(s.map((x) => x.readyMs)), 0)} | ${fmt(median(s.map((x) => x.rssStartMb)), 0)} | ${fmt(median(s.map((x) => x.rssWarmMb)), 0)} |`;
    });
    const report = [
      `Machine: ${machine(sqlite)}. Demo database; ${runs} runs of each, interleaved; medians. Ready: from spawning the command to the first 200 from /readyz. ` +
        `RSS: resident memory of the process tree right after ready, and after ${requests} warm-up requests (4 at a time over the three APIs, the console and /metrics). ` +
        `Bundle: ${(built.bytes / 1024).toFixed(0)} KiB (esbuild, everything but better-sqlite3).`,
      '',
      '| command | ready (ms) | RSS at ready (MB) | RSS after warm-up (MB) |',
      '|---|---:|---:|---:|',
      ...rows,
    ].join('\n');
    printAndWrite(args, 'startup', '## Start time and memory (npm run bench -- startup)', report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await run(process.argv.slice(2));

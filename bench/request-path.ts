/**
 * `npm run bench -- request-path [--duration S] [--warmup S] [--rounds N] [--profile[=DIR]] [--no-write]`
 *
 * What one request costs on trio's whole path (issues 29 and 37), for the requests users send most,
 * beside raw node:http answering the very bytes trio sent for each path, and beside Fastify answering
 * the same bytes from routes of the same patterns, in the same run, each in its own process, in turns,
 * `--rounds` rounds (5), medians (a ratio: the median of the rounds' ratios):
 *  - GET /healthz: the whole app's router and adapter, no service;
 *  - GET /human/v1/tasks/{ref}/result with a key: key lookup, per-minute limit, one task read;
 *  - GET /funding/v1/search, anonymous, each query already in the page cache;
 *  - GET /impact/v1/product/{slug}, anonymous (a day quota counted), from the response cache.
 * For each: requests/s and latency at 1 and 32 connections, the ratio to the baseline at 32, and the
 * server's CPU time per request (process.cpuUsage, a figure that holds on a loaded machine), and trio's
 * own work a request in process (its dispatch in a loop, no socket: steady at any load). trio runs
 * as `serve` does, access log included (bench/request-path-server.ts). With --profile, each request is
 * also profiled under 32 connections (V8's sampling profiler) and where its microseconds go is written
 * to BENCHMARKS.md beside the figures (bench/profile-table.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createKey } from '../db/accounts.ts';
import { openDatabase } from '../db/connection.ts';
import { loadMissingDemo } from '../db/demo.ts';
import { migrate } from '../db/migrate.ts';
import { QUERY_MIX, SEARCH } from './funding-queries.ts';
import { BENCH_ORDER } from './human-orders.ts';
import {
  ask,
  describe,
  fetchOnce,
  fmt,
  machine,
  measure,
  option,
  replayableHeaders,
  inTurns,
  loadSentence,
  median,
  not2xx,
  startChild,
  stopChild,
  writeBenchmarkSection,
  type Measurement,
} from './load.ts';
import { profileTable, type CpuProfile } from './profile-table.ts';
import type { Recorded } from './request-path-server.ts';

const CONNECTIONS = [1, 32] as const;
/** Issue 29's targets, at 32 connections. */
const RATIO_TARGET = 0.5;
const KEYED_CPU_TARGET_US = 40;

type Cpu = Measurement & { cpuUs: number };
interface Row {
  id: string;
  name: string;
  paths: string[];
  headers?: Record<string, string>;
  target?: number;
  trio: Map<number, Cpu[]>;
  raw: Map<number, Cpu[]>;
  fastify: Map<number, Cpu[]>;
  /** trio's own work a request, in process (no socket). */
  ownUs?: number;
  profile?: string;
}

export async function run(args: string[]): Promise<void> {
  const durationS = option(args, '--duration', 6);
  const warmupS = option(args, '--warmup', 1.5);
  const rounds = option(args, '--rounds', 5);
  const loadBefore = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-path-'));
  // --profile=DIR keeps the .cpuprofile files there (a flame graph: Chrome DevTools' Performance panel, speedscope).
  const keep = args.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
  const profileDir = keep ? (mkdirSync(keep, { recursive: true }), keep) : dir;
  const databasePath = join(dir, 'trio.sqlite');
  let trio: { child: ChildProcess; port: number } | undefined;
  let raw: { child: ChildProcess; port: number } | undefined;
  let fastify: { child: ChildProcess; port: number } | undefined;
  try {
    const { key, slugs, sqlite } = prepare(databasePath);
    trio = await startChild('request-path-server.ts', ['trio', databasePath], { stdout: 'ignore' });
    const base = `http://127.0.0.1:${trio.port}`;
    const authorization = `Bearer ${key}`;
    const refs = await order(base, authorization, 100);
    const row = (id: string, name: string, paths: string[], extra: Partial<Row> = {}): Row => ({
      id,
      name,
      paths,
      trio: new Map(),
      raw: new Map(),
      fastify: new Map(),
      ...extra,
    });
    const rows = [
      row('light', 'GET /healthz (the whole app, no service)', ['/healthz']),
      row(
        'keyed',
        'GET /human/v1/tasks/{ref}/result with a key',
        refs.map((r) => `/human/v1/tasks/${r}/result`),
        { headers: { authorization }, target: RATIO_TARGET },
      ),
      row(
        'search',
        'GET /funding/v1/search, anonymous, from the page cache',
        QUERY_MIX.filter((q) => q.name !== 'identifier').map((q) => `${SEARCH}?${new URLSearchParams(q.params)}`),
        { target: RATIO_TARGET },
      ),
      row(
        'impact',
        'GET /impact/v1/product/{slug}, anonymous, from the response cache',
        slugs.map((s) => `/impact/v1/product/${s}`),
        { target: RATIO_TARGET },
      ),
    ];
    const profiled: Row[] = [];
    const recorded: Recorded[] = [];
    for (const r of rows)
      for (const path of r.paths) {
        const res = await fetchOnce(base + path, r.headers);
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
        recorded.push({
          path,
          status: 200,
          headers: replayableHeaders(res.headers),
          body: res.body.toString('base64'),
        });
      }
    writeFileSync(join(dir, 'recorded.json'), JSON.stringify(recorded));
    raw = await startChild('request-path-server.ts', ['raw', join(dir, 'recorded.json')]);
    fastify = await startChild('request-path-server.ts', ['fastify', join(dir, 'recorded.json')]);
    for (const r of rows) {
      const at = (port: number) => `http://127.0.0.1:${port}`;
      await inTurns(
        [
          {
            label: 'trio',
            url: at(trio.port) + r.paths[0],
            idleUrl: `${at(trio.port)}/healthz`,
            child: trio.child,
            best: new Map(),
            rounds: r.trio,
          },
          {
            label: 'raw ',
            url: at(raw.port) + r.paths[0],
            idleUrl: at(raw.port) + r.paths[0],
            child: raw.child,
            best: new Map(),
            rounds: r.raw,
          },
          {
            label: 'fast',
            url: at(fastify.port) + r.paths[0],
            idleUrl: at(fastify.port) + r.paths[0],
            child: fastify.child,
            best: new Map(),
            rounds: r.fastify,
          },
        ],
        r.name,
        CONNECTIONS,
        rounds,
        { warmupS, durationS },
        { paths: r.paths, ...(r.headers ? { headers: r.headers } : {}) },
      );
    }

    for (const r of rows) {
      const ask64 = Buffer.from(JSON.stringify({ paths: r.paths, headers: r.headers ?? {} })).toString('base64');
      r.ownUs = (await ask(trio.child, `inprocess ${ask64}`)) as number;
      console.log(`trio ${r.name.padEnd(60)} in process: ${fmt(r.ownUs, 1)} µs of trio's own work a request`);
    }

    if (args.includes('--profile') || keep) {
      // The light route of issue 29: the adapter and itty-router alone, as `npm run bench -- adapter` runs them.
      const adapter = await startChild('adapter-server.ts', ['trio']);
      try {
        const light: Row = row('adapter', 'the adapter and itty-router alone, a JSON row (bench -- adapter)', ['/row']);
        light.profile = await profileOf(adapter, light, profileDir, durationS);
        profiled.push(light);
      } finally {
        await stopChild(adapter.child);
      }
      // Fastify on the same row, the same load: where a Node framework spends its microseconds.
      const fastifyRow = await startChild('adapter-server.ts', ['fastify']);
      try {
        const light: Row = row('adapter-fastify', 'Fastify 5 alone, the same JSON row (bench -- adapter)', ['/row']);
        light.profile = await profileOf(fastifyRow, light, profileDir, durationS);
        profiled.push(light);
      } finally {
        await stopChild(fastifyRow.child);
      }
      for (const r of rows) {
        r.profile = await profileOf(trio, r, profileDir, durationS);
        profiled.push(r);
      }
      const keyed = rows[1]!;
      const floor = row('raw', 'raw node:http answering the result bytes (the floor)', keyed.paths);
      floor.profile = await profileOf(raw, floor, profileDir, durationS);
      profiled.push(floor);
      const framework = row('fastify', 'Fastify answering the result bytes', keyed.paths, { headers: keyed.headers! });
      framework.profile = await profileOf(fastify, framework, profileDir, durationS);
      profiled.push(framework);
    }
    const report = render(rows, profiled, { durationS, warmupS, rounds, load: [loadBefore, loadavg()[0]!], sqlite });
    console.log('\n' + report.figures + (report.profiles ? '\n\n' + report.profiles : ''));
    if (!args.includes('--no-write')) {
      writeBenchmarkSection(
        'request-path',
        '## The cost of one request (npm run bench -- request-path)',
        report.figures,
      );
      if (report.profiles)
        writeBenchmarkSection(
          'request-path-profile',
          '## The cost of one request (npm run bench -- request-path)',
          report.profiles,
          'request-path',
        );
      console.log('\nwrote BENCHMARKS.md');
    }
  } finally {
    if (trio) await stopChild(trio.child);
    if (raw) await stopChild(raw.child);
    if (fastify) await stopChild(fastify.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The demo data, and a sandbox key of its own account; the impact products' slugs. */
function prepare(databasePath: string): { key: string; slugs: string[]; sqlite: string } {
  const started = Date.now();
  const db = openDatabase(databasePath);
  try {
    migrate(db, undefined, started);
    loadMissingDemo(db, Date.now);
    const account = createAccount(db, 'bench@example.org', Date.now());
    const { key } = createKey(db, { accountId: account.id, service: 'human', name: 'bench' }, Date.now());
    const slugs = db.prepare('SELECT slug FROM impact_products ORDER BY slug').pluck().all() as string[];
    const sqlite = db.prepare('SELECT sqlite_version()').pluck().get() as string;
    db.pragma('wal_checkpoint(TRUNCATE)');
    console.log(`demo data in ${((Date.now() - started) / 1000).toFixed(1)} s; ${slugs.length} impact products`);
    return { key, slugs, sqlite };
  } finally {
    db.close();
  }
}

/** Places `n` sandbox orders; their refs. */
async function order(base: string, authorization: string, n: number): Promise<string[]> {
  const refs: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/human/v1/tasks`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: BENCH_ORDER,
    });
    if (res.status !== 201) throw new Error(`an order answered ${res.status}: ${await res.text()}`);
    refs.push(((await res.json()) as { data: { ref: string } }).data.ref);
  }
  return refs;
}

/** One 32-connection run under the profiler; the profile's table. */
async function profileOf(
  server: { child: ChildProcess; port: number },
  r: Row,
  dir: string,
  durationS: number,
): Promise<string> {
  const url = `http://127.0.0.1:${server.port}`;
  const file = join(dir, `${r.id}.cpuprofile`);
  await ask(server.child, 'profile:start 100');
  const m = await measure(url + r.paths[0], 32, 0.5, durationS, url + r.paths[0], {
    paths: r.paths,
    ...(r.headers ? { headers: r.headers } : {}),
  });
  await ask(server.child, `profile:stop ${file}`);
  console.log(`profiled ${r.name}: ${describe(m)}`);
  return profileTable(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, m.all);
}

function render(
  rows: Row[],
  profiled: Row[],
  run: { durationS: number; warmupS: number; rounds: number; load: [number, number]; sqlite: string },
): { figures: string; profiles: string | null } {
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine(run.sqlite)}.`,
    `Each figure: ${run.warmupS} s warm-up (discarded), then ${run.durationS} s of closed-loop load from one process; trio, raw node:http and Fastify each in their own process, measured in turn, ${run.rounds} rounds, medians (a ratio: the median of the rounds' ratios, each round's servers measured in the same minute). Demo database; trio as \`serve\` runs it (access log at info), limits lifted but every request counted.`,
    loadSentence(...run.load),
    '',
    '| request | server | 1 conn req/s | p50 ms | p99 ms | 32 conn req/s | p50 ms | p99 ms | × raw (32 conn) | × Fastify (32 conn) | server CPU µs/request (1 / 32 conn) | own work in process µs/request |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const targets: string[] = [];
  const med = (m: Map<number, Cpu[]>, c: number, f: (x: Cpu) => number) => median(m.get(c)!.map(f));
  const ratio = (a: Map<number, Cpu[]>, b: Map<number, Cpu[]>) =>
    median(a.get(32)!.map((m, i) => m.rps / b.get(32)![i]!.rps));
  for (const r of rows) {
    for (const [server, m] of [
      ['trio', r.trio],
      ['raw node:http, same bytes', r.raw],
      ['Fastify, same bytes', r.fastify],
    ] as const) {
      const not2xxOf = (c: number) => not2xx({ non2xx: Math.max(...m.get(c)!.map((x) => x.non2xx)) } as Measurement);
      lines.push(
        `| ${r.name} | ${server} | ${fmt(med(m, 1, (x) => x.rps))}${not2xxOf(1)} | ${fmt(
          med(m, 1, (x) => x.p50),
          2,
        )} | ${fmt(
          med(m, 1, (x) => x.p99),
          2,
        )} | ` +
          `${fmt(med(m, 32, (x) => x.rps))}${not2xxOf(32)} | ${fmt(
            med(m, 32, (x) => x.p50),
            2,
          )} | ${fmt(
            med(m, 32, (x) => x.p99),
            2,
          )} | ` +
          `${fmt(ratio(m, r.raw), 2)} | ${fmt(ratio(m, r.fastify), 2)} | ${fmt(
            med(m, 1, (x) => x.cpuUs),
            1,
          )} / ${fmt(
            med(m, 32, (x) => x.cpuUs),
            1,
          )} | ` +
          `${server === 'trio' && r.ownUs !== undefined ? fmt(r.ownUs, 1) : ''} |`,
      );
    }
    if (r.target === undefined) continue;
    const vsRaw = ratio(r.trio, r.raw);
    targets.push(
      `- ${r.name}: ${fmt(vsRaw, 2)} × raw ${vsRaw >= r.target ? '≥' : '<'} ${r.target} — ${vsRaw >= r.target ? 'met' : '**missed**'} (${fmt(ratio(r.trio, r.fastify), 2)} × Fastify).`,
    );
  }
  const keyed = rows.find((r) => r.id === 'keyed')!;
  const keyedCpu = med(keyed.trio, 32, (x) => x.cpuUs);
  targets.push(
    `- server CPU per authenticated read: ${fmt(keyedCpu, 1)} µs ${keyedCpu <= KEYED_CPU_TARGET_US ? '≤' : '>'} ${KEYED_CPU_TARGET_US} µs — ${keyedCpu <= KEYED_CPU_TARGET_US ? 'met' : '**missed**'} (raw node:http on the same bytes: ${fmt(
      med(keyed.raw, 32, (x) => x.cpuUs),
      1,
    )} µs; Fastify: ${fmt(
      med(keyed.fastify, 32, (x) => x.cpuUs),
      1,
    )} µs).`,
  );
  const light = rows.find((r) => r.id === 'light')!;
  targets.push(
    `- ${light.name}: ${fmt(ratio(light.trio, light.fastify), 2)} × Fastify (per round: ${light.trio
      .get(32)!
      .map((m, i) => fmt(m.rps / light.fastify.get(32)![i]!.rps, 2))
      .join(', ')}).`,
  );
  lines.push('', 'Targets at 32 connections (issues 29 and 37):', ...targets);
  const profiles = profiled.length
    ? profiled.map((r) => `#### ${r.name}, 32 connections\n\n${r.profile}`).join('\n\n')
    : null;
  return { figures: lines.join('\n'), profiles };
}

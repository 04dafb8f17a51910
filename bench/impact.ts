/**
 * `npm run bench -- impact [--duration S] [--warmup S] [--rounds N] [--no-write]`
 *
 * The impact read API's two busiest pages, GET /impact/v1/product/{slug} (every one of the demo's
 * products in turn) and GET /impact/v1/products, at 1 and 32 connections: requests/s and p50/p95/p99
 * latency as the client saw them. Beside them, in the same run, a raw node:http server
 * (bench/impact-server.ts raw) answering the very bytes trio sent for each path, read per request
 * from the same SQLite file. Quota counting stays on in trio (only the allowance is lifted). Prints a
 * table and rewrites the impact block of BENCHMARKS.md (not with --no-write).
 *
 * Layout on a two-core machine: each server in a child process, the load generator (autocannon) here.
 * Every figure is a warm-up that is thrown away, then a timed closed-loop run. The machine may be
 * shared: trio and the baseline take turns (--rounds, default 2, best kept), and the 1-minute load
 * average is printed with the figures.
 * Target (issue 7): at 32 connections, ≥ 0.8 × the baseline's throughput and p99 ≤ 5 ms.
 */
import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/connection.ts';
import { loadImpactDemo } from '../db/impact/demo.ts';
import { migrate } from '../db/migrate.ts';
import {
  fetchOnce,
  fmt,
  inTurns,
  machine,
  not2xx,
  option,
  replayableHeaders,
  startChild,
  stopChild,
  writeBenchmarkSection,
  type Measurement,
} from './load.ts';

const CONNECTIONS = [1, 32] as const;
const RATIO_TARGET = 0.8;
const P99_TARGET_MS = 5;

interface Row {
  name: string;
  paths: string[];
  bytes: number;
  trio: Map<number, Measurement>;
  raw: Map<number, Measurement>;
}

export async function run(args: string[]): Promise<void> {
  const durationS = option(args, '--duration', 6);
  const warmupS = option(args, '--warmup', 1.5);
  const rounds = option(args, '--rounds', 2);
  const loadBefore = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-impact-'));
  const databasePath = join(dir, 'trio.sqlite');
  try {
    const started = Date.now();
    const db = openDatabase(databasePath);
    migrate(db, undefined, started);
    loadImpactDemo(db, Date.now);
    const slugs = db.prepare('SELECT slug FROM impact_products ORDER BY slug').pluck().all() as string[];
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    console.log(
      `demo register and five published runs in ${((Date.now() - started) / 1000).toFixed(1)} s; ${slugs.length} products`,
    );

    const rows: Row[] = [
      {
        name: 'GET /product/{slug} (each product in turn)',
        paths: slugs.map((s) => `/impact/v1/product/${s}`),
        bytes: 0,
        trio: new Map(),
        raw: new Map(),
      },
      { name: 'GET /products', paths: ['/impact/v1/products'], bytes: 0, trio: new Map(), raw: new Map() },
    ];
    const trio = await startChild('impact-server.ts', [databasePath, 'trio']);
    let raw: { child: ChildProcess; port: number } | undefined;
    try {
      const base = `http://127.0.0.1:${trio.port}`;
      const recorded: Array<{ path: string; body: Buffer; headers: string }> = [];
      for (const row of rows) {
        for (const path of row.paths) {
          const probe = await recordOnce(base + path);
          recorded.push({ path, ...probe });
          row.bytes = Math.max(row.bytes, probe.body.length);
        }
      }
      // The baseline's bytes go into the same file, in a table of their own.
      const writer = new Database(databasePath);
      writer.exec('CREATE TABLE bench_impact_bytes (path TEXT PRIMARY KEY, body BLOB NOT NULL, headers TEXT NOT NULL)');
      const insert = writer.prepare('INSERT INTO bench_impact_bytes (path, body, headers) VALUES (?, ?, ?)');
      writer.transaction(() => recorded.forEach((r) => insert.run(r.path, r.body, r.headers)))();
      writer.close();
      raw = await startChild('impact-server.ts', [databasePath, 'raw']);
      const rawBase = `http://127.0.0.1:${raw.port}`;
      for (const row of rows) {
        const first = (url: string) => url + row.paths[0]!;
        await inTurns(
          [
            { label: 'trio', url: first(base), idleUrl: first(base), best: row.trio },
            { label: 'raw ', url: first(rawBase), idleUrl: first(rawBase), best: row.raw },
          ],
          row.name,
          CONNECTIONS,
          rounds,
          { warmupS, durationS },
          { paths: row.paths },
        );
      }
    } finally {
      await stopChild(trio.child);
      if (raw) await stopChild(raw.child);
    }
    const report = render(rows, durationS, warmupS, rounds, [loadBefore, loadavg()[0]!]);
    console.log('\n' + report);
    if (!args.includes('--no-write')) writeSection(report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One request; the body and the headers a replay should send (not the per-connection ones). */
async function recordOnce(url: string): Promise<{ body: Buffer; headers: string }> {
  const res = await fetchOnce(url);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return { body: res.body, headers: JSON.stringify(replayableHeaders(res.headers)) };
}

function render(rows: Row[], durationS: number, warmupS: number, rounds: number, load: [number, number]): string {
  const sqlite = (() => {
    const db = new Database(':memory:');
    try {
      return db.prepare('SELECT sqlite_version()').pluck().get() as string;
    } finally {
      db.close();
    }
  })();
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine(sqlite)}.`,
    `Each figure: ${warmupS} s warm-up (discarded), then ${durationS} s of closed-loop load from one process; each server in its own process, trio and the baseline measured in turn, ${rounds} rounds each, the best round kept. Demo database (48 products, five published runs of 500 draws); quota counting on, allowance lifted.`,
    `1-minute load average ${load[0].toFixed(2)} before the run and ${load[1].toFixed(2)} after, on ${cpus().length} cores: above ~2, other work shared the machine and every figure is lower than on an idle one.`,
    '',
    '| request | server | bytes | 1 conn req/s | p50 ms | p99 ms | 32 conn req/s | p50 ms | p95 ms | p99 ms | vs baseline (32 conn) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const targets: string[] = [];
  for (const row of rows) {
    for (const [server, m] of [
      ['trio', row.trio],
      ['raw node:http, same bytes from the same file', row.raw],
    ] as const) {
      const one = m.get(1)!;
      const many = m.get(32)!;
      const ratio = many.rps / row.raw.get(32)!.rps;
      lines.push(
        `| ${row.name} | ${server} | ${fmt(row.bytes)} | ${fmt(one.rps)}${not2xx(one)} | ${fmt(one.p50, 2)} | ${fmt(one.p99, 2)} | ${fmt(many.rps)}${not2xx(many)} | ${fmt(many.p50, 2)} | ${fmt(many.p95, 2)} | ${fmt(many.p99, 2)} | ${fmt(ratio, 2)} |`,
      );
    }
    const t = row.trio.get(32)!;
    const ratio = t.rps / row.raw.get(32)!.rps;
    targets.push(
      `- ${row.name}: throughput ${fmt(ratio, 2)} × baseline ${ratio >= RATIO_TARGET ? '≥' : '<'} ${RATIO_TARGET} — ${ratio >= RATIO_TARGET ? 'met' : '**missed**'}; ` +
        `p99 ${fmt(t.p99, 2)} ms ${t.p99 <= P99_TARGET_MS ? '≤' : '>'} ${P99_TARGET_MS} ms — ${t.p99 <= P99_TARGET_MS ? 'met' : `**missed** (the baseline's own p99: ${fmt(row.raw.get(32)!.p99, 2)} ms)`}.`,
    );
  }
  lines.push('', 'Targets at 32 connections (issue 7):', ...targets);
  return lines.join('\n');
}

function writeSection(report: string): void {
  writeBenchmarkSection('impact', '## Impact read API (npm run bench -- impact)', report);
}

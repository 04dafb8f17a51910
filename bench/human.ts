/**
 * `npm run bench -- human [--duration S] [--warmup S] [--profile] [--no-write]`
 *
 * Sustained POST /human/v1/tasks (sandbox key, a new Idempotency-Key per request) and
 * GET /tasks/{ref}/result, at 1 and 32 connections, against the real server in a child process (the
 * load generator, autocannon, runs here: one core each). Orders are measured with durable commits
 * (the default: fsync at commit, grouped) and without (HUMAN_DURABLE_COMMIT=off), beside a raw
 * node:http server answering the same bytes. After the runs, every order acknowledged with a 201 is
 * counted in the database file: an acknowledged order that is not there would be a lost order.
 *
 * With --profile, a further 32-connection run of durable orders under V8's sampling profiler says
 * where an order's CPU goes (a block of its own in BENCHMARKS.md).
 *
 * The sandbox delay is set to an hour, so the scheduler does not move the tasks while they are
 * measured: this is the cost of taking orders, not of running them. Target (issue 4): ≥ 2,000
 * orders/s with WAL and every order durable when the response is sent.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import { BENCH_ORDER, prepareOrders } from './human-orders.ts';
import { profileTable, type CpuProfile } from './profile-table.ts';
import {
  describe as describeLoad,
  fmt,
  loadSentence,
  machine,
  measure,
  option,
  startChild as start,
  stopChild,
  ask,
  withCpu,
  writeBenchmarkSection,
  type Load,
  type Measurement as LoadMeasurement,
} from './load.ts';

const TARGET = 2000;
const HEADING = '## Human task orders (npm run bench -- human)';
const CONNECTIONS = [1, 32] as const;

type Measurement = LoadMeasurement & { cpuUs?: number };
interface Row {
  name: string;
  m: Map<number, Measurement>;
}

export async function run(args: string[]): Promise<void> {
  const durationS = option(args, '--duration', 6);
  const warmupS = option(args, '--warmup', 1.5);
  const loadBefore = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-human-'));
  // A fresh database per mode, so the second mode does not start on a file the first one grew.
  const prepare = (name: string) => {
    const databasePath = join(dir, `${name}.sqlite`);
    const db = openDatabase(databasePath);
    migrate(db);
    const headers = prepareOrders(db);
    db.close();
    return { databasePath, headers };
  };
  let headers: Record<string, string> = {};
  const paths: string[] = [];

  const rows: Row[] = [];
  let acknowledged = 0;
  let sample: { body: string; headers: Record<string, string> } | undefined;
  const stats: Record<string, unknown> = {};
  let profile: string | undefined;
  let profiled = 0;
  try {
    for (const durable of ['on', 'off'] as const) {
      const { databasePath, headers: h } = prepare(`durable-${durable}`);
      headers = h;
      paths.push(databasePath);
      const server = await startChild('human-server.ts', [databasePath], {
        SANDBOX_DELAY_MS: '3600000',
        HUMAN_DURABLE_COMMIT: durable,
      });
      const base = `http://127.0.0.1:${server.port}`;
      try {
        const probed = await probe(`${base}/human/v1/tasks`, headers);
        sample ??= probed;
        acknowledged++;
        const row: Row = {
          name: `POST /tasks (sandbox${durable === 'on' ? ', durable: fsync at commit' : ', HUMAN_DURABLE_COMMIT=off'})`,
          m: new Map(),
        };
        // Orders on a new Idempotency-Key each; every 201 counted, to be found in the file afterwards.
        const orders: Load = {
          method: 'POST',
          headers,
          body: BENCH_ORDER,
          perRequest: () => ({ 'idempotency-key': randomUUID() }),
          onResponse: (status) => {
            if (status === 201) acknowledged++;
          },
        };
        for (const c of CONNECTIONS) {
          const m = await withCpu(server.child, () =>
            measure(`${base}/human/v1/tasks`, c, warmupS, durationS, `${base}/healthz`, orders),
          );
          row.m.set(c, m);
          console.log(`${row.name.padEnd(58)} ${c} conn: ${describe(m)}`);
        }
        rows.push(row);
        stats[durable] = await ask(server.child, 'stats');
        if (durable === 'on' && args.includes('--profile')) {
          // Where a durable order's CPU goes (after the figures above: the profiler slows the server).
          const file = join(dir, 'orders.cpuprofile');
          await ask(server.child, 'profile:start 100');
          const m = await measure(`${base}/human/v1/tasks`, 32, 0.5, durationS, `${base}/healthz`, orders);
          await ask(server.child, `profile:stop ${file}`);
          profiled = m.all;
          profile = profileTable(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, m.all);
        }
        if (durable === 'on') {
          const reader = openDatabase(databasePath, { readonly: true });
          const refs = reader
            .prepare('SELECT ref FROM human_tasks ORDER BY random() LIMIT 1000')
            .pluck()
            .all() as string[];
          reader.close();
          const result: Row = { name: 'GET /tasks/{ref}/result', m: new Map() };
          for (const c of CONNECTIONS) {
            const m = await withCpu(server.child, () =>
              measure(`${base}/human/v1/tasks/${refs[0]}/result`, c, warmupS, durationS, `${base}/healthz`, {
                headers: { authorization: headers.authorization! },
                paths: refs.map((r) => `/human/v1/tasks/${r}/result`),
              }),
            );
            result.m.set(c, m);
            console.log(`${result.name.padEnd(58)} ${c} conn: ${describe(m)}`);
          }
          rows.push(result);
        }
      } finally {
        await stopChild(server.child);
      }
    }
    const sqlite = (() => {
      const reader = openDatabase(paths[0]!, { readonly: true });
      try {
        return reader.prepare('SELECT sqlite_version()').pluck().get() as string;
      } finally {
        reader.close();
      }
    })();
    const stored = paths.reduce((sum, path) => {
      const reader = openDatabase(path, { readonly: true });
      try {
        return sum + (reader.prepare('SELECT count(*) FROM human_tasks').pluck().get() as number);
      } finally {
        reader.close();
      }
    }, 0);

    // The baseline answers the bytes of a real 201, to any request.
    writeFileSync(join(dir, 'body'), sample!.body);
    writeFileSync(join(dir, 'headers.json'), JSON.stringify(sample!.headers));
    const raw = await startChild('raw-baseline.ts', [join(dir, 'body'), join(dir, 'headers.json')], {});
    const baseline: Row = { name: 'raw node:http (the same 201 bytes)', m: new Map() };
    try {
      for (const c of CONNECTIONS) {
        const url = `http://127.0.0.1:${raw.port}/`;
        const m = await measure(url, c, warmupS, durationS, url, { method: 'POST', headers, body: BENCH_ORDER });
        baseline.m.set(c, m);
        console.log(`${baseline.name.padEnd(58)} ${c} conn: ${describe(m)}`);
      }
    } finally {
      await stopChild(raw.child);
    }
    const report = render(rows, baseline, stats, acknowledged, stored, durationS, warmupS, sqlite, profiled > 0, [
      loadBefore,
      loadavg()[0]!,
    ]);
    console.log('\n' + report + (profile ? `\n\n${profile}` : ''));
    if (!args.includes('--no-write')) {
      writeBenchmarkSection('human', HEADING, report);
      if (profile)
        writeBenchmarkSection(
          'human-profile',
          HEADING,
          `Where a durable order's CPU goes: POST /tasks (sandbox, durable), 32 connections, ${durationS} s under V8's sampling profiler (bench/profile-table.ts).\n\n${profile}`,
          'human',
        );
      console.log('\nwrote BENCHMARKS.md');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A child with extra environment (fork passes process.env on), restored once it has started. */
async function startChild(
  file: string,
  argv: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await start(file, argv);
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

async function probe(url: string, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: BENCH_ORDER,
  });
  if (res.status !== 201) throw new Error(`the probe order answered ${res.status}: ${await res.text()}`);
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) out[k] = v;
  });
  return { body: await res.text(), headers: out };
}

const describe = (m: Measurement) => describeLoad(m, m.cpuUs ? `  server CPU ${fmt(m.cpuUs)} µs/request` : '');

function render(
  rows: Row[],
  baseline: Row,
  stats: Record<string, unknown>,
  acknowledged: number,
  stored: number,
  durationS: number,
  warmupS: number,
  sqlite: string,
  profiledRun: boolean,
  load: [number, number],
): string {
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine(sqlite)}.`,
    `Each figure: ${warmupS} s warm-up (discarded), then ${durationS} s of closed-loop load from one process; the server in another. WAL; orders on a sandbox key, a new Idempotency-Key each.`,
    loadSentence(...load),
    '',
    '| request | 1 conn req/s | p50 ms | p95 ms | p99 ms | 32 conn req/s | p50 ms | p95 ms | p99 ms | vs baseline (32 conn) | server CPU µs/request (1 / 32 conn) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const b32 = baseline.m.get(32)!.rps;
  for (const row of [...rows, baseline]) {
    const one = row.m.get(1)!;
    const many = row.m.get(32)!;
    const flag = (m: Measurement) => (m.non2xx ? ` (${m.non2xx} not 2xx)` : '');
    const cpu = one.cpuUs === undefined ? '' : `${fmt(one.cpuUs)} / ${fmt(many.cpuUs!)}`;
    lines.push(
      `| ${row.name} | ${fmt(one.rps)}${flag(one)} | ${fmt(one.p50, 2)} | ${fmt(one.p95, 2)} | ${fmt(one.p99, 2)} | ${fmt(many.rps)}${flag(many)} | ${fmt(many.p50, 2)} | ${fmt(many.p95, 2)} | ${fmt(many.p99, 2)} | ${fmt(many.rps / b32, 2)} | ${cpu} |`,
    );
  }
  const durable = rows[0]!.m.get(32)!.rps;
  const s = stats.on as { batches: number; jobs: number; largestBatch: number; synchronous: number; journal: string };
  lines.push('');
  lines.push(
    `Group commit (durable run): ${fmt(s.jobs)} writes in ${fmt(s.batches)} commits (${fmt(s.jobs / s.batches, 1)} per fsync on average, ${s.largestBatch} at most); journal_mode=${s.journal}, synchronous=FULL at each order commit (NORMAL otherwise).`,
  );
  // A run ends with up to one request per connection in flight: the client abandons them, the server still
  // commits them. So the file may hold a few more tasks than were acknowledged, never fewer.
  const abandoned = stored - acknowledged;
  const allowance = 2 * CONNECTIONS.reduce((a, c) => a + c, 0) + (profiledRun ? 32 : 0);
  lines.push(
    `Orders acknowledged with 201: ${fmt(acknowledged)}; tasks in the database file afterwards: ${fmt(stored)}` +
      (abandoned >= 0 && abandoned <= allowance
        ? ` — every acknowledged order is there (${abandoned} more: requests in flight when the load generator stopped, committed but never read).`
        : ' — **MISMATCH: an acknowledged order is missing, or orders were made twice**.'),
  );
  const cpu32 = rows[0]!.m.get(32)!.cpuUs!;
  lines.push(
    `Server CPU per durable order at 32 connections: ${fmt(cpu32)} µs, i.e. ${fmt(1e6 / cpu32)} orders/s if the server had a core to itself (the load generator shares this two-core machine with it).`,
  );
  lines.push(
    durable >= TARGET
      ? `Target: ≥ ${fmt(TARGET)} durable orders/s — met at 32 connections (${fmt(durable)}/s).`
      : `Target: ≥ ${fmt(TARGET)} durable orders/s — **missed**: ${fmt(durable)}/s at 32 connections.`,
  );
  return lines.join('\n');
}

/**
 * `npm run bench -- funding-sync [--calls N] [--duration S] [--days D] [--no-write]`
 *
 * Does the scheduled funding sync delay searches? /funding/v1/search latency at one connection on a
 * synthetic corpus (default 100,000 calls, bench/funding-corpus.ts), three ways in one run:
 *  1. trio with no sync (FUNDING_SYNC_EVERY off): the reference;
 *  2. trio with FUNDING_SYNC_EVERY set, while its scheduled sync runs: a first sync of every source
 *     from a local server serving the sources' real records (tests/helpers/funding-sources.ts) with a
 *     BOE/BDNS backfill of D days (default 365: the days back to the real records of December 2025,
 *     mostly BOE days without an issue there), at an unthrottled rate so the sync is as dense as it
 *     can be; only responses that started while the sync ran are counted;
 *  3. raw node:http answering the same search bytes (the machine's floor).
 * Server, sync child and load generator share the machine's cores: that contention is part of what
 * is measured (a sync is work the machine does); the figures carry the machine's load average.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeSources } from '../tests/helpers/funding-sources.ts';
import { CORPUS_NOW, ensureCorpus } from './funding-corpus.ts';
import {
  cannon,
  fetchOnce,
  fmt,
  loadSentence,
  machine,
  option,
  replayableHeaders,
  startChild,
  stopChild,
  writeBenchmarkSection,
} from './load.ts';

const PATH = '/funding/v1/search?q=ayudas';
const log = (line: string) => console.log(line);

interface Sample {
  start: number;
  ms: number;
}
interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return { n: s.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s.at(-1) ?? NaN };
}

async function timed(url: string, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  await cannon(url, 1, seconds, (ms) => samples.push({ start: Date.now() - ms, ms }));
  return samples;
}

export async function run(args: string[]): Promise<void> {
  const calls = option(args, '--calls', 100_000);
  const durationS = option(args, '--duration', 8);
  const days = option(args, '--days', 365);
  const write = !args.includes('--no-write');
  const corpus = ensureCorpus(calls, log);
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-sync-'));
  const fake = await startFakeSources();
  const env = {
    ...fake.env,
    FUNDING_SYNC_RATE: '1000',
    FUNDING_SYNC_BACKFILL_DAYS: String(days),
    FUNDING_SYNC_PAGE_SIZE: '2',
    FUNDING_SYNC_RETRY_BASE_MS: '10',
    FUNDING_SYNC_CONTACT: 'bench@example.org',
  };
  Object.assign(process.env, env); // the server children inherit it
  const loadBefore = loadavg()[0]!;
  try {
    // 1. No sync.
    const idleDb = join(dir, 'idle.sqlite');
    copyFileSync(corpus.path, idleDb);
    const idle = await startChild('funding-sync-server.ts', [idleDb, String(CORPUS_NOW), 'off']);
    let body: Buffer;
    let headers;
    let idleSamples: Sample[];
    try {
      const base = `http://127.0.0.1:${idle.port}`;
      const probe = await fetchOnce(base + PATH);
      if (probe.status !== 200) throw new Error(`${PATH} answered ${probe.status}`);
      [body, headers] = [probe.body, probe.headers];
      await timed(base + PATH, 1);
      idleSamples = await timed(base + PATH, durationS);
    } finally {
      await stopChild(idle.child);
    }
    log(`no sync:     ${describe(stats(idleSamples.map((s) => s.ms)))}`);

    // 2. While the scheduled sync runs (it starts a second after the server): unthrottled, then at 10 requests/s per host.
    const dense = await duringSync(corpus.path, join(dir, 'dense.sqlite'), '1000');
    log(
      `during sync (unthrottled): ${describe(dense.stats)} (${dense.window.batches} batches in ${((dense.window.to - dense.window.from) / 1000).toFixed(1)} s)`,
    );
    const polite = await duringSync(corpus.path, join(dir, 'polite.sqlite'), '10');
    log(
      `during sync (10/s per host): ${describe(polite.stats)} (${polite.window.batches} batches in ${((polite.window.to - polite.window.from) / 1000).toFixed(1)} s)`,
    );

    // 3. The floor: node:http answering the same bytes.
    writeFileSync(join(dir, 'body'), body);
    writeFileSync(join(dir, 'headers.json'), JSON.stringify(replayableHeaders(headers)));
    const raw = await startChild('raw-baseline.ts', [join(dir, 'body'), join(dir, 'headers.json')]);
    let rawSamples: Sample[];
    try {
      await timed(`http://127.0.0.1:${raw.port}/`, 1);
      rawSamples = await timed(`http://127.0.0.1:${raw.port}/`, durationS);
    } finally {
      await stopChild(raw.child);
    }
    log(`raw node:http: ${describe(stats(rawSamples.map((s) => s.ms)))}`);

    const sqlite = new Database(':memory:').prepare('SELECT sqlite_version()').pluck().get() as string;
    const report = render({
      calls,
      days,
      durationS,
      sqlite,
      load: [loadBefore, loadavg()[0]!],
      dense,
      polite,
      idle: stats(idleSamples.map((s) => s.ms)),
      raw: stats(rawSamples.map((s) => s.ms)),
    });
    console.log('\n' + report);
    if (write) {
      writeBenchmarkSection('funding-sync', '## Search during a funding sync (npm run bench -- funding-sync)', report);
      log('\nwrote BENCHMARKS.md');
    }
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Busy {
  stats: Stats;
  window: { from: number; to: number; batches: number };
}

/** Searches against a server whose scheduled sync runs, until the sync has finished every source. */
async function duringSync(corpusPath: string, file: string, rate: string): Promise<Busy> {
  copyFileSync(corpusPath, file);
  process.env.FUNDING_SYNC_RATE = rate;
  const busy = await startChild('funding-sync-server.ts', [file, String(CORPUS_NOW), '24h']);
  let samples: Sample[] = [];
  let window = { from: 0, to: 0, batches: 0 };
  let finished = false;
  try {
    const base = `http://127.0.0.1:${busy.port}`;
    const started = Date.now();
    while (!finished && Date.now() - started < 600_000) {
      samples = samples.concat(await timed(base + PATH, 2));
      const db = new Database(file, { readonly: true });
      try {
        const r = db
          .prepare(
            'SELECT min(started_at) AS f, max(finished_at) AS t, count(*) AS n, sum(finished_at IS NULL) AS open FROM funding_sync_runs',
          )
          .get() as { f: number | null; t: number | null; n: number; open: number | null };
        window = {
          from: r.f ?? 0,
          to: r.t ?? 0,
          batches: db
            .prepare("SELECT count(*) FROM funding_imports WHERE file_name LIKE 'http%'")
            .pluck()
            .get() as number,
        };
        finished = r.n === 4 && r.open === 0;
      } catch {
        /* the sync's migration is not applied yet */
      } finally {
        db.close();
      }
    }
  } finally {
    await stopChild(busy.child);
  }
  if (!finished) throw new Error(`the scheduled sync (rate ${rate}) did not finish within 600 s`);
  const during = samples.filter((s) => s.start >= window.from && s.start + s.ms <= window.to).map((s) => s.ms);
  return { stats: stats(during), window };
}

const describe = (s: Stats) =>
  `${s.n} requests, p50 ${fmt(s.p50, 2)} ms, p95 ${fmt(s.p95, 2)} ms, p99 ${fmt(s.p99, 2)} ms, max ${fmt(s.max, 1)} ms`;

function render(r: {
  calls: number;
  days: number;
  durationS: number;
  sqlite: string;
  load: readonly [number, number];
  dense: Busy;
  polite: Busy;
  idle: Stats;
  raw: Stats;
}): string {
  const took = (b: Busy) => `${b.window.batches} batches in ${((b.window.to - b.window.from) / 1000).toFixed(1)} s`;
  const row = (name: string, s: Stats) =>
    `| ${name} | ${s.n.toLocaleString('en')} | ${fmt(s.p50, 2)} | ${fmt(s.p95, 2)} | ${fmt(s.p99, 2)} | ${fmt(s.max, 1)} | ${fmt(s.p95 / r.idle.p95, 2)} |`;
  return [
    `Run ${new Date().toISOString().slice(0, 16)}Z on ${machine(r.sqlite)}. ${loadSentence(r.load[0], r.load[1])}`,
    '',
    `\`GET ${PATH}\` at one connection (search page cache off) on ${r.calls.toLocaleString('en')} synthetic calls. "During sync": trio with`,
    `\`FUNDING_SYNC_EVERY\` whose scheduled sync (a child process) made a first sync of all four sources from a local server in their formats,`,
    `${r.days} days of BOE and BDNS backfill: once unthrottled (${took(r.dense)}), once at FUNDING_SYNC_RATE=10 (${took(r.polite)}; the default is 1);`,
    'only requests that started and ended inside the sync count. The sync child, the server and the load generator share two cores.',
    '',
    '| server | requests | p50 ms | p95 ms | p99 ms | max ms | p95 / no sync |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row('trio, no sync', r.idle),
    row('trio, during the scheduled sync, unthrottled', r.dense.stats),
    row('trio, during the scheduled sync, 10 requests/s per host', r.polite.stats),
    row('raw node:http, same bytes', r.raw),
  ].join('\n');
}

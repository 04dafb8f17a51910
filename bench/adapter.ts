/**
 * `npm run bench -- adapter [--duration S] [--warmup S] [--no-write]`
 *
 * What the HTTP adapter costs: raw node:http, trio's adapter (light request objects), and the same
 * router behind a WHATWG Request/Response per call, each answering the same JSON row in its own child
 * process, measured one after another in the same run at 1 and 32 connections, with each server's CPU
 * per request. The issue asked that the adapter not build a WHATWG Request per call unless a handler
 * needs one, and that this be measured. Target (issue 29): trio's adapter and router keep ≥ 0.85 × raw
 * node:http's throughput at 32 connections.
 */
import { loadavg } from 'node:os';
import {
  describe,
  fmt,
  loadSentence,
  machine,
  measure,
  option,
  startChild,
  stopChild,
  withCpu,
  writeBenchmarkSection,
  type Measurement,
} from './load.ts';

const RATIO_TARGET = 0.85;

const MODES = [
  ['raw', 'raw node:http (baseline)'],
  ['trio', 'trio adapter + itty-router (light request)'],
  ['whatwg', 'WHATWG Request/Response per call + itty-router'],
] as const;

export async function run(args: string[]): Promise<void> {
  const durationS = option(args, '--duration', 6);
  const warmupS = option(args, '--warmup', 1.5);
  const loadBefore = loadavg()[0]!;
  const results = new Map<string, Array<Measurement & { cpuUs: number }>>();
  for (const [mode, label] of MODES) {
    const server = await startChild('adapter-server.ts', [mode]);
    try {
      const url = `http://127.0.0.1:${server.port}/row`;
      const runs: Array<Measurement & { cpuUs: number }> = [];
      for (const connections of [1, 32]) {
        const m = await withCpu(server.child, () => measure(url, connections, warmupS, durationS, url));
        console.log(
          `${label.padEnd(48)} ${String(connections).padStart(2)} conn: ${describe(m, `  server CPU ${fmt(m.cpuUs, 1)} µs/request`)}`,
        );
        runs.push(m);
      }
      results.set(mode, runs);
    } finally {
      await stopChild(server.child);
    }
  }
  const raw = results.get('raw')!;
  const load = loadavg()[0]!;
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine('n/a')}. ` +
      `${warmupS} s warm-up, then ${durationS} s per figure. ${loadSentence(loadBefore, load)}`,
    '',
    '| server | 1 conn req/s | p99 ms | 32 conn req/s | p50 ms | p99 ms | vs raw (1 / 32 conn) | server CPU µs/request (1 / 32 conn) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...MODES.map(([mode, label]) => {
      const [one, many] = results.get(mode)!;
      return (
        `| ${label} | ${fmt(one!.rps, 0)} | ${fmt(one!.p99, 2)} | ${fmt(many!.rps, 0)} | ${fmt(many!.p50, 2)} | ${fmt(many!.p99, 2)} | ` +
        `${fmt(one!.rps / raw[0]!.rps, 2)} / ${fmt(many!.rps / raw[1]!.rps, 2)} | ${fmt(one!.cpuUs, 1)} / ${fmt(many!.cpuUs, 1)} |`
      );
    }),
  ];
  const trio = results.get('trio')![1]!;
  const ratio = trio.rps / raw[1]!.rps;
  lines.push(
    '',
    `Target (issue 29): trio adapter + itty-router at 32 connections ${fmt(ratio, 2)} × raw ${ratio >= RATIO_TARGET ? '≥' : '<'} ${RATIO_TARGET} — ${ratio >= RATIO_TARGET ? 'met' : '**missed**'}; ` +
      `server CPU ${fmt(trio.cpuUs, 1)} µs a request against raw node:http's ${fmt(raw[1]!.cpuUs, 1)} µs (${fmt(trio.cpuUs / raw[1]!.cpuUs, 2)} ×).`,
  );
  const report = lines.join('\n');
  console.log('\n' + report);
  if (!args.includes('--no-write'))
    writeBenchmarkSection('adapter', '## HTTP adapter (npm run bench -- adapter)', report);
}

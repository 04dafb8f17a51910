/**
 * `npm run bench -- adapter [--duration S] [--warmup S] [--no-write]`
 *
 * What the HTTP adapter costs: raw node:http, trio's adapter (light request objects), and the same
 * router behind a WHATWG Request/Response per call, each answering the same JSON row in its own child
 * process, measured one after another in the same run at 1 and 32 connections. The issue asked that
 * the adapter not build a WHATWG Request per call unless a handler needs one, and that this be measured.
 */
import { loadavg } from 'node:os';
import {
  describe,
  fmt,
  machine,
  measure,
  option,
  startChild,
  stopChild,
  writeBenchmarkSection,
  type Measurement,
} from './load.ts';

const MODES = [
  ['raw', 'raw node:http (baseline)'],
  ['trio', 'trio adapter + itty-router (light request)'],
  ['whatwg', 'WHATWG Request/Response per call + itty-router'],
] as const;

export async function run(args: string[]): Promise<void> {
  const durationS = option(args, '--duration', 6);
  const warmupS = option(args, '--warmup', 1.5);
  const loadBefore = loadavg()[0]!;
  const results = new Map<string, Measurement[]>();
  for (const [mode, label] of MODES) {
    const server = await startChild('adapter-server.ts', [mode]);
    try {
      const url = `http://127.0.0.1:${server.port}/row`;
      const runs: Measurement[] = [];
      for (const connections of [1, 32]) {
        const m = await measure(url, connections, warmupS, durationS, url);
        console.log(`${label.padEnd(48)} ${String(connections).padStart(2)} conn: ${describe(m)}`);
        runs.push(m);
      }
      results.set(mode, runs);
    } finally {
      await stopChild(server.child);
    }
  }
  const raw = results.get('raw')!;
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine('n/a')}. ` +
      `${warmupS} s warm-up, then ${durationS} s per figure; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
    '',
    '| server | 1 conn req/s | p99 ms | 32 conn req/s | p50 ms | p99 ms | vs raw (1 / 32 conn) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...MODES.map(([mode, label]) => {
      const [one, many] = results.get(mode)!;
      return (
        `| ${label} | ${fmt(one!.rps, 0)} | ${fmt(one!.p99, 2)} | ${fmt(many!.rps, 0)} | ${fmt(many!.p50, 2)} | ${fmt(many!.p99, 2)} | ` +
        `${fmt(one!.rps / raw[0]!.rps, 2)} / ${fmt(many!.rps / raw[1]!.rps, 2)} |`
      );
    }),
  ];
  const report = lines.join('\n');
  console.log('\n' + report);
  if (!args.includes('--no-write'))
    writeBenchmarkSection('adapter', '## HTTP adapter (npm run bench -- adapter)', report);
}

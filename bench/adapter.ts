/**
 * `npm run bench -- adapter [--duration S] [--warmup S] [--rounds N] [--whatwg] [--no-write]`
 *
 * What the HTTP adapter costs beside raw node:http and beside Fastify, answering the same JSON row
 * (the same bytes) in their own child processes: measured in turns (raw, Fastify, trio, trio with the
 * whole app's route table), `--rounds` rounds (5) at 1 and 32 connections, the medians kept, with each
 * server's CPU per request. The ratios are taken within each round (the servers run one after another
 * in the same minute, so a shared machine's drift stays out of them) and their median is reported.
 * `--whatwg` adds the design trio did not take (a WHATWG Request/Response per call).
 *
 * Targets: trio ≥ 0.95 × Fastify at 32 connections (issue 37), ≥ 0.85 × raw (issue 29); the route's
 * cost does not grow with the app's route table (trio-app against trio, CPU per request). In process,
 * the adapter's own work a request with one route and with the app's table, itty-router's `fetch`
 * against the grouped walk (bench/adapter-server.ts 'inprocess').
 */
import { loadavg } from 'node:os';
import {
  ask,
  fmt,
  inTurns,
  loadSentence,
  machine,
  type Measurement,
  median,
  option,
  printAndWrite,
  startChild,
  stopChild,
  type Turn,
} from './load.ts';
import type { InProcess } from './adapter-server.ts';

const RAW_TARGET = 0.85;
const FASTIFY_TARGET = 0.95;
const CONNECTIONS = [1, 32] as const;

const MODES = [
  ['raw', 'raw node:http (baseline)'],
  ['fastify', 'Fastify 5, one route (baseline)'],
  ['trio', 'trio adapter + itty-router (light request)'],
  ['trio-app', "trio, the route after the whole app's route table"],
  ['whatwg', 'WHATWG Request/Response per call + itty-router'],
] as const;
type Mode = (typeof MODES)[number][0];

type Cpu = Measurement & { cpuUs?: number };

export async function run(args: string[]): Promise<void> {
  const durationS = option(args, '--duration', 5);
  const warmupS = option(args, '--warmup', 1);
  const rounds = option(args, '--rounds', 5);
  const modes = MODES.filter(([mode]) => mode !== 'whatwg' || args.includes('--whatwg'));
  const loadBefore = loadavg()[0]!;
  const servers = new Map<Mode, Awaited<ReturnType<typeof startChild>>>();
  const turns = new Map<Mode, Turn & { rounds: Map<number, Cpu[]> }>();
  let inProcess: InProcess | undefined;
  try {
    for (const [mode, label] of modes) {
      const server = await startChild('adapter-server.ts', [mode]);
      servers.set(mode, server);
      const url = `http://127.0.0.1:${server.port}/row`;
      turns.set(mode, {
        label: label.padEnd(52),
        url,
        idleUrl: url,
        child: server.child,
        best: new Map(),
        rounds: new Map(),
      });
    }
    await inTurns([...turns.values()], 'GET /row', CONNECTIONS, rounds, { warmupS, durationS }, {});
    if (!args.includes('--no-inprocess')) inProcess = (await ask(servers.get('trio')!.child, 'inprocess')) as InProcess;
  } finally {
    for (const server of servers.values()) await stopChild(server.child);
  }

  const roundsOf = (mode: Mode, c: number) => turns.get(mode)!.rounds.get(c)!;
  /** The median over the rounds of a figure of one server. */
  const med = (mode: Mode, c: number, f: (m: Cpu) => number) => median(roundsOf(mode, c).map(f));
  /** The ratio of two servers' requests/s in each round; its median. */
  const perRound = (a: Mode, b: Mode, c: number) => roundsOf(a, c).map((m, i) => m.rps / roundsOf(b, c)[i]!.rps);
  const ratio = (a: Mode, b: Mode, c: number) => median(perRound(a, b, c));

  const load = loadavg()[0]!;
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine('n/a')}. ` +
      `${warmupS} s warm-up, then ${durationS} s per figure; the servers in turns, ${rounds} rounds, medians (a ratio: the median of the rounds' ratios). ${loadSentence(loadBefore, load)}`,
    '',
    '| server | 1 conn req/s | p99 ms | 32 conn req/s | p50 ms | p99 ms | × raw (1 / 32 conn) | × Fastify (32 conn) | server CPU µs/request (1 / 32 conn) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...modes.map(([mode, label]) => {
      const [one, many] = CONNECTIONS;
      return (
        `| ${label} | ${fmt(med(mode, one, (m) => m.rps))} | ${fmt(
          med(mode, one, (m) => m.p99),
          2,
        )} | ` +
        `${fmt(med(mode, many, (m) => m.rps))} | ${fmt(
          med(mode, many, (m) => m.p50),
          2,
        )} | ${fmt(
          med(mode, many, (m) => m.p99),
          2,
        )} | ` +
        `${fmt(ratio(mode, 'raw', one), 2)} / ${fmt(ratio(mode, 'raw', many), 2)} | ${fmt(ratio(mode, 'fastify', many), 2)} | ` +
        `${fmt(
          med(mode, one, (m) => m.cpuUs!),
          1,
        )} / ${fmt(
          med(mode, many, (m) => m.cpuUs!),
          1,
        )} |`
      );
    }),
  ];
  const rounded = (values: number[]) => values.map((v) => fmt(v, 2)).join(', ');
  const vsFastify = ratio('trio', 'fastify', 32);
  const vsRaw = ratio('trio', 'raw', 32);
  const cpu = (mode: Mode) => med(mode, 32, (m) => m.cpuUs!);
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  lines.push(
    '',
    'At 32 connections, each round in order:',
    `- trio ÷ Fastify ${rounded(perRound('trio', 'fastify', 32))}; trio ÷ raw ${rounded(perRound('trio', 'raw', 32))}; Fastify ÷ raw ${rounded(perRound('fastify', 'raw', 32))}.`,
    '',
    'Targets at 32 connections:',
    `- trio ${fmt(vsFastify, 2)} × Fastify ${vsFastify >= FASTIFY_TARGET ? '≥' : '<'} ${FASTIFY_TARGET} (issue 37) — ${met(vsFastify >= FASTIFY_TARGET)}.`,
    `- trio ${fmt(vsRaw, 2)} × raw ${vsRaw >= RAW_TARGET ? '≥' : '<'} ${RAW_TARGET} (issue 29) — ${met(vsRaw >= RAW_TARGET)}; server CPU ${fmt(cpu('trio'), 1)} µs a request, Fastify's ${fmt(cpu('fastify'), 1)}, raw node:http's ${fmt(cpu('raw'), 1)}.`,
    `- the route after the whole app's route table (${inProcess?.appRoutes ?? '?'} routes): ${fmt(cpu('trio-app'), 1)} µs of server CPU against ${fmt(cpu('trio'), 1)} with one route (${fmt(ratio('trio-app', 'trio', 32), 2)} × its requests/s).`,
  );
  if (inProcess) {
    lines.push(
      '',
      `In process (no socket; variants in turn, the fastest of 60 rounds of 500 requests), trio's own work a request for GET /row: the adapter's dispatch with the grouped walk ${fmt(inProcess.dispatchOne, 2)} µs with one route, ${fmt(inProcess.dispatchApp, 2)} µs after the app's ${inProcess.appRoutes} routes, ${fmt(inProcess.dispatchItty, 2)} µs through itty-router's \`fetch\` (one route, as before issue 37); ` +
        `the router alone: the grouped walk ${fmt(inProcess.groupedOne, 2)} / ${fmt(inProcess.groupedApp, 2)} µs, itty-router's own \`fetch\` ${fmt(inProcess.ittyOne, 2)} / ${fmt(inProcess.ittyApp, 2)} µs (one route / the app's table).`,
    );
  }
  const report = lines.join('\n');
  printAndWrite(args, 'adapter', '## HTTP adapter (npm run bench -- adapter)', report);
}

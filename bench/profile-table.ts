/**
 * Where a server's CPU goes per request, from a V8 CPU profile (.cpuprofile, bench/server-control.ts)
 * taken under load: time by part (node's HTTP stack, the adapter, the access stage, SQLite, the log,
 * the metrics, garbage collection…) and by function, each in µs per request answered while the
 * profile ran. Self time is where the CPU was; the stages' inclusive time says what each stage costs
 * with everything it calls. Proportions are reliable under a loaded machine; the µs are the profile's
 * sampled time, so they rise with the load as CPU time does.
 */
import { relative } from 'node:path';
import { ROOT, fmt } from './load.ts';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part a frame belongs to: a file of ours, an npm package, or a part of node. */
export function partOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(garbage collector)') return 'garbage collection';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return 'V8 and native, outside JavaScript';
    return `native: ${functionName}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return `npm ${pkg[1]}`;
  if (url.startsWith('node:')) {
    const mod = url.slice(5).replace(/^internal\//, '');
    if (/^_?http|^http/.test(mod)) return 'node: http';
    if (/^net|stream_base|^streams?\/|^stream|^dgram|tcp/.test(mod)) return 'node: net and streams';
    if (/timers|process\/task_queues|async_hooks|promise/.test(mod)) return 'node: timers, ticks and promises';
    return `node: ${mod.split('/')[0]}`;
  }
  if (url.startsWith('file://')) return relative(ROOT, new URL(url).pathname);
  return url;
}

interface Tally {
  self: Map<string, number>;
  functions: Map<string, number>;
  inclusive: Map<string, number>;
  total: number;
  idle: number;
}

export function tally(profile: CpuProfile): Tally {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const t: Tally = { self: new Map(), functions: new Map(), inclusive: new Map(), total: 0, idle: 0 };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(id)!;
    const part = partOf(node.callFrame);
    if (part === '(idle)') {
      t.idle += dt;
      return;
    }
    t.total += dt;
    add(t.self, part, dt);
    add(t.functions, `${node.callFrame.functionName || '(anonymous)'} (${part}:${node.callFrame.lineNumber + 1})`, dt);
    // Inclusive: each function of ours on the stack, once per sample.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      const p = partOf(f);
      if (!/^(lib|routes|db|app)\b/.test(p) || !f.functionName) continue;
      const name = `${f.functionName} (${p})`;
      if (seen.has(name)) continue;
      seen.add(name);
      add(t.inclusive, name, dt);
    }
  });
  return t;
}

/** Markdown: the parts, the top functions by self time, and our stages by inclusive time, µs per request. */
export function profileTable(profile: CpuProfile, requests: number, top = 15): string {
  const t = tally(profile);
  const us = (v: number) => fmt(v / requests, 1);
  const pct = (v: number) => `${fmt((100 * v) / t.total, 1)} %`;
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `| ${k} | ${us(v)} | ${pct(v)} |`);
  return [
    `${fmt(requests)} requests; ${fmt(t.total / 1000)} ms of CPU sampled, ${us(t.total)} µs per request (idle ${fmt(t.idle / 1000)} ms not counted).`,
    '',
    '| part (self time) | µs/request | share |',
    '| --- | ---: | ---: |',
    ...rows(t.self, 18),
    '',
    '| function (self time) | µs/request | share |',
    '| --- | ---: | ---: |',
    ...rows(t.functions, top),
    '',
    '| our function (inclusive: with what it calls) | µs/request | share |',
    '| --- | ---: | ---: |',
    ...rows(t.inclusive, top),
  ].join('\n');
}

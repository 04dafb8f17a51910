/**
 * `npm run bench -- <name> [options]`: runs one benchmark. Each benchmark measures its own baseline in
 * the same run and writes its figures into BENCHMARKS.md (speed targets live there, never in tests).
 */
type Bench = { describe: string; run: (args: string[]) => Promise<void> };

const BENCHMARKS: Record<string, Bench> = {
  funding: {
    describe:
      'funding /search on a synthetic corpus (default 1,000,000 calls) beside a raw node:http baseline. Options: --calls N, --duration S, --warmup S, --uncached, --no-write',
    run: async (args) => (await import('./funding.ts')).run(args),
  },
  'funding-memory': {
    describe:
      "what the funding search's expansion stage holds in memory (vocabulary, typo index) on the benchmark corpus (default 1,000,000 calls). Options: --calls N, --no-write",
    run: async (args) => (await import('./funding-memory.ts')).run(args),
  },
  'funding-sync': {
    describe:
      'funding /search latency while the scheduled funding sync runs (FUNDING_SYNC_EVERY) vs no sync vs raw node:http, 1 connection. Options: --calls N (100,000), --duration S, --days D (backfill, 365), --no-write',
    run: async (args) => (await import('./funding-sync.ts')).run(args),
  },
  adapter: {
    describe:
      "the HTTP adapter: raw node:http vs trio's adapter vs a WHATWG Request/Response per call, same JSON row. Options: --duration S, --warmup S, --no-write",
    run: async (args) => (await import('./adapter.ts')).run(args),
  },
  human: {
    describe:
      "POST /human/v1/tasks (sandbox, durable and not) and GET /tasks/{ref}/result at 1 and 32 connections beside raw node:http; server CPU per request. Options: --duration S, --warmup S, --profile (where a durable order's CPU goes), --no-write",
    run: async (args) => (await import('./human.ts')).run(args),
  },
  impact: {
    describe:
      'impact /product/{slug} and /products at 1 and 32 connections beside raw node:http serving the same bytes from the same SQLite file (quota counting on). Options: --duration S, --warmup S, --rounds N, --no-write',
    run: async (args) => (await import('./impact.ts')).run(args),
  },
  'request-path': {
    describe:
      'the cost of one request on the whole path (issue 29): /healthz, an authenticated task result, a cached funding search, an impact product, at 1 and 32 connections beside raw node:http on the same bytes; server CPU per request. Options: --duration S, --warmup S, --rounds N, --profile (where each µs goes; --profile=DIR keeps the .cpuprofile files for a flame graph), --no-write',
    run: async (args) => (await import('./request-path.ts')).run(args),
  },
  'keyed-read': {
    describe:
      "GET /human/v1/tasks/{ref}/result with a key in process (no socket): the human router through itty-router's fetch, the grouped walk, and the walk with the request's reads in one read transaction; the fastest of N rounds in turns. Options: --rounds N, --no-write",
    run: async (args) => (await import('./keyed-read.ts')).run(args),
  },
  'impact-run': {
    describe:
      'impact run pipeline on a synthetic catalogue (200 materials; 500 and 2,000 products; 1 and 5 scenarios; 1,000 draws): time and peak memory. Options: --products 500,2000 --scenarios 1,5 --draws N --materials M',
    run: async (args) => (await import('./impact-run.ts')).run(args),
  },
  parsers: {
    describe:
      'the hand-written parsers that stayed (CSV, multipart, EXIF) against csv-parse, busboy and exifr on the same inputs, with whether the answers agree. Options: --rows N, --rounds N',
    run: async (args) => (await import('./parsers.ts')).run(args),
  },
  startup: {
    describe:
      'start time to /readyz and memory (at ready, after a warm-up) of the bundle (node dist/main.js serve) vs tsx main.ts serve; medians of several runs. Options: --runs N, --requests N, --no-write',
    run: async (args) => (await import('./startup.ts')).run(args),
  },
  cluster: {
    describe:
      'reads and durable orders at 32 connections: the single process vs serve --workers N, beside raw node:http; and the shared counters alone (primary round trip vs a SQLite counter). Options: --workers 1,2,4 --duration S, --warmup S, --no-write',
    run: async (args) => (await import('./cluster.ts')).run(args),
  },
  // Later: human, impact.
};

function usage(): string {
  return [
    'Usage: npm run bench -- <name> [options]',
    '',
    'Benchmarks:',
    ...Object.entries(BENCHMARKS).map(([name, b]) => `  ${name.padEnd(12)} ${b.describe}`),
  ].join('\n');
}

const [name, ...args] = process.argv.slice(2);
const bench = name === undefined ? undefined : BENCHMARKS[name];
if (!bench) {
  console.error(name === undefined ? usage() : `Unknown benchmark '${name}'.\n\n${usage()}`);
  process.exitCode = 2;
} else {
  await bench.run(args);
}

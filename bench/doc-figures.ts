/**
 * The figures the documents quote, read from the blocks benchmarks write in BENCHMARKS.md, never typed
 * by hand (issue 29: docs/scaling.md quoted 3,350 durable orders/s, which no benchmark had recorded).
 * A document marks each figure it quotes, `<!-- figure:NAME -->value<!-- /figure -->` (the markers do
 * not render), and `fillFigures` rewrites what is between them from the blocks. Each benchmark run
 * refreshes the documents after writing its block (bench/load.ts writeBenchmarkSection), and
 * tests/docs-figures.test.ts fails when a document says something else than the blocks: a figure
 * whose block, row or sentence is gone is an error naming it, not an old number left in place.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The documents that quote benchmark figures. */
export const FIGURE_DOCS = ['docs/scaling.md'];

/** The text of a generated block (`<!-- bench:NAME:begin … -->` to its end marker). */
function blockOf(md: string, name: string): string {
  const begin = md.indexOf(`<!-- bench:${name}:begin`);
  const end = md.indexOf(`<!-- bench:${name}:end -->`);
  if (begin === -1 || end < begin) throw new Error(`BENCHMARKS.md has no block '${name}'`);
  return md.slice(begin, end);
}

const cells = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());

/** A cell of a block's table: the row whose first cell starts with `row` (and whose second is `server`, if given). */
function cell(block: string, row: string, column: string, server?: string): string {
  const lines = block.split('\n').filter((l) => l.startsWith('|'));
  const header = cells(lines[0] ?? '');
  const at = header.indexOf(column);
  if (at === -1) throw new Error(`no column '${column}' in the table of the block`);
  const found = lines
    .slice(2)
    .map(cells)
    .find((c) => c[0]!.startsWith(row) && (server === undefined || c[1] === server));
  if (!found || !found[at]) throw new Error(`no row '${row}'${server ? ` (${server})` : ''} with '${column}'`);
  return found[at]!;
}

/** The first group of a pattern in a block. */
function match(block: string, pattern: RegExp): string {
  const m = pattern.exec(block);
  if (!m) throw new Error(`no ${pattern} in the block`);
  return m[1]!;
}

/** The number a figure starts with ('201 µs' is 201). */
const number = (text: string) => Number(/^[\d.]+/.exec(text.replace(/,/g, ''))?.[0] ?? NaN);
const grouped = (n: number, digits = 0) =>
  n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

type Blocks = (name: string) => string;

/** Every figure a document may quote, by name: how it is read (or computed) from the blocks. */
const FIGURES: Record<string, (b: Blocks) => string> = {
  // Several processes (bench/cluster.ts)
  'cluster.date': (b) => match(b('cluster'), /(\d{4}-\d{2}-\d{2})/),
  'cluster.load': (b) => match(b('cluster'), /Load average ([\d.]+ before, [\d.]+ after)/),
  'cluster.reads': (b) => cell(b('cluster'), 'single process', 'reads/s'),
  'cluster.readsRaw': (b) => cell(b('cluster'), 'raw node:http', 'reads/s'),
  'cluster.cpuRead': (b) => cell(b('cluster'), 'single process', 'CPU µs/read'),
  'cluster.orders': (b) => cell(b('cluster'), 'single process', 'durable orders/s'),
  'cluster.cpuOrder': (b) => cell(b('cluster'), 'single process', 'CPU µs/order'),
  'cluster.cpuReadByWorkers': (b) =>
    ['single process', 'serve --workers 1', 'serve --workers 2', 'serve --workers 4']
      .map((r) => cell(b('cluster'), r, 'CPU µs/read'))
      .join(' → '),
  'cluster.cpuOrderByWorkers': (b) =>
    ['single process', 'serve --workers 1', 'serve --workers 2', 'serve --workers 4']
      .map((r) => cell(b('cluster'), r, 'CPU µs/order'))
      .join(' → '),
  'counter.ipcRoundTrip': (b) => match(b('cluster'), /one request at a time: ([\d,.]+ µs)/),
  'counter.ipcBatched': (b) => match(b('cluster'), /batched as workers send them under load: ([\d,]+) counts\/s/),
  'counter.sqliteOne': (b) => match(b('cluster'), /([\d,]+)\/s from one process/),
  'counter.sqliteTwo': (b) => match(b('cluster'), /([\d,]+)\/s in total from two processes/),
  'counter.redis': (b) => match(b('cluster'), /redis-server on the same machine\): ([\d,]+) counts\/s/),
  'counter.ipcOverSqlite': (b) =>
    grouped(number(FIGURES['counter.ipcBatched']!(b)) / number(FIGURES['counter.sqliteOne']!(b)), 1),
  // Human task orders (bench/human.ts)
  'human.date': (b) => match(b('human'), /Run (\d{4}-\d{2}-\d{2})/),
  'human.load': (b) => match(b('human'), /load average ([\d.]+ before the run and [\d.]+ after)/),
  'human.orders': (b) => cell(b('human'), 'POST /tasks (sandbox, durable', '32 conn req/s'),
  'human.cpuOrder': (b) => match(b('human'), /Server CPU per durable order at 32 connections: ([\d,]+ µs)/),
  'human.perFsync': (b) => match(b('human'), /\(([\d.]+) per fsync on average/),
  // The HTTP adapter beside Fastify and raw node:http (bench/adapter.ts)
  'adapter.date': (b) => match(b('adapter'), /Run (\d{4}-\d{2}-\d{2})/),
  'adapter.load': (b) => match(b('adapter'), /load average ([\d.]+ before the run and [\d.]+ after)/),
  'adapter.vsFastify': (b) => match(b('adapter'), /- trio ([\d.]+) × Fastify/),
  'adapter.vsRaw': (b) => match(b('adapter'), /- trio ([\d.]+) × raw/),
  'adapter.fastifyVsRaw': (b) => cell(b('adapter'), 'Fastify 5', '× raw (1 / 32 conn)').split(' / ')[1]!,
  // The cost of one request (bench/request-path.ts)
  'path.date': (b) => match(b('request-path'), /Run (\d{4}-\d{2}-\d{2})/),
  'path.load': (b) => match(b('request-path'), /load average ([\d.]+ before the run and [\d.]+ after)/),
  'path.cpuKeyedRaw': (b) =>
    cell(
      b('request-path'),
      'GET /human/v1/tasks/{ref}/result',
      'server CPU µs/request (1 / 32 conn)',
      'raw node:http, same bytes',
    ).split(' / ')[1]!,
  'path.cpuKeyed': (b) =>
    cell(b('request-path'), 'GET /human/v1/tasks/{ref}/result', 'server CPU µs/request (1 / 32 conn)', 'trio').split(
      ' / ',
    )[1]!,
  'path.cpuImpact': (b) =>
    cell(b('request-path'), 'GET /impact/v1/product/{slug}', 'server CPU µs/request (1 / 32 conn)', 'trio').split(
      ' / ',
    )[1]!,
  // Funding search (bench/funding.ts)
  'funding.database': (b) => match(b('funding-uncached'), /database ([\d,]+ MiB)/),
  // Sizing (docs/scaling.md, section 3): today's reads and durable orders, and 10 and 100 times them.
  'sizing.reads': (b) => FIGURES['cluster.reads']!(b),
  'sizing.reads10': (b) => grouped(number(FIGURES['cluster.reads']!(b)) * 10),
  'sizing.reads100': (b) => grouped(number(FIGURES['cluster.reads']!(b)) * 100),
  'sizing.orders': (b) => FIGURES['human.orders']!(b),
  'sizing.orders10': (b) => grouped(number(FIGURES['human.orders']!(b)) * 10),
  'sizing.orders100': (b) => grouped(number(FIGURES['human.orders']!(b)) * 100),
  // Cores for reads at the measured CPU per read, with 30 % headroom.
  'sizing.cores10': (b) => grouped(Math.ceil((number(FIGURES['sizing.reads10']!(b)) * number(cpuRead(b)) * 1.3) / 1e6)),
  'sizing.cores100': (b) =>
    grouped(Math.ceil((number(FIGURES['sizing.reads100']!(b)) * number(cpuRead(b)) * 1.3) / 1e6)),
  'sizing.readsPerCore': (b) => grouped(Math.floor(1e6 / number(cpuRead(b)) / 100) * 100),
  'sizing.ordersPerCore': (b) => grouped(Math.floor(1e6 / number(FIGURES['human.cpuOrder']!(b)) / 100) * 100),
};

const cpuRead = (b: Blocks) => FIGURES['cluster.cpuRead']!(b);

const MARK = /<!-- figure:([\w.]+) -->([\s\S]*?)<!-- \/figure -->/g;

/** The document with every marked figure as the blocks say it; throws naming a figure that cannot be read. */
export function fillFigures(doc: string, benchmarks: string): string {
  const blocks: Blocks = (name) => blockOf(benchmarks, name);
  return doc.replace(MARK, (_all, name: string) => {
    const read = FIGURES[name];
    if (!read) throw new Error(`unknown figure '${name}' (bench/doc-figures.ts FIGURES)`);
    let value: string;
    try {
      value = read(blocks);
      if (/NaN|Infinity/.test(value)) throw new Error(`reads as ${value}`);
    } catch (err) {
      throw new Error(`figure '${name}': ${(err as Error).message}`, { cause: err });
    }
    return `<!-- figure:${name} -->${value}<!-- /figure -->`;
  });
}

/** Rewrites the documents' figures from BENCHMARKS.md; the documents it changed. */
export function refreshDocFigures(): string[] {
  const benchmarks = readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8');
  const changed: string[] = [];
  for (const doc of FIGURE_DOCS) {
    const path = join(ROOT, doc);
    const text = readFileSync(path, 'utf8');
    const filled = fillFigures(text, benchmarks);
    if (filled !== text) {
      writeFileSync(path, filled);
      changed.push(doc);
    }
  }
  return changed;
}

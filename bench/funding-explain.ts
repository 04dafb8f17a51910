/**
 * `npx tsx bench/funding-explain.ts [--calls N] [--runs R]`: for each query of the funding bench mix,
 * the statements db/funding/search.ts runs (captured from db.prepare), their EXPLAIN QUERY PLAN, and
 * their time run directly through better-sqlite3 on the cached corpus (no HTTP): min / median / max
 * over R runs after one warm-up. An investigation aid for BENCHMARKS.md; it does not write anything.
 */
import { openDatabase } from '../db/connection.ts';
import { FundingSearch } from '../db/funding/search.ts';
import { toFilters } from '../routes/funding/filters.ts';
import { CORPUS_NOW, ensureCorpus } from './funding-corpus.ts';
import { QUERY_MIX } from './funding-queries.ts';
import { spyOnStatements } from './statement-spy.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const calls = arg('--calls', 1_000_000);
const runs = arg('--runs', 7);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

const corpus = ensureCorpus(calls, (l) => console.log(l));
// The server's connection: its SQL functions (the search's triggers and served deadlines call them) and cache.
const db = openDatabase(corpus.path, { readonly: true });
// Capture each statement search.ts prepares and the parameters it last ran with.
const captured = new Map<string, unknown>();
const prepare = spyOnStatements(db, (sql, params) => captured.set(sql, params));

function time(fn: () => unknown): { min: number; med: number; max: number } {
  fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    fn();
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  t.sort((a, b) => a - b);
  return { min: t[0]!, med: t[Math.floor(t.length / 2)]!, max: t[t.length - 1]! };
}
const ms = (x: { min: number; med: number; max: number }) =>
  `${x.min.toFixed(2)} / ${x.med.toFixed(2)} / ${x.max.toFixed(2)} ms`;

for (const query of QUERY_MIX) {
  if (only && query.name !== only) continue;
  const filters = toFilters(query.params as Parameters<typeof toFilters>[0], CORPUS_NOW);
  const search = new FundingSearch(db);
  captured.clear();
  const page = time(() => search.search(filters, 21, null));
  console.log(
    `\n=== ${query.name} ${JSON.stringify(query.params)}  page and count ${ms(page)}  (min / median / max of ${runs})`,
  );
  for (const [sql, params] of captured) {
    console.log('--- ' + sql.replace(/\s+/g, ' ').slice(0, 400));
    const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params ?? {}) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const depth = new Map<number, number>([[0, 0]]);
    for (const step of plan) {
      const d = (depth.get(step.parent) ?? 0) + 1;
      depth.set(step.id, d);
      console.log('  '.repeat(d) + step.detail);
    }
  }
}
db.close();

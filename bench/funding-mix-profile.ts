/**
 * `npx tsx bench/funding-mix-profile.ts [--calls N] [--db copy.sqlite] [--out ids.json] [--compare ids.json] [--explain K]`
 *
 * The 1,200-query mix of `npm run bench -- funding` (bench/funding.ts buildMix), run in-process against
 * the cached corpus through the search code itself (FundingSearch.search, as routes/funding/search.ts
 * calls it: 21 rows, first page), with no HTTP and no page cache. For each query: the time of its
 * first run and of a repeat, the statements it ran and their time; then the slowest tenth grouped by
 * shape (what q is, which filters, sort), and the plans (EXPLAIN QUERY PLAN) of the K slowest.
 *
 * --out writes every query's result (ids in order, total, total_exact); --compare checks a run against
 * such a file and exits non-zero on any difference: the before/after check that a speed change kept
 * every result identical. An investigation aid for BENCHMARKS.md; it writes nothing else.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { toFtsQuery } from '../lib/funding/search-tiers.ts';
import { openDatabase } from '../db/connection.ts';
import { FundingSearch } from '../db/funding/search.ts';
import { toFilters, type FilterParams } from '../routes/funding/filters.ts';
import { CORPUS_NOW, ensureCorpus } from './funding-corpus.ts';
import { buildMix } from './funding-queries.ts';
import { spyOnStatements } from './statement-spy.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const calls = Number(arg('--calls') ?? 1_000_000);
const explainCount = Number(arg('--explain') ?? 12);
const out = arg('--out');
const compare = arg('--compare');

const corpus = ensureCorpus(calls, (l) => console.log(l));
// --db: another copy of the corpus (e.g. one whose FTS index was optimized), same calls.
const db = openDatabase(arg('--db') ?? corpus.path);

/** Each statement's SQL and time within the current query. */
let statements: Array<{ sql: string; ms: number; params: unknown }> = [];
const prepare = spyOnStatements(db, (sql, params, ms) => statements.push({ sql, ms, params }));

/** What the query is, as the mix draws it (bench/funding.ts buildMix). */
function qKind(q: string | undefined): string {
  if (q === undefined) return 'none';
  if (q.startsWith('"')) return 'phrase';
  if (q.endsWith('*')) return `prefix(${q.length - 1})`;
  if (/ or /.test(q)) return 'a or b';
  if (/ -/.test(q)) return 'a -b';
  if (/[0-9]/.test(q)) return 'identifier';
  if (q.includes(' ')) return 'two words';
  return 'word';
}

function shape(params: FilterParams): string {
  const f = [params.status && `status=${params.status}`, params.country && 'country', params.region && 'region']
    .filter(Boolean)
    .join('+');
  return `${qKind(params.q)} | ${f || '-'} | ${params.sort ?? 'relevance'}`;
}

const search = new FundingSearch(db);
const mix = buildMix(db, corpus.calls);
const countStmt = prepare('SELECT count(*) FROM funding_calls_fts WHERE funding_calls_fts MATCH ?').pluck();

interface Result {
  path: string;
  shape: string;
  first: number;
  repeat: number;
  matches: number;
  total: number;
  exact: boolean;
  ids: string[];
  statements: Array<{ sql: string; ms: number; params: unknown }>;
}
const results: Result[] = [];
const started = Date.now();
for (const path of mix) {
  const params = Object.fromEntries(new URL(path, 'http://x').searchParams) as FilterParams;
  statements = [];
  const t0 = process.hrtime.bigint();
  const page = search.search(toFilters(params, CORPUS_NOW), 21, null, 0);
  const first = Number(process.hrtime.bigint() - t0) / 1e6;
  const firstStatements = statements;
  const t1 = process.hrtime.bigint();
  search.search(toFilters(params, CORPUS_NOW), 21, null, 0);
  const repeat = Number(process.hrtime.bigint() - t1) / 1e6;
  const text = params.q !== undefined || params.region !== undefined ? toFtsQuery(params.q, params.region) : null;
  results.push({
    path,
    shape: shape(params),
    first,
    repeat,
    matches: text ? (countStmt.get(text.all) as number) : -1,
    total: page.total,
    exact: page.exact,
    ids: page.rows.map((r) => r.id),
    statements: firstStatements,
  });
}
const wall = Date.now() - started;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const firsts = results.map((r) => r.first);
const repeats = results.map((r) => r.repeat);
console.log(
  `\n${results.length} queries in ${(wall / 1000).toFixed(1)} s (with repeats and match counts). ` +
    `first run mean ${(firsts.reduce((a, b) => a + b, 0) / firsts.length).toFixed(1)} / p50 ${pct(firsts, 50).toFixed(1)} / p90 ${pct(firsts, 90).toFixed(1)} / p95 ${pct(firsts, 95).toFixed(1)} / p99 ${pct(firsts, 99).toFixed(1)} / max ${pct(firsts, 100).toFixed(1)} ms; ` +
    `repeat p50 ${pct(repeats, 50).toFixed(1)} / p95 ${pct(repeats, 95).toFixed(1)} / p99 ${pct(repeats, 99).toFixed(1)} ms`,
);

// The slowest tenth, by shape.
const slow = [...results].sort((a, b) => b.first - a.first).slice(0, Math.ceil(results.length / 10));
const byShape = new Map<string, Result[]>();
for (const r of slow) byShape.set(r.shape, [...(byShape.get(r.shape) ?? []), r]);
const inMix = (s: string) => results.filter((r) => r.shape === s).length;
console.log(
  '\nSlowest 10 % by shape (q kind | filters | sort): n in slow tenth / n in mix, first-run ms median / max, repeat median, matches median',
);
console.log('| shape | slow / all | first ms (median / max) | repeat ms (median) | matches (median) |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [s, rs] of [...byShape].sort((a, b) => b[1].length - a[1].length)) {
  console.log(
    `| ${s} | ${rs.length} / ${inMix(s)} | ${pct(
      rs.map((r) => r.first),
      50,
    ).toFixed(1)} / ${pct(
      rs.map((r) => r.first),
      100,
    ).toFixed(1)} | ${pct(
      rs.map((r) => r.repeat),
      50,
    ).toFixed(1)} | ${pct(
      rs.map((r) => r.matches),
      50,
    ).toLocaleString('en')} |`,
  );
}

// Where the time of the slowest tenth went: each statement kind's share.
const bySql = new Map<string, { n: number; ms: number }>();
for (const r of slow)
  for (const s of r.statements) {
    // Statements that read call rows share their column list: keyed from FROM on, which names the plan.
    const flat = s.sql.replace(/\s+/g, ' ');
    const key = (flat.startsWith('SELECT c.seq') ? '[rows] ' + flat.slice(flat.indexOf(' FROM ')) : flat).slice(0, 160);
    const e = bySql.get(key) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += s.ms;
    bySql.set(key, e);
  }
console.log('\nStatements of the slowest tenth, by total time:');
for (const [sql, e] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
  console.log(`${e.ms.toFixed(0).padStart(7)} ms ${String(e.n).padStart(4)}×  ${sql}`);

for (const r of slow.slice(0, explainCount)) {
  console.log(
    `\n=== ${decodeURIComponent(r.path.replace(/\+/g, ' '))}  first ${r.first.toFixed(1)} ms, repeat ${r.repeat.toFixed(1)} ms, ${r.matches} text matches, total ${r.total}${r.exact ? '' : '+'}`,
  );
  for (const s of r.statements) {
    console.log(`--- ${s.ms.toFixed(1)} ms: ${s.sql.replace(/\s+/g, ' ').slice(0, 300)}`);
    const p = s.params as Record<string, unknown> | undefined;
    if (p && typeof p === 'object' && p.match) console.log(`    match: ${String(p.match).slice(0, 300)}`);
    if (/fts5vocab|funding_vocab|funding_imports/.test(s.sql)) continue;
    const plan = prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(s.params ?? {}) as Array<{
      id: number;
      parent: number;
      detail: string;
    }>;
    const depth = new Map<number, number>([[0, 0]]);
    for (const step of plan) {
      const d = (depth.get(step.parent) ?? 0) + 1;
      depth.set(step.id, d);
      console.log('  '.repeat(d + 1) + step.detail);
    }
  }
}

const summary = results.map(({ path, total, exact, ids }) => ({ path, total, exact, ids }));
if (out) writeFileSync(out, JSON.stringify({ now: CORPUS_NOW, results: summary }, null, 1));
if (compare) {
  const before = (JSON.parse(readFileSync(compare, 'utf8')) as { results: typeof summary }).results;
  const now = new Map(summary.map((r) => [r.path, r]));
  let differ = 0;
  for (const b of before) {
    const a = now.get(b.path);
    if (!a || a.total !== b.total || a.exact !== b.exact || a.ids.join() !== b.ids.join()) {
      differ++;
      if (differ <= 20)
        console.log(`DIFFERS ${b.path}: total ${b.total}${b.exact ? '' : '+'} → ${a?.total}${a?.exact ? '' : '+'}`);
    }
  }
  console.log(`\ncompared with ${compare}: ${before.length - differ} of ${before.length} queries identical`);
  if (differ) process.exitCode = 1;
}
db.close();

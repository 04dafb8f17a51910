/**
 * A deterministic synthetic funding corpus for `npm run bench -- funding`: N calls (default
 * 1,000,000) written straight into a fresh SQLite file through the real migrations (so the FTS5
 * index is built by the real triggers), in large transactions with one prepared statement.
 *
 * The rows are made by bench/funding-corpus-rows.ts.
 *
 * The generated file is cached under bench/.cache/, keyed by N, GENERATOR_VERSION and the migrations'
 * text, with a JSON sidecar recording the generation time; reruns reuse it.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optimizeSearchIndex } from '../db/funding/search-index.ts';
import { servedDeadlines } from '../db/funding/served-deadline.ts';
import { registerFundingFunctions } from '../db/funding/sql-functions.ts';
import { migrate } from '../db/migrate.ts';
import { grantFields } from './funding-corpus-grants.ts';
import { buildRow, buildVocabulary, CORPUS_NOW, GENERATOR_VERSION, plan, SEED } from './funding-corpus-rows.ts';

export { CORPUS_NOW, RARE_TERM } from './funding-corpus-rows.ts';

export interface CorpusInfo {
  path: string;
  calls: number;
  generatorVersion: number;
  corpusNow: number;
  generatedMs: number;
  /** Time of merging the full-text index into one segment (db/funding/search-index.ts), done once per file. */
  ftsOptimizedMs: number;
  distinctWords: number;
  bytes: number;
  reused: boolean;
}

const CACHE_DIR = join(import.meta.dirname, '.cache');
const MIGRATIONS_DIR = join(import.meta.dirname, '..', 'db', 'migrations');

/**
 * N, the generator and the migrations that mention funding: a change to any of them means a new file.
 * Other services' migrations are left out (the server applies them to the cached file at start), so
 * they do not cost a five-minute regeneration.
 */
function cacheKey(calls: number): string {
  const h = createHash('sha256').update(`v${GENERATOR_VERSION}|${calls}|${SEED}|${CORPUS_NOW}`);
  for (const f of readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(MIGRATIONS_DIR, f), 'utf8');
    if (/funding/i.test(sql)) h.update(f).update(sql);
  }
  return h.digest('hex').slice(0, 12);
}

export function corpusPath(calls: number): string {
  return join(CACHE_DIR, `funding-${calls}-v${GENERATOR_VERSION}-${cacheKey(calls)}.sqlite`);
}

/** Generates the corpus into `path` (overwriting it). Returns the number of distinct vocabulary words. */
export function generateCorpus(
  path: string,
  calls: number,
  onProgress?: (done: number, total: number) => void,
): number {
  rmSync(path, { force: true });
  const voc = buildVocabulary();
  // Pass 1: publication day of every row; rows are inserted in publication order (ties by row number).
  const keys = new Float64Array(calls);
  for (let i = 0; i < calls; i++) keys[i] = plan(i).pubDay * 2 ** 21 + i;
  keys.sort();

  const db = new Database(path);
  registerFundingFunctions(db); // the funding triggers stem and index every row (db/funding/sql-functions.ts)
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1048576'); // 1 GiB while building: index pages stay in memory
  db.pragma('temp_store = MEMORY');
  migrate(db, undefined, CORPUS_NOW);
  const insert =
    db.prepare(`INSERT INTO funding_calls (seq, id, source, source_id, title, summary, body, funder, programme,
    country, region, url, published_on, opening_on, deadline, deadline_time, deadline_text, cutoffs, time_zone, opens_at,
    closes_at, budget, currency, language, source_status, bdns_id, personal_data, content_hash, imported_at, updated_at,
    applicant_terms, applicant_mask, award_ceiling, changed_at)
    VALUES (@seq, @id, @source, @source_id, @title, @summary, @body, @funder, @programme, @country, @region, @url,
    @published_on, @opening_on, @deadline, @deadline_time, @deadline_text, @cutoffs, @time_zone, @opens_at, @closes_at,
    @budget, @currency, @language, @source_status, @bdns_id, @personal_data, @content_hash, @imported_at, @updated_at,
    @applicant_terms, @applicant_mask, @award_ceiling, @changed_at)`);
  const BATCH = 50_000;
  const writeBatch = db.transaction((from: number, to: number) => {
    for (let s = from; s < to; s++) {
      const i = keys[s]! % 2 ** 21;
      const row = buildRow(i, plan(i), voc);
      insert.run({ seq: s + 1, ...row, ...grantFields(i, row) });
    }
  });
  for (let from = 0; from < calls; from += BATCH) {
    writeBatch(from, Math.min(calls, from + BATCH));
    onProgress?.(Math.min(calls, from + BATCH), calls);
  }
  db.prepare(
    "INSERT INTO funding_imports (source, file_name, file_sha256, imported_at, inserted, updated, unchanged, withheld) VALUES ('bdns', 'synthetic-bench-corpus', ?, ?, ?, 0, 0, 0)",
  ).run(cacheKey(calls), CORPUS_NOW, calls);
  servedDeadlines(db)(CORPUS_NOW); // rows carry their first cut-off: serve the one open at CORPUS_NOW
  db.pragma('journal_mode = WAL');
  db.close();
  return voc.distinct;
}

/** Returns the cached corpus for `calls`, generating it first when absent. */
export function ensureCorpus(calls: number, log: (line: string) => void = () => {}): CorpusInfo {
  if (calls > 2 ** 21) throw new Error('at most 2,097,152 calls');
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = corpusPath(calls);
  const sidecar = `${path}.json`;
  if (existsSync(path) && existsSync(sidecar)) {
    const meta = JSON.parse(readFileSync(sidecar, 'utf8')) as Omit<CorpusInfo, 'reused' | 'bytes' | 'path'>;
    // A file generated before the index was optimized after a bulk load: optimize it once, in place.
    if (meta.ftsOptimizedMs === undefined) {
      meta.ftsOptimizedMs = optimizeIndex(path, log);
      writeFileSync(sidecar, JSON.stringify(meta, null, 2) + '\n');
    }
    return { ...meta, path, bytes: statSync(path).size, reused: true };
  }
  const tmp = `${path}.tmp`;
  log(`generating ${calls.toLocaleString('en')} calls into ${path} ...`);
  const started = process.hrtime.bigint();
  let lastReport = 0;
  const distinctWords = generateCorpus(tmp, calls, (done, total) => {
    const s = Number(process.hrtime.bigint() - started) / 1e9;
    if (done === total || s - lastReport >= 10) {
      lastReport = s;
      log(`  ${done.toLocaleString('en')} / ${total.toLocaleString('en')} calls, ${s.toFixed(0)} s`);
    }
  });
  const generatedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const ftsOptimizedMs = optimizeIndex(tmp, log);
  for (const suffix of ['-wal', '-shm']) rmSync(tmp + suffix, { force: true });
  renameSync(tmp, path);
  const meta = {
    calls,
    generatorVersion: GENERATOR_VERSION,
    corpusNow: CORPUS_NOW,
    generatedMs,
    ftsOptimizedMs,
    distinctWords,
  };
  writeFileSync(sidecar, JSON.stringify(meta, null, 2) + '\n');
  return { ...meta, path, bytes: statSync(path).size, reused: false };
}

/** What an operator does after a bulk load (`funding optimize-index`); returns its time in ms. */
function optimizeIndex(path: string, log: (line: string) => void): number {
  log('merging the full-text index into one segment (funding optimize-index) ...');
  const db = new Database(path);
  try {
    const r = optimizeSearchIndex(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    log(`  ${r.segmentsBefore} segments → ${r.segmentsAfter} in ${(r.ms / 1000).toFixed(1)} s`);
    return r.ms;
  } finally {
    db.close();
  }
}

// Allows `tsx bench/funding-corpus.ts --calls N` to build the cache without running the benchmark.
if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--calls');
  const calls = at === -1 ? 1_000_000 : Number(process.argv[at + 1]);
  const info = ensureCorpus(calls, (line) => console.log(line));
  console.log(JSON.stringify(info, null, 2));
}

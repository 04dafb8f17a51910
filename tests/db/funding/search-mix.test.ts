/**
 * The speed work on the benchmark's query mix (db/funding/filter-memory.ts, the cost-based plan of
 * db/funding/search.ts, db/funding/search-index.ts) changes no result: over a mix of queries drawn like
 * bench/funding.ts draws its own (words, pairs, phrases, prefixes, or, -word, with status, country,
 * region and deadline order), the default search gives the same ids in the same order, the same total
 * and the same total_exact as the search that decides every filter on the row in SQL and walks with an
 * FTS seek per row; the filters kept in memory follow the clock and imports; optimizing the index keeps
 * every answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../../db/connection.ts';
import { FundingSearch, positionAfter, type Position } from '../../../db/funding/search.ts';
import { compactSearchIndex, optimizeSearchIndex } from '../../../db/funding/search-index.ts';
import { migrate } from '../../../db/migrate.ts';
import { toFilters, type FilterParams } from '../../../routes/funding/filters.ts';
import { mulberry32 } from '../../../lib/mulberry32.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-funding-mix-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse('2026-11-22T10:00:00Z');
const DAY = 86_400_000;
const COUNTRIES = ['ES', 'ES', 'ES', 'ES', 'ES', 'ES', 'ES', 'EU', 'EU', 'FR', 'PT', 'IT'];
const TITLES = [
  'Ayudas para la transición energética de pymes industriales',
  'Subvenciones a proyectos de innovación cultural',
  'Convocatoria de ayudas a la contratación de investigadores',
  'Hydrogen valleys and renewable energy grants',
  'Research fellowships for early career researchers',
  'Ayudas al sector del vino y turismo rural',
  'Programa de apoyo a la economía circular',
  'Digital innovation hubs for small businesses',
];
const REGIONS = ['ES300 - Madrid', 'ES511 - Barcelona', 'ES618 - Sevilla (Andalucía)', null];

function corpus(n = 400): Db {
  const db = openDatabase(join(dir, `m${Math.random()}.db`));
  migrate(db, undefined, NOW);
  const insert =
    db.prepare(`INSERT INTO funding_calls (id, source, source_id, title, summary, country, region, published_on, deadline, cutoffs,
      time_zone, closes_at, opens_at, language, source_status, content_hash, imported_at, updated_at, applicant_mask, budget, changed_at)
    VALUES (@id, @source, @sid, @title, @summary, @country, @region, @published, @deadline, @cutoffs, 'Europe/Madrid', @closes, @opens, @language, @status, 'h', 0, 0,
      @mask, @budget, @changed)`);
  // Many inserts in small transactions leave the FTS index in several segments, as a real load does.
  for (let i = 0; i < n; i++) {
    const closes = i % 7 === 0 ? null : NOW + ((i % 23) - 17) * 9 * DAY + (i % 5) * 3_600_000;
    const deadline = closes === null ? null : new Date(closes - DAY / 2).toISOString().slice(0, 10);
    insert.run({
      id: `bdns:${800000 + i}`,
      source: i % 6 === 0 ? 'boe' : 'bdns',
      sid: String(800000 + i),
      title: `${TITLES[i % TITLES.length]} ${i % 3 === 0 ? 'Madrid' : 'Andalucía'}`,
      summary: TITLES[(i * 5 + 3) % TITLES.length],
      country: COUNTRIES[(i * 7) % COUNTRIES.length],
      region: REGIONS[i % REGIONS.length],
      published: new Date(NOW - (n - i) * DAY).toISOString().slice(0, 10),
      deadline,
      cutoffs: deadline ? JSON.stringify([{ date: deadline, time: null }]) : '[]',
      closes,
      opens: i % 13 === 0 ? NOW + (i % 4) * DAY + 3_600_000 : null,
      language: i % 3 === 0 ? 'en' : 'es',
      status: i % 17 === 0 ? 'closed' : null,
      // Issue 27's columns: who may apply (none for one call in five), a budget (none for one in four,
      // some exactly on the filters' edges), a recorded change for one call in nine.
      mask: i % 5 === 0 ? 0 : (i * 37) % 127 || 4,
      budget: i % 4 === 0 ? null : [50_000, 100_000, 250_000, 1_000_000, 3_000_000][i % 5],
      changed: i % 9 === 0 ? NOW - (i % 60) * DAY : null,
    });
  }
  db.prepare(
    "INSERT INTO funding_imports (source, file_name, file_sha256, imported_at, inserted, updated, unchanged, withheld) VALUES ('bdns', 't', 'x', 0, ?, 0, 0, 0)",
  ).run(n);
  return db;
}

function mix(size: number): FilterParams[] {
  const r = mulberry32(13); // as bench/funding.ts: the same mix every run
  const out = new Map<string, FilterParams>();
  for (let guard = 0; out.size < size && guard < size * 20; guard++) {
    const ws = TITLES[Math.floor(r() * TITLES.length)]!.split(/[^\p{L}]+/u).filter((w) => w.length >= 4);
    const w = ws[Math.floor(r() * ws.length)]!.toLowerCase();
    const i = Math.floor(r() * (ws.length - 1));
    const pair = `${ws[i]!.toLowerCase()} ${ws[i + 1]!.toLowerCase()}`;
    const kind = r();
    const p: FilterParams = {};
    if (kind < 0.3) p.q = w;
    else if (kind < 0.5) p.q = pair;
    else if (kind < 0.6) p.q = `"${pair}"`;
    else if (kind < 0.7) p.q = `${w.slice(0, Math.max(4, w.length - 3))}*`;
    else if (kind < 0.8) p.q = `${w} or ${ws[i]!.toLowerCase()}`;
    else if (kind < 0.9) p.q = `${w} -${ws[(i + 1) % ws.length]!.toLowerCase()}`;
    else p.q = `bdns:${800000 + Math.floor(r() * 400)}`;
    const s = r();
    if (s < 0.4) p.status = 'open';
    else if (s < 0.5) p.status = 'forthcoming';
    else if (s < 0.55) p.status = 'closed';
    if (r() < 0.3) p.country = r() < 0.6 ? 'ES' : r() < 0.5 ? 'EU' : 'FR';
    if (r() < 0.1) p.source = 'boe';
    const o = r();
    if (o < 0.2) p.sort = 'deadline';
    else if (o < 0.3) p.sort = '-deadline';
    else if (o < 0.35) p.sort = 'published';
    if (r() < 0.1) p.region = r() < 0.5 ? 'Madrid' : 'Andalucía';
    out.set(JSON.stringify(p), p);
  }
  return [...out.values()];
}

/** The first page, the count, and every row through keyset pages of 7. */
function answer(search: FundingSearch, params: FilterParams, now = NOW) {
  const page = search.search(toFilters(params, now), 21, null);
  const walked: string[] = [];
  let position: Position | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const rows = search.rows(toFilters(params, now), 7, position);
    walked.push(...rows.map((r) => r.id));
    if (rows.length < 7) break;
    position = positionAfter(rows[rows.length - 1]!);
  }
  const third = search.search(toFilters(params, now), 5, null, 10).rows.map((r) => r.id);
  return { ids: page.rows.map((r) => r.id), total: page.total, exact: page.exact, walked, third };
}

const QUERIES = mix(60);

/** The mix again, with issue 27's filters added (who may apply, budget, changed since), and without text. */
function newFilterMix(): FilterParams[] {
  const r = mulberry32(27);
  const types = [
    'individual',
    'self_employed',
    'sme',
    'large_company',
    'non_profit',
    'public_body',
    'research',
    'unstated',
  ];
  return [...QUERIES.slice(0, 30), ...QUERIES.slice(0, 20).map(({ q: _q, region: _r, ...p }) => p)].map((base) => {
    const p: FilterParams = { ...base };
    if (r() < 0.6) p.applicant_type = [...new Set([0, 1].map(() => types[Math.floor(r() * types.length)]!))].join(',');
    if (r() < 0.5) {
      if (r() < 0.7) p.budget_min = [0, 100_000, 250_000][Math.floor(r() * 3)]!;
      if (r() < 0.5) p.budget_max = [250_000, 1_000_000][Math.floor(r() * 2)]!;
      if (r() < 0.4) p.budget_unstated = 'exclude';
    }
    if (r() < 0.3 || (!p.applicant_type && !p.budget_min && !p.budget_max)) p.changed_since = '2026-10-15';
    return p;
  });
}

test("issue 27's filters: decided in memory (text candidates, counts without text, reads by id), they answer as SQL row by row", () => {
  const db = corpus();
  const fast = new FundingSearch(db);
  const rowByRow = new FundingSearch(db, { materializeUpTo: 0, listUpTo: 0, countBudget: 10_000, memory: false });
  let nonEmpty = 0;
  const queries = newFilterMix();
  for (const params of queries) {
    const expected = answer(rowByRow, params);
    if (expected.total > 0) nonEmpty++;
    assert.deepEqual(answer(fast, params), expected, JSON.stringify(params));
  }
  assert.ok(nonEmpty > queries.length / 3, `${nonEmpty} of ${queries.length} queries find calls`);
});

test('the mix: every query answers as the search that reads each row in SQL does', () => {
  const db = corpus();
  const fast = new FundingSearch(db);
  const rowByRow = new FundingSearch(db, { materializeUpTo: 0, listUpTo: 0, countBudget: 10_000, memory: false });
  let nonEmpty = 0;
  for (const params of QUERIES) {
    const expected = answer(rowByRow, params);
    if (expected.total > 0) nonEmpty++;
    assert.deepEqual(answer(fast, params), expected, JSON.stringify(params));
  }
  // The mix is not vacuous: most queries find calls, some many.
  assert.ok(nonEmpty > QUERIES.length / 2, `${nonEmpty} of ${QUERIES.length} queries find calls`);
});

test('the mix under a small count budget: the same floors, and the pages are unaffected', () => {
  const db = corpus();
  const options = { materializeUpTo: 10_000, listUpTo: 100_000, countBudget: 9 };
  const fast = new FundingSearch(db, options);
  const rowByRow = new FundingSearch(db, { ...options, memory: false });
  let floors = 0;
  for (const params of QUERIES) {
    const expected = answer(rowByRow, params);
    if (!expected.exact) floors++;
    assert.deepEqual(answer(fast, params), expected, JSON.stringify(params));
  }
  assert.ok(floors > 3, `${floors} counts are floors`);
});

test('the statuses kept in memory follow the clock (forwards and back) and imports', () => {
  const db = corpus();
  const kept = new FundingSearch(db);
  const statusQueries = QUERIES.filter((p) => p.status === 'open' || p.status === 'forthcoming');
  assert.ok(statusQueries.length > 10);
  // Days on which calls close and open (deadlines are 9 days apart; openings within 4 days of NOW).
  for (const now of [NOW, NOW + 2 * DAY + 7_200_000, NOW + 20 * DAY, NOW - 30 * DAY]) {
    for (const params of statusQueries) {
      assert.deepEqual(
        answer(kept, params, now),
        answer(new FundingSearch(db), params, now),
        `${new Date(now).toISOString()} ${JSON.stringify(params)}`,
      );
    }
  }
  // An import that changes a call's country and adds an open call is seen at once.
  db.prepare("UPDATE funding_calls SET country = 'FR' WHERE id = 'bdns:800399'").run();
  db.prepare(
    `INSERT INTO funding_calls (id, source, source_id, title, country, published_on, deadline, cutoffs, time_zone, closes_at, language, content_hash, imported_at, updated_at)
    VALUES ('bdns:900001', 'bdns', '900001', 'Ayudas para la transición energética nuevas', 'ES', '2026-11-20', '2027-01-15', '[{"date":"2027-01-15","time":null}]', 'Europe/Madrid', ?, 'es', 'h', 0, 0)`,
  ).run(Date.parse('2027-01-15T22:59:59Z'));
  db.prepare(
    "INSERT INTO funding_imports (source, file_name, file_sha256, imported_at, inserted, updated, unchanged, withheld) VALUES ('bdns', 'u', 'y', 0, 1, 1, 0, 0)",
  ).run();
  const energy = answer(kept, { q: 'transición', status: 'open', country: 'ES' });
  assert.ok(energy.walked.includes('bdns:900001'));
  for (const params of QUERIES.filter((p) => p.status || p.country))
    assert.deepEqual(answer(kept, params), answer(new FundingSearch(db), params), JSON.stringify(params));
});

test('optimizing the index merges its segments and changes no answer', () => {
  const db = corpus();
  const before = QUERIES.map((p) => answer(new FundingSearch(db), p));
  const r = optimizeSearchIndex(db);
  assert.ok(r.segmentsBefore > 1, `${r.segmentsBefore} segments before`);
  assert.equal(r.segmentsAfter, 1);
  assert.deepEqual(
    QUERIES.map((p) => answer(new FundingSearch(db), p)),
    before,
  );
  assert.equal(optimizeSearchIndex(db).segmentsBefore, 1, 'a second run has nothing to merge');
});

test('after imports, more than MAX_SEGMENTS segments are merged into one in steps, and no answer changes', () => {
  const db = corpus();
  const before = QUERIES.map((p) => answer(new FundingSearch(db), p));
  const segments = () => db.prepare('SELECT count(DISTINCT segid) FROM funding_calls_fts_idx').pluck().get() as number;
  const have = segments();
  assert.ok(have > 1, `${have} segments`);
  assert.equal(compactSearchIndex(db, have), null, 'no more than the limit: nothing to do');
  assert.equal(segments(), have);
  const r = compactSearchIndex(db, 1, 4)!; // four pages a step: many steps
  assert.deepEqual([r.segmentsBefore, r.segmentsAfter], [have, 1]);
  assert.ok(r.steps > 2, `${r.steps} steps`);
  assert.deepEqual(
    QUERIES.map((p) => answer(new FundingSearch(db), p)),
    before,
  );
});

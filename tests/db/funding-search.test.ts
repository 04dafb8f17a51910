/**
 * db/funding/search.ts against a real SQLite file: the facet plan (a selective filter intersected in the
 * FTS index) gives exactly what the text alone gives, filtered row by row with the status rules of
 * lib/funding/status.ts; a stale served deadline moves on before a search reads it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { facetPlanner } from '../../db/funding/facets.ts';
import { FundingSearch, positionAfter } from '../../db/funding/search.ts';
import { importFundingFile } from '../../db/funding/import.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';
import { presentCall } from '../../lib/funding/present.ts';
import { toFilters, type FilterParams } from '../../routes/funding/filters.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-funding-search-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse('2026-11-22T10:00:00Z');
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'funding');
const DAY = 86_400_000;
const COUNTRIES = ['ES', 'ES', 'ES', 'ES', 'ES', 'ES', 'EU', 'EU', 'FR', 'PT', 'IT', 'DE'];
const WORDS = [
  'ayudas energía',
  'subvenciones agua',
  'hydrogen grants',
  'innovación pymes',
  'research fellowships',
  'vino y turismo',
];

function corpus() {
  const db = openDatabase(join(dir, `s${Math.random()}.db`));
  migrate(db, undefined, NOW);
  const insert =
    db.prepare(`INSERT INTO funding_calls (id, source, source_id, title, country, region, published_on, deadline, cutoffs,
      time_zone, closes_at, opens_at, language, source_status, content_hash, imported_at, updated_at)
    VALUES (@id, @source, @sid, @title, @country, @region, @published, @deadline, @cutoffs, 'Europe/Madrid', @closes, @opens, @language, @status, 'h', 0, 0)`);
  for (let i = 0; i < 240; i++) {
    const closes = i % 9 === 0 ? null : NOW + (((i % 10) - 9) * 45 + 20) * DAY + (i % 3) * DAY; // mostly past, some to come; some undated
    const deadline = closes === null ? null : new Date(closes - DAY / 2).toISOString().slice(0, 10);
    insert.run({
      id: `bdns:${700000 + i}`,
      source: i % 5 === 0 ? 'boe' : 'bdns',
      sid: String(700000 + i),
      title: `${WORDS[i % WORDS.length]} ${i}`,
      country: COUNTRIES[i % COUNTRIES.length],
      region: i % 4 === 0 ? 'ES300 - Madrid' : i % 4 === 1 ? 'ES511 - Barcelona' : null,
      published: new Date(NOW - (240 - i) * DAY).toISOString().slice(0, 10),
      deadline,
      cutoffs: deadline ? JSON.stringify([{ date: deadline, time: null }]) : '[]',
      closes,
      opens: i % 11 === 0 ? NOW + 5 * DAY : null,
      language: i % 3 === 0 ? 'en' : 'es',
      status: i % 13 === 0 ? 'closed' : null,
    });
  }
  db.prepare(
    "INSERT INTO funding_imports (source, file_name, file_sha256, imported_at, inserted, updated, unchanged, withheld) VALUES ('bdns', 't', 'x', 0, 240, 0, 0, 0)",
  ).run();
  return db;
}

test('a text search with filters equals the text search filtered row by row, whichever plan runs', () => {
  const db = corpus();
  const search = new FundingSearch(db);
  // Both plans run below: these filters are selective enough to be intersected in the index, ES is not.
  const plan = facetPlanner(db);
  assert.match(plan({ country: 'FR', source: null, status: null, now: NOW }).expr ?? '', /"_cfr"/);
  assert.match(plan({ country: null, source: 'boe', status: null, now: NOW }).expr ?? '', /"_sboe"/);
  assert.match(plan({ country: null, source: null, status: 'open', now: NOW }).expr ?? '', /"_mnone"/);
  assert.equal(plan({ country: 'ES', source: null, status: null, now: NOW }).expr, null);
  const all = (params: Record<string, string>) => {
    const f = toFilters(params, NOW);
    return search.rows(f, 1000, null).map((r) => presentCall(r, NOW));
  };
  for (const q of ['ayudas', 'hidrógeno', 'research OR vino', 'subvenciones -agua', 'turismo']) {
    const base = all({ q, sort: 'published' });
    assert.ok(base.length > 0, q);
    for (const country of [undefined, 'FR', 'ES', 'EU']) {
      for (const status of [undefined, 'open', 'forthcoming', 'closed'] as const) {
        for (const source of [undefined, 'boe']) {
          const params: Record<string, string> = { q, sort: 'published' };
          if (country) params.country = country;
          if (status) params.status = status;
          if (source) params.source = source;
          const got = all(params).map((c) => c.id);
          const expected = base
            .filter(
              (c) =>
                (!country || c.country === country) &&
                (!status || c.status === status) &&
                (!source || c.source === source),
            )
            .map((c) => c.id);
          assert.deepEqual(got, expected, JSON.stringify(params));
          const total = search.search(toFilters(params, NOW), 1, null).total;
          assert.equal(total, expected.length, `total ${JSON.stringify(params)}`);
        }
      }
    }
  }
});

test('a served cut-off that has passed moves on before a search reads it', () => {
  const db = corpus();
  const cutoffs = [
    { date: '2026-12-01', time: null },
    { date: '2027-03-01', time: null },
  ];
  db.prepare(
    `INSERT INTO funding_calls (id, source, source_id, title, country, deadline, cutoffs, time_zone, closes_at, language, content_hash, imported_at, updated_at)
    VALUES ('eu:MULTI', 'eu', 'MULTI', 'multi cut-off hydrogen', 'EU', '2026-12-01', ?, 'Europe/Brussels', ?, 'en', 'h', 0, 0)`,
  ).run(JSON.stringify(cutoffs), Date.parse('2027-03-01T23:00:00Z'));
  const served = () => db.prepare("SELECT deadline, served_closes_at FROM funding_calls WHERE id = 'eu:MULTI'").get();
  assert.deepEqual(
    served(),
    { deadline: '2026-12-01', served_closes_at: Date.parse('2026-12-01T23:00:00Z') },
    'the trigger keeps the served instant',
  );
  const search = new FundingSearch(db);
  const later = Date.parse('2026-12-15T10:00:00Z');
  const ids = search.search(toFilters({ sort: 'deadline', status: 'open' }, later), 500, null).rows.map((r) => r.id);
  assert.deepEqual(served(), { deadline: '2027-03-01', served_closes_at: Date.parse('2027-03-01T23:00:00Z') });
  assert.ok(ids.includes('eu:MULTI'));
});

test('sorted text searches: read-and-sort (few matches), the walk against a list (more) and the walk with an FTS seek per row (many) give the same pages', () => {
  const db = corpus();
  const sortFew = new FundingSearch(db);
  for (const walk of [
    new FundingSearch(db, { materializeUpTo: 0, listUpTo: 1_000_000, countBudget: 10_000 }),
    new FundingSearch(db, { materializeUpTo: 0, listUpTo: 0, countBudget: 10_000 }),
  ]) {
    for (const text of [
      { q: 'ayudas' },
      { q: 'research OR vino' },
      { q: 'subvenciones -agua' },
      { region: 'Madrid' },
      { q: 'ayudas', region: 'barcelona' },
    ] as Array<Record<string, string>>) {
      for (const sort of ['deadline', '-deadline', 'published'] as const) {
        for (const extra of [{}, { status: 'open' }, { country: 'FR' }, { source: 'boe' }] as Array<
          Record<string, string>
        >) {
          const params: Record<string, string> = { ...text, sort, ...extra };
          const ids = (s: FundingSearch) => s.rows(toFilters(params, NOW), 1000, null).map((r) => r.id);
          const expected = ids(sortFew);
          assert.deepEqual(ids(walk), expected, JSON.stringify(params));
          // Keyset pages of 7 through the walk plan add up to the same list.
          const paged: string[] = [];
          let after = null;
          for (;;) {
            const rows = walk.rows(toFilters(params, NOW), 7, after);
            paged.push(...rows.map((r) => r.id));
            if (rows.length < 7) break;
            after = positionAfter(rows[rows.length - 1]!);
          }
          assert.deepEqual(paged, expected, `paged ${JSON.stringify(params)}`);
        }
      }
    }
  }
});

test('a filtered text count that looks through more text matches than its budget says its total is a floor', () => {
  const db = corpus();
  const full = new FundingSearch(db);
  const budgeted = new FundingSearch(db, { materializeUpTo: 10_000, listUpTo: 100_000, countBudget: 12 });
  const cases: FilterParams[] = [
    { q: 'ayudas OR research OR vino', status: 'open' },
    { q: 'ayudas OR research OR vino', status: 'forthcoming' },
    { q: 'ayudas OR research', country: 'ES' },
  ];
  for (const params of cases) {
    const exact = full.search(toFilters(params, NOW), 1, null);
    const floor = budgeted.search(toFilters(params, NOW), 1, null);
    assert.equal(exact.exact, true, JSON.stringify(params));
    assert.equal(floor.exact, false, JSON.stringify(params));
    assert.ok(
      floor.total <= exact.total && floor.total <= 12,
      `${JSON.stringify(params)}: ${floor.total} ≤ ${exact.total}`,
    );
    assert.deepEqual(
      floor.rows.map((r) => r.id),
      exact.rows.map((r) => r.id),
      'the page itself is not affected',
    );
  }
  // Without a filter the index counts alone: exact.
  assert.equal(budgeted.search(toFilters({ q: 'ayudas' }, NOW), 1, null).exact, true);
});

test('migration 012 rebuilds the index of stored calls exactly as the triggers index a new import', () => {
  const files: Array<[Parameters<typeof importFundingFile>[1], string]> = [
    ['eu', 'eu/grantsTenders.json'],
    ['bdns', 'bdns/convocatorias-busqueda.json'],
    ['boe', 'boe/sumario-20251103.xml'],
    ['cordis', 'cordis/project.csv'],
  ];
  const migrations = loadMigrations();
  // Without 012; the later migrations (014: columns today's importer writes) are applied already.
  const imported = (without: number | null) => {
    const db = openDatabase(join(dir, `m${without}-${Math.random()}.db`));
    migrate(
      db,
      migrations.filter((m) => m.version !== without),
      NOW,
    );
    for (const [source, file] of files) importFundingFile(db, source, join(FIXTURES, file), NOW);
    return db;
  };
  const upgraded = imported(12);
  migrate(upgraded, migrations, NOW); // 012 on a database that already holds the calls
  const fresh = imported(null);
  const index = (db: ReturnType<typeof openDatabase>) => {
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, funding_calls_fts, instance)');
    return db.prepare('SELECT term, doc, col, offset FROM temp.v ORDER BY doc, col, offset').raw().all();
  };
  const rebuilt = index(upgraded);
  assert.ok(rebuilt.length > 1000, `${rebuilt.length} index entries`);
  assert.deepEqual(rebuilt, index(fresh));
  const search = (db: ReturnType<typeof openDatabase>, params: FilterParams) =>
    new FundingSearch(db).search(toFilters(params, NOW), 20, null).rows.map((r) => r.id);
  for (const params of [
    { q: '"transición ecológica"' },
    { q: '"energy storage"' },
    { q: 'ayudas', country: 'ES' },
    { q: 'nature' },
  ]) {
    const ids = search(fresh, params);
    assert.ok(ids.length > 0, `${JSON.stringify(params)} finds calls`);
    assert.deepEqual(search(upgraded, params), ids, JSON.stringify(params));
  }
});

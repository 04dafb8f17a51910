/**
 * The funding importers against a real SQLite file (temp dir, all migrations): counts, idempotent
 * re-imports, atomic refusal of malformed files, merge rules across reads, BOE↔BDNS joins and the
 * withholding of personal data.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { importFundingFile, importFundingText, type ImportSummary } from '../../db/funding/import.ts';
import { migrate } from '../../db/migrate.ts';
import { ImportFormatError, type SourceCode } from '../../lib/funding/records.ts';
import { toFtsQuery } from '../../lib/funding/search-tiers.ts';

// The hand-made trap fixtures (fixtures/funding/traps.json); the real records' imports are in
// tests/db/funding-real-import.test.ts.
const FIX = join(import.meta.dirname, '..', '..', 'fixtures', 'funding');
const NOW = Date.parse('2026-11-22T10:00:00Z');
const MANIFEST = JSON.parse(readFileSync(join(FIX, 'traps.json'), 'utf8')) as Array<{
  source: SourceCode;
  path: string;
}>;
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trio-funding-'));
  dirs.push(dir);
  return dir;
}
function freshDb(): Db {
  const db = openDatabase(join(tempDir(), 'trio.db'));
  migrate(db, undefined, NOW);
  return db;
}
const imp = (db: Db, source: SourceCode, path: string, now = NOW) =>
  importFundingFile(db, source, join(FIX, path), now);
const loadAll = (db: Db, entries = MANIFEST) => entries.map((e) => imp(db, e.source, e.path));
const changes = (db: Db) => db.prepare('SELECT total_changes()').pluck().get() as number;
const call = (db: Db, id: string) =>
  db.prepare('SELECT * FROM funding_calls WHERE id = ?').get(id) as Record<string, unknown> | undefined;
// Through the query compiler: the index holds stemmed keys (db/migrations/008_funding_search.sql).
const fts = (db: Db, q: string) =>
  db
    .prepare('SELECT rowid FROM funding_calls_fts WHERE funding_calls_fts MATCH ?')
    .pluck()
    .all(toFtsQuery(q)!.all) as number[];
const snapshot = (db: Db) =>
  Object.fromEntries(
    ['funding_calls', 'funding_projects', 'funding_notices', 'funding_calls_fts_data', 'funding_calls_fts_idx'].map(
      (t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()],
    ),
  );
const counts = (db: Db) =>
  ['funding_calls', 'funding_projects', 'funding_notices', 'funding_imports', 'funding_calls_fts_data'].map((t) =>
    db.prepare(`SELECT count(*) FROM ${t}`).pluck().get(),
  );
const pick = (s: ImportSummary, keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, (s as unknown as Record<string, unknown>)[k]]));

test('the trap manifest imports every fixture with the expected counts', () => {
  const db = freshDb();
  const keys = ['inserted', 'updated', 'unchanged', 'withheld'];
  const expected: Array<Record<string, number>> = [
    { inserted: 8, updated: 0, unchanged: 0, withheld: 0, skipped: 1 }, // bulk: the tender skipped
    { inserted: 1, updated: 3, unchanged: 0, withheld: 0 }, // SEDIA: 3 topics enrich bulk ones
    { inserted: 2, updated: 0, unchanged: 0, withheld: 0 }, // search demo: a mission topic, a hydrogen topic
    { inserted: 6, updated: 0, unchanged: 0, withheld: 0, coordinatorsWithheld: 2 },
    // 6 grant items: 4 boe calls; every item a notice (bases and an award resolution only notices)
    { inserted: 4, updated: 0, unchanged: 0, withheld: 0, items: 6, attached: 0 },
    // XML: an extract (a boe call until its BDNS call arrives), a correction and a modification
    { inserted: 1, updated: 0, unchanged: 0, withheld: 0, items: 3, attached: 0 },
    { inserted: 5, updated: 0, unchanged: 0, withheld: 1, folded: 1 }, // list; boe call for 866120 folded
    // list page 2: two grants to persons named only by honorifics withheld; the boe call of 916204 folded
    { inserted: 6, updated: 0, unchanged: 0, withheld: 2, folded: 1 },
    { inserted: 0, updated: 1, unchanged: 0, withheld: 0 },
    { inserted: 0, updated: 1, unchanged: 0, withheld: 0 },
    { inserted: 1, updated: 2, unchanged: 0, withheld: 1 },
    { inserted: 0, updated: 1, unchanged: 0, withheld: 0 }, // 916204: deadline computed from the BOE extract
    { inserted: 1, updated: 0, unchanged: 0, withheld: 0 }, // search demo: a Madrid hydrogen call (916318)
    { inserted: 0, updated: 0, unchanged: 1, withheld: 0 }, // the re-read without a period block
  ];
  loadAll(db).forEach((s, i) =>
    assert.deepEqual(
      pick(s, [...keys, ...Object.keys(expected[i]!).filter((k) => !keys.includes(k))]),
      expected[i],
      MANIFEST[i]!.path,
    ),
  );
  assert.deepEqual(counts(db).slice(0, 4), [27, 6, 9, 14]);
});

test('re-importing any fixture writes nothing but its line in the import log', () => {
  const db = freshDb();
  loadAll(db);
  for (const { source, path } of [...MANIFEST, { source: 'boe' as const, path: 'boe/sumario-20251103.xml' }]) {
    const before = snapshot(db);
    const n = changes(db);
    const s = imp(db, source, path, NOW + 3_600_000);
    assert.deepEqual([s.inserted, s.updated, s.notices?.inserted ?? 0, s.notices?.updated ?? 0], [0, 0, 0, 0], path);
    assert.ok(s.unchanged + (s.notices?.unchanged ?? 0) > 0, path);
    assert.equal(changes(db) - n, 1, `${path}: only the funding_imports row is written`);
    assert.deepEqual(snapshot(db), before, path);
  }
});

test('a malformed file is refused naming the record, and nothing of it is written', () => {
  const cases: Array<[SourceCode, string, RegExp]> = [
    [
      'eu',
      'malformed/eu-sedia-bad-deadline.json',
      /^results\[1\] \(identifier HORIZON-MSCA-2026-PF-01-01\): deadlineDate is not a date/,
    ],
    ['eu', 'malformed/eu-neither.json', /^file: neither a grantsTenders\.json/],
    ['cordis', 'malformed/cordis-project.csv', /^project\.csv line 3 \(id 101148377\): startDate is not a date/],
    ['bdns', 'malformed/bdns-error-200.json', /^response: BDNS answered an error: ERR_MANTENIMIENTO_BBDD/],
    ['boe', 'malformed/boe-sumario-sin-titulo.json', /\(identificador BOE-B-2025-33415\): titulo is missing$/],
    ['boe', 'malformed/boe-sumario-roto.xml', /^file: not well-formed XML/],
  ];
  for (const db of [
    freshDb(),
    (() => {
      const d = freshDb();
      loadAll(d);
      return d;
    })(),
  ]) {
    for (const [source, path, message] of cases) {
      const before = counts(db);
      const n = changes(db);
      assert.throws(
        () => imp(db, source, path),
        (e: unknown) => e instanceof ImportFormatError && message.test(e.message),
        path,
      );
      assert.deepEqual(counts(db), before, path);
      assert.equal(changes(db), n, `${path}: no row touched`);
    }
  }
});

test('a null never overwrites: a re-read without the period block keeps deadline and words', () => {
  const db = freshDb();
  imp(db, 'bdns', 'bdns/convocatoria-912345.json');
  const before = call(db, 'bdns:912345')!;
  assert.deepEqual(
    [before.deadline, before.opening_on, before.cutoffs],
    ['2027-01-15', '2026-11-04', '[{"date":"2027-01-15","time":null}]'],
  );
  assert.equal(imp(db, 'bdns', 'bdns/convocatoria-912345-relectura.json').unchanged, 1);
  assert.deepEqual(call(db, 'bdns:912345'), before);

  imp(db, 'bdns', 'bdns/convocatoria-913870.json');
  const detail = JSON.parse(readFileSync(join(FIX, 'bdns/convocatoria-913870.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  for (const k of ['fechaInicioSolicitud', 'fechaFinSolicitud', 'textInicio', 'textFin']) delete detail[k];
  importFundingText(db, 'bdns', 'reread.json', JSON.stringify(detail), NOW);
  assert.match(call(db, 'bdns:913870')!.deadline_text as string, /^15 días hábiles/);
  assert.equal(call(db, 'bdns:913870')!.opening_on, '2026-11-13');
});

test('a BDNS list item does not wipe what a detail filled', () => {
  const db = freshDb();
  imp(db, 'bdns', 'bdns/convocatoria-912345.json');
  const before = call(db, 'bdns:912345')!;
  const s = imp(db, 'bdns', 'bdns/convocatorias-busqueda.json');
  assert.deepEqual([s.inserted, s.unchanged], [4, 1]);
  assert.deepEqual(call(db, 'bdns:912345'), before);
  assert.ok(before.body && before.budget === 85_000_000 && before.region === 'ES - ESPAÑA');
});

test('a BOE extract attaches to its BDNS call (no boe call); one without a BDNS call becomes a boe call', () => {
  const db = freshDb();
  imp(db, 'bdns', 'bdns/convocatorias-detalle.json');
  const s = imp(db, 'boe', 'boe/sumario-20251103.json');
  // 6 grant items, all notices (bases and award only notices); one attaches to its BDNS call; 3 boe calls.
  assert.deepEqual([s.items, s.notices?.inserted, s.attached, s.inserted], [6, 6, 1, 3]);
  assert.equal(
    db.prepare("SELECT count(*) FROM funding_calls WHERE source = 'boe' AND bdns_id = '866120'").pluck().get(),
    0,
  );
  assert.equal(
    db.prepare("SELECT bdns_id FROM funding_notices WHERE source_id = 'BOE-B-2025-33410'").pluck().get(),
    '866120',
  );
  assert.equal(call(db, 'boe:BOE-B-2025-33415')!.bdns_id, '867001');
  assert.equal(
    call(db, 'boe:BOE-A-2025-22110')!.deadline_text,
    'treinta días naturales desde el día siguiente al de esta publicación',
  );
});

test('a BDNS import folds the boe call with its BDNS id; the notice stays and the index follows', () => {
  const db = freshDb();
  imp(db, 'boe', 'boe/sumario-20251103.json');
  const boeSeq = call(db, 'boe:BOE-B-2025-33410')!.seq as number;
  assert.deepEqual(fts(db, 'PREE'), [boeSeq]);
  const s = imp(db, 'bdns', 'bdns/convocatorias-detalle.json');
  assert.equal(s.folded, 1);
  assert.equal(call(db, 'boe:BOE-B-2025-33410'), undefined);
  assert.ok(call(db, 'boe:BOE-B-2025-33415'), 'a boe call for another BDNS id stays');
  assert.equal(db.prepare("SELECT count(*) FROM funding_notices WHERE bdns_id = '866120'").pluck().get(), 1);
  assert.deepEqual(fts(db, 'PREE'), [call(db, 'bdns:866120')!.seq]);
});

test('the demo ends in the same state whether BOE comes before or after BDNS', () => {
  const state = (db: Db) => ({
    calls: db
      .prepare('SELECT * FROM funding_calls ORDER BY id')
      .all()
      .map((r) => ({ ...(r as object), seq: 0, imported_at: 0, updated_at: 0 })),
    notices: db
      .prepare('SELECT * FROM funding_notices ORDER BY source_id')
      .all()
      .map((r) => ({ ...(r as object), id: 0, imported_at: 0 })),
    projects: db
      .prepare('SELECT * FROM funding_projects ORDER BY source_id')
      .all()
      .map((r) => ({ ...(r as object), id: 0 })),
  });
  const boeFirst = freshDb();
  loadAll(boeFirst);
  const boeLast = freshDb();
  loadAll(boeLast, [...MANIFEST.filter((e) => e.source !== 'boe'), ...MANIFEST.filter((e) => e.source === 'boe')]);
  assert.deepEqual(state(boeLast), state(boeFirst));
});

test('a record about a natural person is stored flagged, outside the public view and the search index', () => {
  const db = freshDb();
  loadAll(db);
  const personal = call(db, 'bdns:910777')!;
  assert.equal(personal.personal_data, 1);
  assert.match(personal.title as string, /ZZPERSONAFISICA/);
  assert.equal(db.prepare("SELECT count(*) FROM funding_public_calls WHERE id = 'bdns:910777'").pluck().get(), 0);
  assert.equal(db.prepare('SELECT count(*) FROM funding_public_calls WHERE personal_data = 1').pluck().get(), 0);
  assert.deepEqual(fts(db, 'zzpersonafisica'), []);
  assert.ok(fts(db, 'rehabilitacion').length > 0, 'the index answers for public calls (accents folded)');
  const publicCalls = db.prepare('SELECT count(*) FROM funding_public_calls').pluck().get() as number;
  assert.equal(
    db
      .prepare('SELECT count(DISTINCT rowid) FROM funding_calls_fts WHERE funding_calls_fts MATCH ?')
      .pluck()
      .get('a* OR e* OR i* OR o* OR u* OR s*'),
    publicCalls,
  );
});

test('EU bulk and SEDIA enrich each other in either order: programme, stated times, text', () => {
  for (const order of [
    ['eu/grantsTenders.json', 'eu/sedia-search.json'],
    ['eu/sedia-search.json', 'eu/grantsTenders.json'],
  ]) {
    const db = freshDb();
    for (const path of order) imp(db, 'eu', path);
    const c = call(db, 'eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')!;
    assert.equal(c.programme, 'Horizon Europe (HORIZON)', order.join(' → '));
    assert.equal(
      c.cutoffs,
      '[{"date":"2026-09-15","time":"17:00"},{"date":"2027-01-20","time":"17:00"},{"date":"2027-05-04","time":"17:00"}]',
    );
    assert.deepEqual(
      [c.deadline, c.deadline_time, c.published_on, c.budget],
      ['2027-01-20', '17:00', '2026-05-20', 12_000_000],
    );
    assert.match(c.summary as string, /^Expected Outcome/);
    assert.equal(c.closes_at, Date.parse('2027-05-04T15:00:00Z'));
    assert.equal(c.opens_at, Date.parse('2026-06-15T22:00:00Z'));
  }
});

test('the stored deadline moves to the next cut-off when one passes, and only then is the row rewritten', () => {
  const db = freshDb();
  imp(db, 'eu', 'eu/sedia-search.json');
  const id = 'eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12';
  assert.equal(imp(db, 'eu', 'eu/sedia-search.json', Date.parse('2027-01-20T15:59:00Z')).updated, 0);
  const later = Date.parse('2027-01-20T16:00:00Z');
  assert.equal(imp(db, 'eu', 'eu/sedia-search.json', later).updated, 1);
  assert.deepEqual(
    [call(db, id)!.deadline, call(db, id)!.deadline_time, call(db, id)!.updated_at],
    ['2027-05-04', '17:00', later],
  );
  assert.equal(call(db, id)!.imported_at, NOW);
});

test('closing and opening instants are stored in the source zone', () => {
  const db = freshDb();
  loadAll(db);
  const cases: Array<[string, string | null, string | null]> = [
    ['bdns:912345', '2027-01-15T23:00:00Z', '2026-11-03T23:00:00Z'], // end of 15 Jan in Madrid
    ['eu:DIGITAL-2026-EDIH-AC-08', '2026-12-31T16:00:00Z', '2026-09-30T22:00:00Z'], // 17:00 stated, year end
    ['eu:CERV-2027-CHILD', '2027-03-11T23:00:00Z', '2026-12-01T23:00:00Z'],
    ['bdns:913870', null, '2026-11-12T23:00:00Z'], // words only: no closing instant
  ];
  for (const [id, closes, opens] of cases) {
    const c = call(db, id)!;
    assert.deepEqual([c.closes_at, c.opens_at], [closes && Date.parse(closes), opens && Date.parse(opens)], id);
  }
});

test('CORDIS: a folder, or a project.csv with its sibling organization.csv; project.csv alone keeps coordinators', () => {
  const db = freshDb();
  assert.equal(imp(db, 'cordis', 'cordis').inserted, 6);
  const coordinator = (id: string) =>
    db.prepare('SELECT coordinator FROM funding_projects WHERE source_id = ?').pluck().get(id);
  assert.deepEqual(
    [coordinator('101148377'), coordinator('101159002'), coordinator('101084502')],
    ['STICHTING DELTARES', null, null],
  );
  assert.equal(db.prepare("SELECT count(*) FROM funding_projects WHERE topic = 'LIFE-2025-SAP-NAT'").pluck().get(), 2);

  const alone = tempDir();
  copyFileSync(join(FIX, 'cordis/project.csv'), join(alone, 'project.csv'));
  const s = importFundingFile(db, 'cordis', join(alone, 'project.csv'), NOW);
  assert.deepEqual([s.unchanged, s.coordinatorsWithheld], [6, 0]);
  assert.equal(coordinator('101148377'), 'STICHTING DELTARES');

  const fresh = freshDb();
  copyFileSync(join(FIX, 'cordis/organization.csv'), join(alone, 'organization.csv'));
  importFundingFile(fresh, 'cordis', join(alone, 'project.csv'), NOW);
  assert.equal(
    fresh.prepare("SELECT coordinator FROM funding_projects WHERE source_id = '101084411'").pluck().get(),
    'IBERDROLA ESPAÑA SA',
  );

  const empty = tempDir();
  mkdirSync(join(empty, 'csv'));
  assert.throws(() => importFundingFile(fresh, 'cordis', empty, NOW), /no project\.csv in this folder/);
});

test('every import is logged with the file hash and its counts', () => {
  const db = freshDb();
  imp(db, 'bdns', 'bdns/convocatorias-busqueda.json');
  imp(db, 'bdns', 'bdns/convocatorias-busqueda.json');
  const rows = db.prepare('SELECT * FROM funding_imports ORDER BY id').all() as Array<Record<string, unknown>>;
  const sha = createHash('sha256')
    .update(readFileSync(join(FIX, 'bdns/convocatorias-busqueda.json'), 'utf8'))
    .digest('hex');
  assert.deepEqual(
    rows.map((r) => [r.source, r.file_sha256, r.imported_at, r.inserted, r.updated, r.unchanged, r.withheld]),
    [
      ['bdns', sha, NOW, 5, 0, 0, 1],
      ['bdns', sha, NOW, 0, 0, 5, 1],
    ],
  );
  assert.match(rows[0]!.file_name as string, /bdns\/convocatorias-busqueda\.json$/);
});

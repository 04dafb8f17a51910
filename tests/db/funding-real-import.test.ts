/**
 * Each real file of data/funding imports, on its own into an empty database: every record in it is
 * imported, withheld, or refused with a reason this test counts, the counts taken from the file itself
 * (its JSON, XML or CSV read here independently of the parsers). Then the demo manifest, in order, and
 * the joins its real records make.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { FUNDING_DEMO, loadFundingDemo } from '../../db/demo.ts';
import { importFundingFile } from '../../db/funding/import.ts';
import { migrate } from '../../db/migrate.ts';
import { parseXml, type XmlElement } from '../../lib/funding/xml.ts';
import type { SourceCode } from '../../lib/funding/records.ts';

const DATA = join(import.meta.dirname, '..', '..', 'data', 'funding');
const NOW = Date.parse('2026-11-26T10:00:00Z');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function freshDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'trio-real-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'trio.db'));
  migrate(db, undefined, NOW);
  return db;
}
const read = (p: string) => readFileSync(join(DATA, p), 'utf8');
const json = (p: string) => JSON.parse(read(p)) as Record<string, unknown> & unknown[];
const count = (db: Db, sql: string) => db.prepare(sql).pluck().get() as number;

/** Every element named `name` under `el`. */
const all = (el: XmlElement, name: string): XmlElement[] =>
  el.children.flatMap((c) => (c.name === name ? [c, ...all(c, name)] : all(c, name)));

test('BDNS: every list entry and every detail is a call, stored or withheld', () => {
  const cases: Array<[string, number]> = [
    [
      'bdns/convocatorias-busqueda-20260217-20260226.json',
      (json('bdns/convocatorias-busqueda-20260217-20260226.json').content as unknown[]).length,
    ],
    [
      'bdns/convocatorias-busqueda-filas-20250116-20260715.json',
      (json('bdns/convocatorias-busqueda-filas-20250116-20260715.json').content as unknown[]).length,
    ],
    [
      'bdns/convocatorias-detalle-20250116-20260715.json',
      json('bdns/convocatorias-detalle-20250116-20260715.json').length,
    ],
    ['bdns/convocatoria-906115.json', 1],
    ['bdns/convocatoria-923546.json', 1],
  ];
  for (const [file, records] of cases) {
    const db = freshDb();
    const s = importFundingFile(db, 'bdns', join(DATA, file), NOW);
    assert.equal(s.inserted, records, `${file}: one call per record`);
    assert.equal(count(db, 'SELECT count(*) FROM funding_calls'), records, file);
    assert.equal(
      count(db, 'SELECT count(*) FROM funding_public_calls') + s.withheld,
      records,
      `${file}: served or withheld`,
    );
    db.close();
  }
  // The list's withheld entries: the four data/funding/bdns/SOURCE.md names (the rule's false positives, kept on purpose).
  const db = freshDb();
  importFundingFile(db, 'bdns', join(DATA, 'bdns/convocatorias-busqueda-20260217-20260226.json'), NOW);
  assert.deepEqual(db.prepare('SELECT source_id FROM funding_calls WHERE personal_data = 1 ORDER BY 1').pluck().all(), [
    '888650',
    '888662',
    '889893',
    '889918',
  ]);
  db.close();
});

test('BOE: every item of a sumario is a grant item (a call or a notice) or not about grants; the item document is one of each', () => {
  for (const file of ['boe/sumario-20250307.xml', 'boe/sumario-20250310.xml', 'boe/sumario-20250418-partial.xml']) {
    const items = all(parseXml(read(file)), 'item').length;
    const db = freshDb();
    const s = importFundingFile(db, 'boe', join(DATA, file), NOW);
    const notices = count(db, 'SELECT count(*) FROM funding_notices');
    assert.equal(s.items, notices, `${file}: every grant item is a notice`);
    assert.equal(s.inserted, count(db, "SELECT count(*) FROM funding_calls WHERE source = 'boe'"), file);
    assert.equal(
      s.inserted,
      count(db, "SELECT count(*) FROM funding_notices WHERE kind = 'call'"),
      `${file}: the calls are the notices that convene`,
    );
    // Refused with a reason: the other items are not about grants (appointments, laws, tenders…).
    const notAboutGrants = items - notices;
    assert.ok(notAboutGrants >= 0 && notices + notAboutGrants === items, file);
    db.close();
  }
  const counted = [
    ['boe/sumario-20250307.xml', 178, 13, 4],
    ['boe/sumario-20250310.xml', 199, 0, 0],
    ['boe/sumario-20250418-partial.xml', 78, 2, 0],
  ] as const;
  for (const [file, items, grantItems, calls] of counted) {
    const db = freshDb();
    const s = importFundingFile(db, 'boe', join(DATA, file), NOW);
    assert.deepEqual([all(parseXml(read(file)), 'item').length, s.items, s.inserted], [items, grantItems, calls], file);
    db.close();
  }
  const db = freshDb();
  const s = importFundingFile(db, 'boe', join(DATA, 'boe/documento-BOE-B-2024-3994.xml'), NOW);
  assert.deepEqual([s.items, s.inserted, s.notices!.inserted], [1, 1, 1]);
  assert.deepEqual(
    db.prepare("SELECT bdns_id, deadline, deadline_time FROM funding_calls WHERE id = 'boe:BOE-B-2024-3994'").get(),
    {
      bdns_id: '742455',
      deadline: '2024-04-25',
      deadline_time: '14:00',
    },
  );
  db.close();
});

test('EU: every grant is a call (its translations one), every tender skipped; cascade offers sharing a topic stay apart', () => {
  const bulk = (file: string) =>
    json(file).fundingData as { GrantTenderObj: Array<{ type: number; identifier: string }> };
  for (const file of ['eu/grantsTenders-funding_radar-sample.json', 'eu/grantsTenders-grantfin-sample.json']) {
    const records = bulk(file).GrantTenderObj;
    const grants = new Set(records.filter((r) => String(r.type) !== '0').map((r) => r.identifier)).size;
    const tenders = records.filter((r) => String(r.type) === '0').length;
    const db = freshDb();
    const s = importFundingFile(db, 'eu', join(DATA, file), NOW);
    assert.deepEqual([s.inserted, s.skipped], [grants, tenders], file);
    db.close();
  }
  for (const [file, calls] of [
    ['eu/sedia-search-subvenia-page-sample.json', 3],
    ['eu/sedia-search-fundhunt-sample.json', 4],
    ['eu/sedia-search-fundhunt-cascade-sample.json', 4], // was 3: the two SUSA offers were folded
  ] as const) {
    const hits = (json(file).results as unknown[]).length;
    const db = freshDb();
    const s = importFundingFile(db, 'eu', join(DATA, file), NOW);
    assert.deepEqual([hits, s.inserted, s.skipped], [calls, calls, 0], file);
    db.close();
  }
  const db = freshDb();
  importFundingFile(db, 'eu', join(DATA, 'eu/sedia-search-fundhunt-cascade-sample.json'), NOW);
  assert.deepEqual(
    db
      .prepare(
        "SELECT source_id, title, budget, url FROM funding_calls WHERE source_id LIKE 'DIGITAL-2023-SKILLS-05-SPECIALEDU%' ORDER BY 1",
      )
      .all(),
    [
      {
        source_id: 'DIGITAL-2023-SKILLS-05-SPECIALEDU-CS11143',
        title: 'METU Internships Offer',
        budget: 30500,
        url: 'https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/opportunities/competitive-calls-cs/46214053',
      },
      {
        source_id: 'DIGITAL-2023-SKILLS-05-SPECIALEDU-CS11145',
        title: 'Gnomon Internships Offer',
        budget: 120000,
        url: 'https://ec.europa.eu/info/funding-tenders/opportunities/portal/screen/opportunities/competitive-calls-cs/46214053',
      },
    ],
  );
  db.close();
});

test('CORDIS: every row of project.csv is a project', () => {
  const rows = read('cordis/project.csv')
    .split('\n')
    .filter((l) => /^"\d+";/.test(l)).length;
  const db = freshDb();
  const s = importFundingFile(db, 'cordis', join(DATA, 'cordis/project.csv'), NOW);
  assert.deepEqual([rows, s.projects, s.inserted, s.withheld], [100, 100, 100, 0]);
  db.close();
});

test('the demo manifest, in order: every file once, the BOE extracts linked to their BDNS calls, no call served twice', () => {
  const manifest = JSON.parse(readFileSync(FUNDING_DEMO, 'utf8')) as Array<{ source: SourceCode; path: string }>;
  const db = freshDb();
  const summaries = loadFundingDemo(db, NOW);
  assert.equal(summaries.length, manifest.length);
  assert.equal(count(db, 'SELECT count(*) FROM funding_imports'), manifest.length);
  // 1,992 list entries + 71 details (with rows) + 2 more details; 19 EU calls; 5 BOE calls.
  assert.deepEqual(
    db.prepare('SELECT source, count(*) AS n FROM funding_calls GROUP BY source ORDER BY source').all(),
    [
      { source: 'bdns', n: 2065 },
      { source: 'boe', n: 5 },
      { source: 'eu', n: 19 },
    ],
  );
  // The 22 BOE notices the BDNS details list, each with its call's BDNS id.
  assert.equal(
    count(
      db,
      "SELECT count(*) FROM funding_notices WHERE source_id LIKE 'BOE-B-2025-4%' OR source_id LIKE 'BOE-B-2026-%'",
    ),
    22,
  );
  // Every notice with a BDNS id is its BDNS call's, but the one extract whose call is not in the demo
  // (742455): it is served as a BOE call, with that id, until its BDNS call arrives.
  assert.deepEqual(
    db
      .prepare(
        "SELECT source_id FROM funding_notices n WHERE n.bdns_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM funding_calls c WHERE c.source = 'bdns' AND c.bdns_id = n.bdns_id)",
      )
      .pluck()
      .all(),
    ['BOE-B-2024-3994'],
  );
  assert.equal(
    count(db, "SELECT count(*) FROM funding_calls WHERE id = 'boe:BOE-B-2024-3994' AND bdns_id = '742455'"),
    1,
  );
  // A BDNS call's relative deadline counted from its BOE extract, and a Catalan one from its DOGC day.
  const ds = (id: string) =>
    JSON.parse(db.prepare('SELECT deadline_source FROM funding_calls WHERE id = ?').pluck().get(id) as string);
  assert.equal(ds('bdns:873847').publication, 'BOE-B-2025-46003');
  assert.match(ds('bdns:894612').publication, /^DOGC/);
  // Nothing stays flagged by abierto: no BDNS call carries a source status.
  assert.equal(count(db, "SELECT count(*) FROM funding_calls WHERE source = 'bdns' AND source_status IS NOT NULL"), 0);
  db.close();
});

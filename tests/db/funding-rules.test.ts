/**
 * The funding data rules on the one write path, against a real SQLite file: the personal-data rule
 * gives the same answer on every import path (EU bulk file and SEDIA response, CORDIS, BDNS list and
 * detail, BOE JSON and XML), relative deadlines are computed whichever of BOE and BDNS comes first,
 * and `funding reapply-rules` withholds, releases, recomputes and unserves stored rows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { loadFundingDemo } from '../../db/demo.ts';
import { corpusEpoch } from '../../db/funding/corpus-epoch.ts';
import { importFundingText } from '../../db/funding/import.ts';
import { reapplyFundingRules } from '../../db/funding/rules.ts';
import { migrate } from '../../db/migrate.ts';
import type { SourceCode } from '../../lib/funding/records.ts';
import { toFtsQuery } from '../../lib/funding/search-tiers.ts';

const FIX = join(import.meta.dirname, '..', '..', 'fixtures', 'funding');
const NOW = Date.parse('2026-11-22T10:00:00Z');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function freshDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'trio-funding-rules-'));
  dirs.push(dir);
  const db = openDatabase(join(dir, 'trio.db'));
  migrate(db, undefined, NOW);
  return db;
}
const read = (p: string) => readFileSync(join(FIX, p), 'utf8');
const row = (db: Db, id: string) =>
  db.prepare('SELECT * FROM funding_calls WHERE id = ?').get(id) as Record<string, unknown> | undefined;
// Through the query compiler: the index holds stemmed keys (db/migrations/008_funding_search.sql).
const fts = (db: Db, q: string) =>
  db
    .prepare('SELECT rowid FROM funding_calls_fts WHERE funding_calls_fts MATCH ?')
    .pluck()
    .all(toFtsQuery(q)!.all) as number[];
const PERSON =
  'Concesión directa de subvención a Dña. Elvira ZZPERSONAFISICA Soto para la rehabilitación de su vivienda';

// Each path with its real format, the title replaced by one naming a person (no tax id in it).
const paths: Array<[string, SourceCode, () => string, string]> = [
  [
    'EU bulk file',
    'eu',
    () => {
      const d = JSON.parse(read('eu/grantsTenders.json'));
      d.fundingData.GrantTenderObj[0].title = PERSON;
      return JSON.stringify(d);
    },
    'eu:HORIZON-CL5-2027-D3-01-05',
  ],
  [
    'EU SEDIA response',
    'eu',
    () => {
      const d = JSON.parse(read('eu/sedia-search.json'));
      for (const r of d.results)
        if (r.metadata.identifier[0] === 'HORIZON-CL4-2027-DIGITAL-EMERGING-01-12') r.metadata.title = [PERSON];
      return JSON.stringify(d);
    },
    'eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12',
  ],
  [
    'BDNS list page',
    'bdns',
    () =>
      read('bdns/convocatorias-busqueda.json').replace(
        'Subvenciones para actividades culturales y festivas de las asociaciones vecinales 2027',
        PERSON,
      ),
    'bdns:914002',
  ],
  [
    'BDNS detail',
    'bdns',
    () =>
      read('bdns/convocatoria-913870.json').replace(
        '"descripcion": "Ayudas para la digitalización del comercio de proximidad en Cataluña 2026"',
        `"descripcion": "${PERSON}"`,
      ),
    'bdns:913870',
  ],
  [
    'BOE JSON sumario',
    'boe',
    () =>
      read('boe/sumario-20251103.json').replace(
        'Resolución de 31 de octubre de 2025, del Instituto de la Juventud, por la que se convocan subvenciones para la realización de programas de interés general dirigidos a jóvenes en 2026.',
        `Resolución de 31 de octubre de 2025 por la que se convoca la ${PERSON}`,
      ),
    'boe:BOE-A-2025-22190',
  ],
  [
    'BOE XML sumario',
    'boe',
    () =>
      read('boe/sumario-20251103.xml').replace(
        'Resolución de 31 de octubre de 2025, del Instituto de la Juventud, por la que se convocan subvenciones para la realización de programas de interés general dirigidos a jóvenes en 2026.',
        `Resolución de 31 de octubre de 2025 por la que se convoca la ${PERSON}`,
      ),
    'boe:BOE-A-2025-22190',
  ],
];

test('a grant to a person named only by an honorific is withheld on every import path', () => {
  for (const [path, source, text, id] of paths) {
    const db = freshDb();
    const original = text();
    assert.ok(original.includes('ZZPERSONAFISICA'), `${path}: the fixture was edited`);
    const s = importFundingText(db, source, path, original, NOW);
    // The list page also carries 910777, withheld by its masked NIF whatever the edit; a BOE item's
    // notice is withheld too, counted apart.
    assert.equal(s.withheld, path === 'BDNS list page' ? 2 : 1, path);
    if (source === 'boe') assert.equal(s.notices!.withheld, 1, path);
    assert.equal(row(db, id)?.personal_data, 1, `${path}: ${id} stored flagged`);
    assert.equal(db.prepare('SELECT count(*) FROM funding_public_calls WHERE id = ?').pluck().get(id), 0, path);
    assert.deepEqual(fts(db, 'zzpersonafisica'), [], `${path}: not in the search index`);
    if (source === 'boe') {
      assert.equal(
        db.prepare('SELECT personal_data FROM funding_notices WHERE source_id = ?').pluck().get(id.slice(4)),
        1,
        `${path}: its notice too`,
      );
    }
  }
});

test('CORDIS: a project whose title names a person is withheld too', () => {
  const db = freshDb();
  const csv = read('cordis/project.csv').replace(
    'Restoring Iberian cereal steppes for the great and little bustard',
    `Beca a favor de D. Mateo ZZPERSONAFISICA Lara`,
  );
  importFundingText(db, 'cordis', 'project.csv', csv, NOW);
  assert.equal(db.prepare("SELECT personal_data FROM funding_projects WHERE source_id = '101148213'").pluck().get(), 1);
});

test('the same person grant read from a BDNS list and then as a detail is withheld both times; false positives are served', () => {
  const db = freshDb();
  importFundingText(db, 'bdns', 'p2', read('bdns/convocatorias-busqueda-pagina-2.json'), NOW);
  for (const id of ['bdns:917301', 'bdns:917302']) assert.equal(row(db, id)!.personal_data, 1, id);
  for (const id of ['bdns:917310', 'bdns:917311', 'bdns:917312']) assert.equal(row(db, id)!.personal_data, 0, id);
  // The detail of 917301 as BDNS serves it: direct grant, "PERSONAS FÍSICAS" beneficiaries.
  const detail = JSON.parse(read('bdns/convocatoria-916204.json'));
  Object.assign(detail, {
    codigoBDNS: '917301',
    tipoConvocatoria: 'Concesión directa - instrumental',
    fechaRecepcion: '2026-11-17',
    descripcion:
      'Concesión directa de subvención a Dña. María ZZPERSONAFISICA Castro para la rehabilitación de su vivienda habitual dañada por la DANA',
  });
  assert.equal(importFundingText(db, 'bdns', 'd', JSON.stringify(detail), NOW).withheld, 1);
  assert.equal(row(db, 'bdns:917301')!.personal_data, 1);
});

test('deadlines: computed from the BOE extract whichever comes first; the regional one stays uncomputed', () => {
  const orders: Array<Array<[SourceCode, string]>> = [
    [
      ['boe', 'boe/sumario-20261116.xml'],
      ['bdns', 'bdns/convocatoria-916204.json'],
    ],
    [
      ['bdns', 'bdns/convocatoria-916204.json'],
      ['boe', 'boe/sumario-20261116.xml'],
    ],
  ];
  const states = orders.map((order) => {
    const db = freshDb();
    const summaries = order.map(([source, path]) => importFundingText(db, source, path, read(path), NOW));
    return { db, summaries };
  });
  for (const { db } of states) {
    const r = row(db, 'bdns:916204')!;
    assert.equal(r.deadline, '2026-12-15', '20 días hábiles from Monday 16 Nov 2026, over Tuesday 8 December');
    const source = JSON.parse(r.deadline_source as string);
    assert.deepEqual([source.kind, source.from, source.publication], ['computed', '2026-11-16', 'BOE-B-2026-41210']);
    assert.equal(r.closes_at, Date.parse('2026-12-15T23:00:00Z'), 'the end of 15 December in Madrid');
  }
  // BDNS first: the BOE import is what fixes the deadline, and says so.
  assert.equal(states[1]!.summaries[1]!.recomputed, 1);
  const bdnsOnly = freshDb();
  importFundingText(bdnsOnly, 'bdns', 'd', read('bdns/convocatoria-916204.json'), NOW);
  const pending = row(bdnsOnly, 'bdns:916204')!;
  assert.equal(pending.deadline, null);
  assert.match(JSON.parse(pending.deadline_source as string).reason, /no BOE extract of this call is in the corpus/);

  const db = freshDb();
  importFundingText(db, 'bdns', 'd', read('bdns/convocatoria-913870.json'), NOW);
  const dogc = JSON.parse(row(db, 'bdns:913870')!.deadline_source as string);
  assert.equal(dogc.kind, 'uncomputed');
  assert.match(dogc.reason, /Diari Oficial de la Generalitat de Catalunya, and the record names no such publication/);
});

test('BOE items that are not calls are notices, linked; only calls are stored as calls', () => {
  const db = freshDb();
  importFundingText(db, 'boe', 'a', read('boe/sumario-20251103.json'), NOW);
  importFundingText(db, 'boe', 'b', read('boe/sumario-20261116.xml'), NOW);
  const kinds = Object.fromEntries(
    db
      .prepare('SELECT source_id, kind FROM funding_notices')
      .all()
      .map((r) => [(r as { source_id: string }).source_id, (r as { kind: string }).kind]),
  );
  assert.deepEqual(kinds, {
    'BOE-A-2025-22101': 'bases',
    'BOE-A-2025-22102': 'award',
    'BOE-A-2025-22110': 'call',
    'BOE-B-2025-33410': 'call',
    'BOE-B-2025-33415': 'call',
    'BOE-A-2025-22190': 'call',
    'BOE-A-2026-23877': 'correction',
    'BOE-B-2026-41210': 'call',
    'BOE-B-2026-41233': 'modification',
  });
  const calls = db.prepare("SELECT source_id FROM funding_calls WHERE source = 'boe' ORDER BY source_id").pluck().all();
  assert.deepEqual(calls, [
    'BOE-A-2025-22110',
    'BOE-A-2025-22190',
    'BOE-B-2025-33410',
    'BOE-B-2025-33415',
    'BOE-B-2026-41210',
  ]);
  assert.equal(
    db.prepare("SELECT refers_to FROM funding_notices WHERE source_id = 'BOE-A-2026-23877'").pluck().get(),
    'resolucion 2025-10-27',
  );
});

test('reapply-rules: withholds, releases, recomputes and unserves stored rows, then changes nothing', () => {
  const db = freshDb();
  loadFundingDemo(db, NOW, undefined, join(FIX, 'traps.json'));
  const epoch = corpusEpoch(db);
  const idle = reapplyFundingRules(db, NOW);
  assert.deepEqual(
    [idle.withheld, idle.released, idle.deadlines, idle.unserved, idle.notices],
    [0, 0, 0, 0, 0],
    'the import already applied every rule',
  );
  assert.equal(idle.calls, db.prepare('SELECT count(*) FROM funding_calls').pluck().get());

  // Rows as an older trio stored them: a list-page person grant served, a call withheld by a broader
  // rule, a relative deadline never computed, and a bases order kept as a call.
  db.prepare("UPDATE funding_calls SET personal_data = 0 WHERE id = 'bdns:917301'").run();
  db.prepare("UPDATE funding_calls SET personal_data = 1 WHERE id = 'bdns:917310'").run();
  db.prepare(
    "UPDATE funding_calls SET deadline = NULL, closes_at = NULL, deadline_source = NULL WHERE id = 'boe:BOE-A-2025-22110'",
  ).run();
  db.prepare(
    `INSERT INTO funding_calls (id, source, source_id, title, country, time_zone, language, content_hash, imported_at, updated_at, published_on)
    SELECT 'boe:' || source_id, 'boe', source_id, title, 'ES', 'Europe/Madrid', 'es', 'old', 0, 0, published_on FROM funding_notices WHERE source_id = 'BOE-A-2025-22101'`,
  ).run();
  db.prepare("UPDATE funding_notices SET kind = 'call', refers_to = NULL WHERE source_id = 'BOE-A-2026-23877'").run();
  assert.ok(fts(db, 'zzpersonafisica').length > 0, 'the served person grant was indexed');
  const before = epoch.generation();

  const run = reapplyFundingRules(db, NOW + 1000);
  assert.deepEqual([run.withheld, run.released, run.deadlines, run.unserved, run.notices], [1, 1, 1, 1, 1]);
  assert.deepEqual(run.withheld_ids, ['bdns:917301']);
  assert.deepEqual(run.released_ids, ['bdns:917310']);
  assert.deepEqual(fts(db, 'zzpersonafisica'), [], 'withheld: out of the index');
  assert.equal(fts(db, 'juana').length, 1, 'released: back in the index');
  assert.equal(row(db, 'boe:BOE-A-2025-22110')!.deadline, '2025-12-03');
  assert.equal(row(db, 'boe:BOE-A-2025-22101'), undefined);
  assert.equal(
    db.prepare("SELECT kind FROM funding_notices WHERE source_id = 'BOE-A-2026-23877'").pluck().get(),
    'correction',
  );
  assert.ok(epoch.generation() > before, 'cached searches made before the run are dropped');
  assert.deepEqual(
    db
      .prepare('SELECT calls, withheld, released, deadlines, unserved FROM funding_rule_runs ORDER BY id DESC LIMIT 1')
      .get(),
    { calls: run.calls, withheld: 1, released: 1, deadlines: 1, unserved: 1 },
  );

  const again = reapplyFundingRules(db, NOW + 2000);
  assert.deepEqual([again.withheld, again.released, again.deadlines, again.unserved, again.notices], [0, 0, 0, 0, 0]);
});

/** `funding optimize-index` as operators run it: a child process against a temp database. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { FundingSearch } from '../../db/funding/search.ts';
import { toFilters } from '../../routes/funding/filters.ts';
import { cliOnTempDatabase, ROOT } from '../helpers/cli.ts';

// Real spawns of main.ts for the first import, optimize-index --json and the first import of the
// piled index; the other command lines through the same dispatch in-process (tests/helpers/cli.ts).
const { cli, cliInProcess, databasePath } = cliOnTempDatabase('trio-cli-index-');

/** What a few searches answer now, read through the search code itself. */
function answers(): unknown {
  const db = openDatabase(databasePath);
  try {
    const search = new FundingSearch(db);
    const now = Date.parse('2026-11-22T10:00:00Z');
    return ['ayudas', 'subvenciones', '"concesión directa"', 'ayud*'].map((q) => {
      const page = search.search(toFilters({ q }, now), 50, null);
      return { q, ids: page.rows.map((r) => r.id), total: page.total };
    });
  } finally {
    db.close();
  }
}

test('funding optimize-index merges the segments two imports left, says so, and changes no answer', async () => {
  for (const file of ['convocatorias-busqueda.json', 'convocatorias-busqueda-pagina-2.json']) {
    const imported = await (file === 'convocatorias-busqueda.json' ? cli : cliInProcess)(
      'funding',
      'import',
      '--source',
      'bdns',
      join(ROOT, 'fixtures', 'funding', 'bdns', file),
    );
    assert.equal(imported.code, 0, imported.stderr);
  }
  const before = answers();
  assert.ok(
    (before as Array<{ ids: string[] }>).some((a) => a.ids.length > 0),
    'the searches find calls',
  );

  const merged = await cli('funding', 'optimize-index', '--json');
  assert.equal(merged.code, 0, merged.stderr);
  const r = JSON.parse(merged.stdout) as { segmentsBefore: number; segmentsAfter: number; ms: number };
  assert.ok(r.segmentsBefore >= 2, `${r.segmentsBefore} segments before`);
  assert.equal(r.segmentsAfter, 1);
  assert.deepEqual(answers(), before);

  const again = await cliInProcess('funding', 'optimize-index');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /full-text index: 1 → 1 segments/);
});

const piled = cliOnTempDatabase('trio-cli-compact-');

test('funding import merges the index by itself once imports have left more than 8 segments', async () => {
  const files: Array<[string, string]> = [
    ['bdns', 'bdns/convocatorias-busqueda.json'],
    ['eu', 'eu/grantsTenders.json'],
    ['bdns', 'bdns/convocatorias-busqueda-pagina-2.json'],
    ['boe', 'boe/sumario-20251103.xml'],
    ['cordis', 'cordis/project.csv'],
    ['eu', 'eu/sedia-search.json'],
    ['boe', 'boe/sumario-20261116.xml'],
    ['bdns', 'bdns/convocatoria-912345.json'],
    ['bdns', 'bdns/convocatoria-913870.json'],
    ['bdns', 'bdns/convocatoria-916204.json'],
    ['bdns', 'bdns/convocatoria-916318.json'],
    ['eu', 'eu/grantsTenders-search-demo.json'],
  ];
  const segments = () => {
    const db = openDatabase(piled.databasePath);
    try {
      return db.prepare('SELECT count(DISTINCT segid) FROM funding_calls_fts_idx').pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const seen: Array<{ segments: number; index: { segmentsBefore: number; segmentsAfter: number } | null }> = [];
  for (const [source, file] of files) {
    const r = await (seen.length === 0 ? piled.cli : piled.cliInProcess)(
      'funding',
      'import',
      '--source',
      source,
      join(ROOT, 'fixtures', 'funding', file),
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    if (seen.length === 0) {
      // FTS5 would merge small segments as it goes: off here, so each import leaves its own.
      const db = openDatabase(piled.databasePath);
      db.prepare("INSERT INTO funding_calls_fts(funding_calls_fts, rank) VALUES('automerge', 0)").run();
      db.close();
    }
    seen.push({
      segments: segments(),
      index: (JSON.parse(r.stdout) as { index: (typeof seen)[number]['index'] }).index,
    });
  }
  const merged = seen.findIndex((s) => s.index !== null);
  assert.ok(merged > 0, `an import merged the index: ${JSON.stringify(seen)}`);
  assert.ok(
    seen.slice(0, merged).every((s) => s.segments <= 8),
    'no merge while there were at most 8',
  );
  assert.ok(seen[merged]!.index!.segmentsBefore > 8);
  assert.equal(seen[merged]!.index!.segmentsAfter, 1);
  assert.equal(seen[merged]!.segments, 1);
});

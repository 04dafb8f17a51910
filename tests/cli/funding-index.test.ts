/** `funding optimize-index` as operators run it: a child process against a temp database. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../db/connection.ts';
import { FundingSearch } from '../../db/funding/search.ts';
import { toFilters } from '../../routes/funding/filters.ts';
import { cliOnTempDatabase, ROOT } from '../helpers/cli.ts';

const { cli, databasePath } = cliOnTempDatabase('trio-cli-index-');

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
    const imported = await cli(
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

  const again = await cli('funding', 'optimize-index');
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /full-text index: 1 → 1 segments/);
});

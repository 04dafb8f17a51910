/**
 * The expansion stage's caches of what the index holds (db/funding/search-expand.ts) start again when
 * full, so a server nobody syncs does not grow with every distinct word typed; starting again changes no
 * answer. Checked on the demo corpus with a cache of two entries against the default, over queries that
 * use each cache: English words expanded to Spanish, a typo, and words that never meet in one call.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openDatabase } from '../../../db/connection.ts';
import { loadFundingDemo } from '../../../db/demo.ts';
import { SearchExpansion } from '../../../db/funding/search-expand.ts';
import { migrate } from '../../../db/migrate.ts';
import { toFilters } from '../../../routes/funding/filters.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-expand-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse('2026-11-28T10:00:00Z');
const QUERIES = [
  'social services',
  'elderly people',
  'discapacidd',
  'eficiencia energética pymes',
  'rural business succession',
  'animal welfare',
  'incendios forestles',
  'books',
];

test('a cache that starts again when full gives every answer the default one gives', () => {
  const db = openDatabase(join(dir, 'trio.sqlite'));
  migrate(db, undefined, NOW);
  loadFundingDemo(db, NOW);
  const roomy = new SearchExpansion(db);
  const tiny = new SearchExpansion(db, 2);
  // Twice over: the second pass reads what the first kept (the default) or read again (the tiny one).
  for (const pass of [1, 2])
    for (const q of QUERIES) {
      const text = toFilters({ q }, NOW).text!;
      const expected = roomy.query(text, true);
      assert.ok(expected.all, `${q}: the query expands to something`);
      assert.deepEqual(tiny.query(text, true), expected, `pass ${pass}: ${q}`);
    }
  db.close();
});

/**
 * The shipped vocabulary (data/funding/eurovoc/vocabulary.json) is what `funding vocabulary` builds
 * from the shipped EuroVoc files and the demo corpus, byte for byte: rebuilt here and compared.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../../db/connection.ts';
import { buildVocabularyFile, EUROVOC_DIR, vocabularyText } from '../../../db/funding/vocabulary-build.ts';
import { copyDemoDatabase } from '../../helpers/demo-template.ts';

test('the shipped vocabulary rebuilds from the shipped EuroVoc files and the demo corpus, byte for byte', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trio-vocabulary-'));
  try {
    const path = join(dir, 'demo.sqlite');
    copyDemoDatabase(path, Date.parse('2026-11-26T10:00:00Z'));
    const db = openDatabase(path, { readonly: true });
    const built = buildVocabularyFile(db);
    db.close();
    assert.equal(vocabularyText(built), readFileSync(join(EUROVOC_DIR, 'vocabulary.json'), 'utf8'));
    // The corpus chose: the concepts of the examples are in, the ones no call mentions are not.
    const ids = new Set(built.concepts.map((c) => c.id));
    for (const id of ['3913', '2333', '1392', '5462', '5986', '936', '5187', '4143', '2359'])
      assert.ok(ids.has(id), id);
    assert.ok(built.counts.concepts_kept < built.counts.concepts_in_eurovoc / 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

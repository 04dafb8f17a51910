/**
 * The glossary is data: every group well formed, no form claimed by two groups, lookups by folded form,
 * and each group's counts over the real demo corpus as the data file states them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../../db/connection.ts';
import { GLOSSARY, GLOSSARY_DATA, glossaryGroup } from '../../../lib/funding/glossary.ts';
import { fold } from '../../../lib/funding/stem.ts';
import { copyDemoDatabase } from '../../helpers/demo-template.ts';

test('every group has an English and a Spanish form, each lower-case words', () => {
  for (const group of GLOSSARY) {
    assert.ok(group.en.length > 0 && group.es.length > 0, JSON.stringify(group));
    for (const form of [...group.en, ...group.es])
      assert.match(form, /^\p{Ll}+( \p{Ll}+)*$/u, `${form}: lower-case words`);
  }
});

test('no folded form belongs to two groups (a later group would silently take it over)', () => {
  const owner = new Map<string, number>();
  GLOSSARY.forEach((group, i) => {
    for (const form of new Set([...group.en, ...group.es].map(fold))) {
      assert.ok(!owner.has(form), `${form} is in groups ${owner.get(form)} and ${i}`);
      owner.set(form, i);
    }
  });
});

test('a word finds its group whatever its accents and case; other words find none', () => {
  const cases: Array<[string, string | undefined]> = [
    ['energía', 'energy'],
    ['ENERGIA', 'energy'],
    ['Energy', 'energy'],
    ['subvenciones', 'grant'],
    ['Pymes', 'sme'],
    ['investigacion', 'research'],
    ['becas', 'fellowship'],
    ['vino', undefined],
    ['', undefined],
  ];
  for (const [word, first] of cases) assert.equal(glossaryGroup(word)?.en[0], first, word);
});

test('new groups from the real corpus: sport, associations, prizes, culture in both languages; Catalan forms search with Spanish', () => {
  const cases: Array<[string, string]> = [
    ['deportivas', 'sport'],
    ['Sports', 'sport'],
    ['esportiva', 'sport'],
    ['asociaciones', 'association'],
    ['associació', 'association'],
    ['premios', 'prize'],
    ['vivienda', 'housing'],
    ['empleo', 'employment'],
    ['prácticas', 'internship'],
    ['envases', 'packaging'],
  ];
  for (const [word, first] of cases) assert.equal(glossaryGroup(word)?.en[0], first, word);
  // Left out: forms that are common words with another meaning.
  for (const word of ['building', 'dona', 'fires']) assert.notEqual(glossaryGroup(word)?.en[0], 'association', word);
  assert.equal(glossaryGroup('dona'), undefined, 'Spanish "dona" (gives) is not the Catalan "woman"');
});

test('each group says how many demo calls hold its English and its Spanish forms, and the count is the data’s', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trio-glossary-'));
  try {
    const path = join(dir, 'demo.sqlite');
    copyDemoDatabase(path, Date.parse('2026-11-26T10:00:00Z'));
    const db = openDatabase(path, { readonly: true });
    const rows = db.prepare('SELECT title, summary, body FROM funding_calls WHERE personal_data = 0').all() as Array<
      Record<string, string | null>
    >;
    db.close();
    // Each call's words, folded, between spaces: a form of several words is found as a run of them.
    const texts = rows.map(
      (r) =>
        ` ${fold(`${r.title} ${r.summary ?? ''} ${r.body ?? ''}`)
          .split(/[^\p{L}\p{N}]+/u)
          .join(' ')} `,
    );
    const holding = (forms: readonly string[]) =>
      texts.filter((t) => forms.some((f) => t.includes(` ${fold(f)} `))).length;
    for (const g of GLOSSARY_DATA)
      assert.deepEqual(g.found, { en: holding(g.en), es: holding([...g.es, ...g.ca]) }, g.en[0]);
    // Grown from the corpus: every group but a few English-only EU topics is found on the Spanish side.
    assert.ok(GLOSSARY_DATA.length >= 60);
    assert.ok(GLOSSARY_DATA.filter((g) => g.found.es > 0).length >= GLOSSARY_DATA.length - 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

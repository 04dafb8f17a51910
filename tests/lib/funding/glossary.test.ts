/** The glossary is data: every group well formed, no form claimed by two groups, lookups by folded form. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GLOSSARY, glossaryGroup } from '../../../lib/funding/glossary.ts';
import { fold } from '../../../lib/funding/stem.ts';

test('every group has an English and a Spanish form, each one lower-case word', () => {
  for (const group of GLOSSARY) {
    assert.ok(group.en.length > 0 && group.es.length > 0, JSON.stringify(group));
    for (const form of [...group.en, ...group.es]) assert.match(form, /^[\p{Ll}]+$/u, `${form}: one lower-case word`);
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
    ['hidrógeno', 'hydrogen'],
    ['HIDROGENO', 'hydrogen'],
    ['Hydrogen', 'hydrogen'],
    ['subvenciones', 'grant'],
    ['Pymes', 'sme'],
    ['investigacion', 'research'],
    ['becas', 'fellowship'],
    ['vino', undefined],
    ['', undefined],
  ];
  for (const [word, first] of cases) assert.equal(glossaryGroup(word)?.en[0], first, word);
});

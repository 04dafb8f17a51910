/**
 * The expansion stage (lib/funding/search-expand.ts) on the shipped vocabulary, issue 34d's classes:
 * hyphenated compounds looked up as the words they bind, a run's own pieces never standing for the
 * run, and a target-only label looked up only for a word no call holds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandQuery, type Corpus, type Unit } from '../../../lib/funding/search-expand.ts';
import { parseSearch } from '../../../lib/funding/search-query.ts';
import { shippedVocabulary } from '../../../lib/funding/vocabulary.ts';

const vocabulary = shippedVocabulary();
const forms = (u: Unit) => u.forms.map((ws) => ws.join(' '));
const expand = (q: string, corpus: Corpus | null = null) => expandQuery(parseSearch(q), vocabulary, corpus).units;

test('a hyphenated compound is looked up as its words, alone and in a run', () => {
  // EuroVoc's "self-employed worker" (trabajador autónomo); the glossary's "self employed" (autónomos).
  const [self, workers] = expand('self-employed workers');
  assert.ok(forms(self!).includes('trabajador autónomo'), forms(self!).join(', '));
  assert.ok(forms(workers!).includes('trabajador autónomo'), 'the run’s forms stand for every word of it');
  assert.ok(forms(expand('self-employed')[0]!).includes('autónomos'));
  // A hyphenated word no label holds expands to nothing, as before.
  assert.deepEqual(forms(expand('xx-yy')[0]!), []);
});

test('a label that is a piece of the run typed is not another form of the run', () => {
  const [summer, camps] = expand('summer camps');
  assert.ok(forms(summer!).includes('campamentos verano'), forms(summer!).join(', '));
  // "camps" (and the Spanish "campamentos", a label of its own) would let "summer" match any camp.
  for (const piece of ['camp', 'campamento', 'campamentos']) assert.ok(!forms(summer!).includes(piece), piece);
  assert.ok(forms(camps!).includes('campamentos'), 'the word keeps its own one-word forms');
});

test('a target-only label (a narrower term EuroVoc posts up) is looked up only when no call holds the word', () => {
  const holds = (held: boolean): Corpus => ({
    occurs: (fts) => held || !/emigr/.test(fts),
    typos: () => [],
  });
  // "emigrant" is a non-descriptor of migrant sharing no word with it: target-only.
  assert.deepEqual(forms(expand('emigrants', holds(true))[0]!), [], 'a word the corpus holds keeps its meaning');
  const absent = expand('emigrants', holds(false))[0]!;
  assert.ok(forms(absent).includes('migrante'), forms(absent).join(', '));
});

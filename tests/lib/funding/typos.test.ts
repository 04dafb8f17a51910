/**
 * Typo tolerance (lib/funding/typos.ts, applied by lib/funding/search-expand.ts): which words a typed
 * word is near, on real words of the demo titles, and which words are never corrected.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandQuery, type Corpus } from '../../../lib/funding/search-expand.ts';
import { parseSearch } from '../../../lib/funding/search-query.ts';
import { editDistance, editsAllowed, nearWords } from '../../../lib/funding/typos.ts';
import { shippedVocabulary, typoWords } from '../../../lib/funding/vocabulary.ts';

// Words of real demo titles, folded, as db/funding/typo-index.ts keeps them.
const WORDS = [
  'discapacidad',
  'discapacitados',
  'forestales',
  'forestal',
  'voluntariado',
  'voluntarios',
  'fomento',
  'formacion',
  'forestaciones',
];

test('one edit from five letters, two from nine; a swap of two letters is one', () => {
  assert.equal(editsAllowed('salud'), 1);
  assert.equal(editsAllowed('forestles'), 2);
  assert.equal(editDistance('salud', 'salid', 1), 1);
  assert.equal(editDistance('saldu', 'salud', 1), 1);
  assert.equal(editDistance('salud', 'sxlxd', 1), Infinity);
  assert.equal(editDistance('discapacidd', 'discapacidad', 2), 1);
});

test('the words near the issue’s typos; two edits only when nothing is nearer', () => {
  const cases: Array<[string, string[]]> = [
    ['discapacidd', ['discapacidad']],
    ['forestles', ['forestales']],
    ['voluntariao', ['voluntariado']],
  ];
  for (const [word, expected] of cases) assert.deepEqual(nearWords(word, WORDS), expected, word);
  // fomento is two edits from "forestles" too far; forestales is one.
  assert.ok(!nearWords('forestles', WORDS).includes('fomento'));
  assert.deepEqual(nearWords('xyzzy', WORDS), []);
});

test('which words are corrected: plain words of five letters or more the corpus lacks; never numbers, identifiers, phrases or prefixes', () => {
  const asked: string[] = [];
  const corpus: Corpus = {
    occurs: () => true,
    typos: (w) => {
      asked.push(w);
      return ['x'];
    },
  };
  const v = shippedVocabulary();
  for (const q of [
    'discapacidd',
    'salud',
    'agua',
    '20266',
    'HORIZON-CL5-2026',
    '"discapacidd"',
    'discapac*',
    'discapacidd -vinno',
  ])
    expandQuery(parseSearch(q), v, corpus);
  // salud is a label (the vocabulary's forms stand for it, no correction); agua is short; the rest are not plain words.
  assert.deepEqual(asked, ['discapacidd', 'discapacidd']);
});

test('an English word with a typo is corrected to a label word and expanded like it; a run is looked up corrected', () => {
  const v = shippedVocabulary();
  const labelWords = typoWords(v);
  // The candidates are the labels' words of both languages, not every word of the thesaurus.
  for (const w of ['disability', 'volunteering', 'equality', 'welfare', 'discapacidad', 'igualdad'])
    assert.ok(labelWords.includes(w), w);
  assert.ok(!labelWords.includes('para') && !labelWords.includes('with'), 'function words are not candidates');
  // A corpus holding the Spanish words only (as the demo's titles do), its near words from both.
  const corpus: Corpus = { occurs: () => true, typos: (w) => nearWords(w, [...WORDS, ...labelWords]) };
  const forms = (q: string) =>
    expandQuery(parseSearch(q), v, corpus).units.map((u) => u.forms.map((ws) => ws.join(' ')));
  const cases: Array<[typo: string, unit: number, form: string]> = [
    ['disabilty', 0, 'discapacidad'], // nine letters: "disability" is one edit away
    ['volunteeering', 0, 'voluntariado'],
    ['gender equallity', 1, 'igualdad género'], // the run "gender equality", with its typo corrected
    ['animal welfere', 0, 'bienestar animales'], // "bienestar de los animales",
  ];
  for (const [q, unit, form] of cases)
    assert.ok(forms(q)[unit]!.includes(form), `${q}: ${forms(q)[unit]!.join(' | ')}`);
  // A word of a label ("gender" of "gender equality") is not a typo, even where no call holds it.
  const never: Corpus = { occurs: () => true, typos: (w) => assert.fail(`${w} corrected`) };
  expandQuery(parseSearch('gender equality'), v, never);
  // Five letters or more only, and a quoted word is taken as written.
  assert.deepEqual(forms('"disabilty"'), [[]]);
  assert.deepEqual(forms('welfar'), forms('welfare'));
});

/**
 * Typo tolerance (lib/funding/typos.ts, applied by lib/funding/search-expand.ts): which index keys a
 * typed word is near, on the keys of real words, and which words are never corrected.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandQuery, type Corpus } from '../../../lib/funding/search-expand.ts';
import { parseSearch } from '../../../lib/funding/search-query.ts';
import { stemKey } from '../../../lib/funding/stem.ts';
import { distanceToWord, editsAllowed, nearKeys } from '../../../lib/funding/typos.ts';
import { shippedVocabulary } from '../../../lib/funding/vocabulary.ts';

// Keys as the index holds them: Spanish and English stems of real words of the demo corpus.
const KEYS = [
  ...[
    'discapacidad',
    'discapacitados',
    'forestales',
    'forestal',
    'voluntariado',
    'voluntarios',
    'fomento',
    'formación',
  ].map((w) => stemKey(w, 'es')),
  ...['forest', 'people', 'property', 'volunteering'].map((w) => stemKey(w, 'en')),
];

test('one edit from five letters, two from nine', () => {
  assert.equal(editsAllowed('salud'), 1);
  assert.equal(editsAllowed('forestles'), 2);
  assert.equal(distanceToWord('salud', 'salid', 1), 1);
  assert.equal(distanceToWord('saldu', 'salud', 1), 1, 'two letters swapped are one edit');
  assert.equal(distanceToWord('salud', 'sxlxd', 1), Infinity);
});

test('the keys near the issue’s typos, the stemmer’s ending allowed for', () => {
  const cases: Array<[string, string[]]> = [
    ['discapacidd', [stemKey('discapacidad', 'es')]],
    ['forestles', [stemKey('forestales', 'es')]],
    ['voluntariao', [stemKey('voluntariado', 'es')]],
  ];
  for (const [word, expected] of cases) {
    const near = nearKeys(word, KEYS);
    for (const k of expected) assert.ok(near.includes(k), `${word} → ${k}: ${near.join(', ')}`);
  }
  // Two edits only when nothing is nearer: forestles is not fomento.
  assert.ok(!nearKeys('forestles', KEYS).includes(stemKey('fomento', 'es')));
  // A short key is not a typo of a longer word's beginning: people is not "prop".
  assert.ok(!nearKeys('peoplx', [stemKey('property', 'en')]).includes(stemKey('property', 'en')));
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

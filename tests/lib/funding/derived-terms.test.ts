import assert from 'node:assert/strict';
import { test } from 'node:test';
import { derivedText, isPlainKey, pairTerm, titleTerm } from '../../../lib/funding/derived-terms.ts';

const fields = (
  f: Partial<Record<'ids' | 'title' | 'summary' | 'funder' | 'programme' | 'region' | 'body', string>>,
) => ({
  ids: null,
  title: null,
  summary: null,
  funder: null,
  programme: null,
  region: null,
  body: null,
  ...f,
});

test('derived text: title keys once each, then pair runs (identifiers and title, then every field), each run closed by _', () => {
  const cases: Array<[Parameters<typeof fields>[0], string]> = [
    [{}, '_ _ _ _ _ _ _ _ _ _'],
    [
      { ids: 'eu x 1', title: 'hydrogen vallei hydrogen' },
      '_teu _tx _t1 _thydrogen _tvallei _ ' +
        '_peu_x _px_1 _ _phydrogen_vallei _pvallei_hydrogen _ ' +
        '_qeu_x _qx_1 _ _qhydrogen_vallei _qvallei_hydrogen _ _ _ _ _ _',
    ],
    // A key that is not plain (ß, Greek) gets no term; a break stands in its pairs' places, so the pairs
    // after it keep their positions.
    [{ body: 'a straß b c', title: 'ενεργεια sol' }, '_tsol _ _ _ _ _ _ _ _ _ _ _ _ _ _qb_c _'],
  ];
  for (const [input, expected] of cases) assert.equal(derivedText(fields(input)), expected);
});

test('plain keys and term spelling', () => {
  assert.equal(isPlainKey('hydrogen2026'), true);
  for (const k of ['straß', 'ενεργεια', 'a_b', '', 'Energy']) assert.equal(isPlainKey(k), false, k);
  assert.equal(titleTerm('solar'), '_tsolar');
  assert.equal(pairTerm('action', 'support', 'all'), '_qaction_support');
  assert.equal(pairTerm('action', 'support', 'primary'), '_paction_support');
});

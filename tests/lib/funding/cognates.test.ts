/**
 * Spanish cognates by learned suffix (lib/funding/cognates.ts): the table of endings on real words,
 * and the words it leaves alone (short, with digits, no learned ending).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spanishCognates } from '../../../lib/funding/cognates.ts';

test('an English word with a learned ending gives its Spanish cognates', () => {
  const cases: Array<[string, string]> = [
    ['prevention', 'prevencion'],
    ['promotions', 'promociones'],
    ['production', 'produccion'],
    ['installation', 'instalacion'],
    ['collection', 'coleccion'],
    ['commission', 'comision'],
    ['mission', 'mision'],
    ['exclusions', 'exclusiones'],
    ['community', 'comunidad'],
    ['universities', 'universidades'],
    ['autism', 'autismo'],
    ['historical', 'historico'],
    ['public', 'publica'],
    ['cooperative', 'cooperativa'],
    ['voluntary', 'voluntario'],
    ['religious', 'religioso'],
    ['instruments', 'instrumentos'],
  ];
  for (const [en, es] of cases) assert.ok(spanishCognates(en).includes(es), `${en}: ${spanishCognates(en).join(', ')}`);
});

test('no cognate for a short word, a word with digits or one with no learned ending', () => {
  for (const w of ['tic', 'union', 'covid19', 'football', 'politics', 'housing', 'sion', 'prevención'])
    assert.deepEqual(spanishCognates(w), [], w);
});

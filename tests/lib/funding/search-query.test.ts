import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MAX_TERMS, QueryError, toFtsQuery } from '../../../lib/funding/search-query.ts';

test('the search language becomes quoted FTS5 terms', () => {
  const cases: Array<[string, string]> = [
    ['solar', '"solar"'],
    ['solar energy', '"solar" AND "energy"'],
    ['"energía solar"', '"energía solar"'],
    ['solar OR wind', '("solar" OR "wind")'],
    ['grant solar OR wind OR hydro', '"grant" AND ("solar" OR "wind" OR "hydro")'],
    ['subvenc*', '"subvenc"*'],
    ['"energía sol"*', '"energía sol"*'],
    ['COVID-19', '"COVID-19"'],
    ['NEAR(a b)', '"NEAR(a" AND "b)"'],
    ['title:solar', '"title:solar"'],
    ['a AND NOT b', '"a" AND "AND" AND "NOT" AND "b"'],
    ['or lower-case is a word', '"or" AND "lower-case" AND "is" AND "a" AND "word"'],
    ['"unclosed phrase', '"unclosed phrase"'],
    ['say "he said ""hi"""', '"say" AND "he said" AND "hi"'],
    ['  spaced   out  ', '"spaced" AND "out"'],
    ['solar - wind', '"solar" AND "wind"'],
  ];
  for (const [input, expected] of cases) assert.equal(toFtsQuery(input), expected, input);
});

test('input with nothing to search, or OR out of place, is refused with a message', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /no searchable words/],
    ['- * " ()', /no searchable words/],
    ['OR', /OR must stand between/],
    ['OR solar', /OR must stand between/],
    ['solar OR', /OR must stand between/],
    ['solar OR OR wind', /OR must stand between/],
    [Array.from({ length: MAX_TERMS + 1 }, (_, i) => `w${i}`).join(' '), /more than 32 terms/],
  ];
  for (const [input, message] of cases) assert.throws(() => toFtsQuery(input), (e: unknown) => e instanceof QueryError && message.test(e.message), input);
});

test('property: any text either is refused with QueryError or is an expression FTS5 accepts', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')");
  db.prepare('INSERT INTO t VALUES (?, ?)').run('Energía solar', 'ayudas para la transición');
  const search = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 60 }), fc.constantFrom('"', '*', 'OR', '(', ':', '^', 'NOT', '-', '\u0000')), (q) => {
      let expr: string;
      try {
        expr = toFtsQuery(q);
      } catch (err) {
        assert.ok(err instanceof QueryError);
        return;
      }
      search.get(expr); // throws (fails the property) if FTS5 cannot parse it
    }),
    { numRuns: 2000 },
  );
});

test('accents and case do not matter; prefixes match', () => {
  const db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(title, tokenize = 'unicode61 remove_diacritics 2')");
  db.prepare('INSERT INTO t VALUES (?)').run('Subvenciones para la EFICIENCIA energética');
  const hits = (q: string) => db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck().get(toFtsQuery(q));
  assert.equal(hits('energetica'), 1);
  assert.equal(hits('Eficiencia'), 1);
  assert.equal(hits('subvenc*'), 1);
  assert.equal(hits('"eficiencia energetica"'), 1);
  assert.equal(hits('"energetica eficiencia"'), 0);
  assert.equal(hits('solar OR eficiencia'), 1);
  assert.equal(hits('solar eficiencia'), 0);
});

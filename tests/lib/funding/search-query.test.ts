import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { MAX_TERMS, parseSearch, QueryError, toFtsQuery, type ParsedQuery } from '../../../lib/funding/search-query.ts';
import { indexText } from '../../../lib/funding/stem.ts';

// What the parser makes of what users type: groups (all must match; a group is any of its atoms) and
// excluded atoms. Atoms are written as their words joined by spaces, a phrase in quotes, a prefix with *.
const show = (p: ParsedQuery) => ({
  groups: p.groups.map((g) => g.map(atomText)),
  excluded: p.excluded.map(atomText),
});
const atomText = (a: ParsedQuery['groups'][number][number]) => {
  const ws = a.words.map((w) => w.text + (w.prefix ? '*' : '')).join(' ');
  return a.phrase ? `"${ws}"` : ws;
};

test('parser: words, phrases, prefixes, identifiers and operators in any case', () => {
  const cases: Array<[string, string[][], string[]]> = [
    ['solar', [['solar']], []],
    ['solar energy', [['solar'], ['energy']], []],
    ['solar AND energy', [['solar'], ['energy']], []],
    ['solar and energy', [['solar'], ['energy']], []],
    ['solar OR wind', [['solar', 'wind']], []],
    ['solar or wind', [['solar', 'wind']], []],
    ['solar Or wind | hydro', [['solar', 'wind', 'hydro']], []],
    ['grant solar OR wind', [['grant'], ['solar', 'wind']], []],
    ['ayudas -vino', [['ayudas']], ['vino']],
    ['ayudas not vino', [['ayudas']], ['vino']],
    ['ayudas NOT vino -"denominación de origen"', [['ayudas']], ['vino', '"denominación de origen"']],
    ['"energía solar"', [['"energía solar"']], []],
    ['"energ* renovable"', [['"energ* renovable"']], []],
    ['"energía sol"*', [['"energía sol*"']], []],
    ['subvenc*', [['subvenc*']], []],
    ['HORIZON-MISS-2026-02-CANCER-05', [['horizon miss 2026 02 cancer 05']], []],
    ['eu:HORIZON-MISS-2026-02-CANCER-05', [['eu horizon miss 2026 02 cancer 05']], []],
    ['912345', [['912345']], []],
    ['NEAR(a b)', [['near'], ['a'], ['b']], []],
    ['title:solar', [['title solar']], []],
    ['"unclosed phrase', [['"unclosed phrase"']], []],
    ['solar - wind', [['solar'], ['wind']], []],
    ['(solar OR wind) grant', [['solar', 'wind'], ['grant']], []],
    ['  spaced   out  ', [['spaced'], ['out']], []],
    ['Ayudas', [['ayudas']], []],
    ['__proto__ constructor', [['proto'], ['constructor']], []],
  ];
  for (const [input, groups, excluded] of cases)
    assert.deepEqual(show(parseSearch(input)), { groups, excluded }, input);
});

test('parser: nothing to search, or an operator out of place, is refused with a message', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /no searchable words/],
    ['- * " ()', /no searchable words/],
    ['OR', /OR must stand between/],
    ['or solar', /OR must stand between/],
    ['solar OR', /OR must stand between/],
    ['solar or or wind', /OR must stand between/],
    ['solar OR -wind', /OR cannot join an excluded term/],
    ['solar not', /NOT must come before a term/],
    ['-vino', /only excluded terms/],
    ['not vino', /only excluded terms/],
    [Array.from({ length: MAX_TERMS + 1 }, (_, i) => `w${i}`).join(' '), /more than 32 terms/],
  ];
  for (const [input, message] of cases)
    assert.throws(
      () => parseSearch(input),
      (e: unknown) => e instanceof QueryError && message.test(e.message),
      input,
    );
});

test('property: any text either is refused with QueryError or compiles into expressions FTS5 accepts', () => {
  const db = new Database(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE t USING fts5(ids, title, summary, funder, programme, region, body, tokenize = 'unicode61 remove_diacritics 2')",
  );
  db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    'eu x',
    indexText('Energía solar', 'es'),
    '',
    '',
    '',
    'madr',
    indexText('ayudas para la transición', 'es'),
  );
  const search = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.constantFrom('"', '*', 'OR', 'or', 'not', '-', '(', ':', '^', 'NOT', '-x', '\u0000'),
      ),
      (q) => {
        let compiled;
        try {
          compiled = toFtsQuery(q, q.length % 3 === 0 ? 'Madrid' : undefined)!;
        } catch (err) {
          assert.ok(err instanceof QueryError);
          return;
        }
        for (const expr of [compiled.all, compiled.primary!, compiled.secondary!]) search.get(expr); // throws if FTS5 cannot parse it
      },
    ),
    { numRuns: 2000 },
  );
});

/** A tiny index built the way the real one is (stemmed keys per field), searched the way /search does. */
function miniIndex(rows: Array<{ title: string; body?: string; language: string; ids?: string; region?: string }>) {
  const db = new Database(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE t USING fts5(ids, title, summary, funder, programme, region, body, tokenize = 'unicode61 remove_diacritics 2')",
  );
  const insert = db.prepare(
    'INSERT INTO t(rowid, ids, title, summary, funder, programme, region, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  rows.forEach((r, i) =>
    insert.run(
      i + 1,
      indexText(r.ids ?? '', r.language),
      indexText(r.title, r.language),
      '',
      '',
      '',
      indexText(r.region ?? '', r.language),
      indexText(r.body ?? '', r.language),
    ),
  );
  const hits = (q: string, region?: string) =>
    db
      .prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid')
      .pluck()
      .all(toFtsQuery(q, region)!.all) as number[];
  return hits;
}

test('stemming, accents, glossary and exclusion on a small index', () => {
  const hits = miniIndex([
    /* 1 */ { title: 'Subvenciones para la EFICIENCIA energética', language: 'es' },
    /* 2 */ { title: 'Convocatoria de ayudas a la INVESTIGACION', language: 'es', region: 'ES300 - Madrid' },
    /* 3 */ { title: 'Ayuda a la promoción del vino en terceros países', language: 'es' },
    /* 4 */ {
      title: 'Renewable hydrogen valleys',
      body: 'Marie Curie fellowships for researchers',
      language: 'en',
      ids: 'eu:HORIZON-CL5-2026-D3-01-05',
    },
    /* 5 */ { title: 'Energía renovable en edificios públicos', language: 'es' },
    /* 6 */ { title: 'Subvención nominativa', language: 'ca' },
  ]);
  const cases: Array<[string, number[]]> = [
    ['energetica', [1]],
    ['Eficiencia', [1]],
    ['subvenc*', [1, 6]],
    ['"eficiencia energetica"', [1]],
    ['"energetica eficiencia"', []],
    ['solar OR eficiencia', [1]],
    ['solar eficiencia', []],
    ['ayuda', [1, 2, 3, 6]], // glossary: grant/ayuda/subvención
    ['ayudas', [1, 2, 3, 6]],
    ['subvención', [1, 2, 3, 6]],
    ['subvenciones', [1, 2, 3, 6]],
    ['"subvención"', [1, 6]], // quoted: the word and its forms, no glossary
    ['"subvenciones"', [1, 6]],
    ['investigación', [2, 4]], // accent-insensitive both ways; research (glossary) in 4's body
    ['investigacion', [2, 4]],
    ['fellowship', [4]],
    ['fellowships', [4]],
    ['hidrógeno', [4]],
    ['hydrogen', [4]],
    ['energía', [5]],
    ['energia', [5]],
    ['"energ* renovable"', [5]],
    ['ayudas -vino', [1, 2, 6]],
    ['ayudas NOT vino', [1, 2, 6]],
    ['HORIZON-CL5-2026-D3-01-05', [4]],
    ['horizon-cl5-2026-d3-01-05', [4]],
    ['eu:HORIZON-CL5-2026-D3-01-05', [4]],
    ['HORIZON-CL5-2026', [4]],
  ];
  for (const [q, expected] of cases) assert.deepEqual(hits(q), expected, q);
  assert.deepEqual(hits('ayudas', 'madrid'), [2], 'region filter');
  assert.deepEqual(hits('ayudas', 'MADRID'), [2]);
  assert.deepEqual(hits('ayudas', 'Barcelona'), []);
});

test('relevance tiers: an identifier or title match is primary; the rest secondary; together all', () => {
  const db = new Database(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE t USING fts5(ids, title, summary, funder, programme, region, body, tokenize = 'unicode61 remove_diacritics 2')",
  );
  const insert = db.prepare('INSERT INTO t(rowid, ids, title, body) VALUES (?, ?, ?, ?)');
  insert.run(1, indexText('bdns:900001', 'es'), indexText('Ayudas al hidrógeno verde', 'es'), '');
  insert.run(2, indexText('bdns:900002', 'es'), indexText('Programa de movilidad', 'es'), indexText('hidrógeno', 'es'));
  const q = toFtsQuery('hidrógeno')!;
  const rows = (m: string) => db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid').pluck().all(m);
  assert.deepEqual(rows(q.primary!), [1]);
  assert.deepEqual(rows(q.secondary!), [2]);
  assert.deepEqual(rows(q.all), [1, 2]);
  assert.deepEqual(rows(toFtsQuery('900002')!.primary!), [2]);
});

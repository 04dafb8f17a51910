import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MAX_TERMS, parseSearch, QueryError, type ParsedQuery } from '../../../lib/funding/search-query.ts';
import { toFtsQuery } from '../../../lib/funding/search-tiers.ts';
import { miniFundingFts, type MiniCall } from '../../helpers/funding-fts.ts';

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
    ['NEAR(a b)', [['near'], ['b']], []], // "a" is a function word
    // Function words are not required words (English ones never appear in Spanish records), but stay
    // in a phrase, and are kept when they are the whole query.
    ['housing for young people', [['housing'], ['young'], ['people']], []],
    ['ayudas para el alquiler de vivienda', [['ayudas'], ['alquiler'], ['vivienda']], []],
    ['"alquiler de vivienda"', [['"alquiler de vivienda"']], []],
    ['de la', [['de'], ['la']], []],
    ['title:solar', [['title solar']], []],
    ['"unclosed phrase', [['"unclosed phrase"']], []],
    ['solar - wind', [['solar'], ['wind']], []],
    ['(solar OR wind) grant', [['solar', 'wind'], ['grant']], []],
    ['  spaced   out  ', [['spaced'], ['out']], []],
    ['Ayudas', [['ayudas']], []],
    ['__proto__ constructor', [['proto'], ['constructor']], []],
    // An English possessive is its word; a quoted phrase keeps it, and a Catalan elision is not one.
    ["women's associations", [['women'], ['associations']], []],
    ["children’s books -farmers's", [['children'], ['books']], ['farmers']],
    ['"women\'s rights"', [['"women s rights"']], []],
    ["d'associacions", [['d associacions']], []],
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
  const fts = miniFundingFts();
  fts.add(1, {
    ids: 'eu x',
    title: 'Energía solar',
    region: 'Madrid',
    body: 'ayudas para la transición',
    language: 'es',
  });
  const search = fts.db.prepare('SELECT count(*) FROM funding_calls_fts WHERE funding_calls_fts MATCH ?').pluck();
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
          compiled = [true, false].map((derived) => toFtsQuery(q, q.length % 3 === 0 ? 'Madrid' : undefined, derived)!);
        } catch (err) {
          assert.ok(err instanceof QueryError);
          return;
        }
        for (const c of compiled)
          for (const expr of [c.all, c.primary!, c.secondary!, ...c.tiers.map((t) => t.match)]) search.get(expr); // throws if FTS5 cannot parse it
      },
    ),
    { numRuns: 2000 },
  );
});

/** A tiny index built the way the real one is (tests/helpers/funding-fts.ts), searched the way /search does. */
function miniIndex(rows: MiniCall[]) {
  const fts = miniFundingFts();
  rows.forEach((r, i) => fts.add(i + 1, r));
  return (q: string, region?: string) => fts.rows(toFtsQuery(q, region)!.all);
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
    ['energetica', [1, 5]], // glossary: energética is the energy group's adjective
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
    ['energía', [1, 5]],
    ['energia', [1, 5]],
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
  const fts = miniFundingFts();
  fts.add(1, { ids: 'bdns:900001', title: 'Ayudas al hidrógeno verde', language: 'es' });
  fts.add(2, { ids: 'bdns:900002', title: 'Programa de movilidad', body: 'hidrógeno', language: 'es' });
  const rows = fts.rows;
  const q = toFtsQuery('hidrógeno')!;
  assert.deepEqual(rows(q.primary!), [1]);
  assert.deepEqual(rows(q.secondary!), [2]);
  assert.deepEqual(rows(q.all), [1, 2]);
  assert.deepEqual(rows(toFtsQuery('900002')!.primary!), [2]);
});

// The derived terms (lib/funding/derived-terms.ts) stand in for FTS5's phrases and title filters;
// this holds them to FTS5's own evaluation of the same query on random calls and queries: words of a
// small vocabulary (so phrases do occur), accents, keys FTS5 may tokenize otherwise (ß, Greek),
// digits, prefixes, exclusions, identifiers, and calls in a third language (two key streams).
test('property: the derived terms match exactly what FTS5 phrases and column filters match', () => {
  // Few words, so phrases and pairs across field boundaries do occur.
  const vocabulary = ['energía', 'solar', 'ayudas', 'la', 'hydrogen', 'straße', 'ενέργεια', '2026', 'd3'];
  const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 7 }).map((ws) => ws.join(' '));
  const call = fc.record({
    ids: fc
      .array(fc.constantFrom('HORIZON', 'CL5', '2026', 'D3', '01', 'eu', 'bdns', '900001'), { maxLength: 5 })
      .map((ws) => ws.join('-')),
    title: text,
    summary: text,
    region: fc.constantFrom('', 'ES300 Madrid', 'Île-de-France'),
    body: text,
    language: fc.constantFrom('es', 'en', 'ca'),
  });
  const word = fc.oneof(
    fc.constantFrom(...vocabulary),
    fc.constantFrom(...vocabulary).map((w) => `${w.slice(0, 3)}*`),
  );
  const atom = fc.oneof(
    word,
    fc.array(word, { minLength: 2, maxLength: 4 }).map((ws) => `"${ws.join(' ')}"`),
    fc.constantFrom('HORIZON-CL5-2026', 'CL5-2026-D3', 'eu:HORIZON-CL5'),
  );
  const query = fc
    .array(fc.tuple(fc.constantFrom('', '', 'or ', '-'), atom), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.map(([op, a], i) => (i === 0 ? a : `${op}${a}`)).join(' '));
  fc.assert(
    fc.property(
      fc.array(call, { minLength: 1, maxLength: 12 }),
      fc.array(query, { minLength: 1, maxLength: 6 }),
      (calls, queries) => {
        const fts = miniFundingFts();
        calls.forEach((c, i) => fts.add(i + 1, c));
        for (const q of queries) {
          let fast, reference;
          try {
            fast = toFtsQuery(q)!;
            reference = toFtsQuery(q, null, false)!;
          } catch (err) {
            assert.ok(err instanceof QueryError, q);
            continue;
          }
          for (const tier of ['all', 'primary', 'secondary'] as const)
            assert.deepEqual(fts.rows(fast[tier]!), fts.rows(reference[tier]!), `${tier}: ${q}`);
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('derived terms: a phrase stays within one field, and the keys FTS5 may split keep FTS5 phrases', () => {
  const fts = miniFundingFts();
  fts.add(1, { title: 'Ayudas energía solar', summary: 'solar hydrogen valleys', language: 'es' });
  fts.add(2, { title: 'Straße ενέργεια solar', language: 'de' }); // neither language: two key streams
  fts.add(3, { ids: 'eu:HORIZON-CL5-2026-D3', title: 'Energy', body: 'energía solar hydrogen', language: 'en' });
  fts.add(4, { title: 'Energía 2026', language: 'ca' });
  const cases: Array<[string, number[], number[]]> = [
    // query, all, primary
    ['"energía solar"', [1, 3], [1]],
    ['"energía solar hydrogen"', [3], []], // 1 has it across title and summary: not a phrase
    ['"solar hydrogen"', [1, 3], []],
    ['"straße ενέργεια"', [2], [2]],
    ['"ενέργεια solar"', [2], [2]],
    ['"2026 energía"', [4], [4]], // 4: the Spanish stream's last key, then the English stream's first
    ['"horizon cl5" -"ayudas energía"', [3], [3]],
    ['HORIZON-CL5-2026-D3', [3], [3]],
    ['CL5-2026 energy', [3], [3]],
  ];
  for (const [q, all, primary] of cases) {
    const c = toFtsQuery(q)!;
    assert.deepEqual(fts.rows(c.all), all, `all: ${q}`);
    assert.deepEqual(fts.rows(c.primary!), primary, `primary: ${q}`);
    assert.deepEqual(
      fts.rows(c.secondary!),
      all.filter((r) => !primary.includes(r)),
      `secondary: ${q}`,
    );
  }
});

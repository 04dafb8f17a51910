import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addBusinessDays,
  isBusinessDay,
  nextBusinessDay,
  SPAIN_NATIONAL_HOLIDAYS,
} from '../../../lib/funding/holidays.ts';
import { deadlineFromText, periodEnd, readRelativePeriod } from '../../../lib/funding/relative-deadline.ts';

test('the holiday data: each year has its source and nine or more national days, none of them a duplicate', () => {
  for (const [year, data] of Object.entries(SPAIN_NATIONAL_HOLIDAYS.years)) {
    assert.ok(data.source.length > 20, year);
    assert.ok(data.days.length >= 9, year);
    assert.equal(new Set(data.days).size, data.days.length);
    for (const d of data.days) assert.ok(d.startsWith(year), d);
  }
  // Good Friday is a national day: Easter Sunday 2025-04-20, 2026-04-05, 2027-03-28.
  for (const d of ['2025-04-18', '2026-04-03', '2027-03-26']) assert.equal(isBusinessDay(d), false, d);
});

test('días hábiles: weekends and national holidays skipped (Ley 39/2015 art. 30.2)', () => {
  const cases: Array<[string, number, string, string]> = [
    ['2026-11-16', 1, '2026-11-17', 'the day after'],
    ['2026-11-20', 1, '2026-11-23', 'Friday → Monday'],
    ['2026-11-16', 15, '2026-12-07', 'three weeks of five days (Sunday 6 December changes nothing)'],
    ['2026-11-16', 20, '2026-12-15', 'over 8 December (Inmaculada, Tuesday)'],
    ['2026-12-22', 3, '2026-12-28', 'over Christmas Friday and a weekend'],
    ['2025-12-31', 1, '2026-01-02', 'New Year across years'],
    ['2026-01-02', 1, '2026-01-05', 'Monday 5th; Epiphany Tuesday 6th is next'],
    ['2026-01-02', 2, '2026-01-07', 'Epiphany skipped'],
  ];
  for (const [from, n, end, why] of cases) assert.equal(addBusinessDays(from, n), end, why);
  assert.equal(nextBusinessDay('2026-12-25'), '2026-12-28');
});

test('periodEnd: naturales, hábiles and months, with art. 30.5 (an inhábil last day runs on)', () => {
  const cases: Array<[string, number, 'días naturales' | 'días hábiles' | 'meses', string, string]> = [
    ['2025-11-03', 30, 'días naturales', '2025-12-03', 'BOE 3 Nov 2025 + 30: a Wednesday'],
    ['2026-03-02', 30, 'días naturales', '2026-04-01', 'March has 31 days'],
    ['2026-11-06', 30, 'días naturales', '2026-12-07', '6 Dec is a Sunday: runs on to Monday 7th'],
    ['2026-11-08', 30, 'días naturales', '2026-12-09', '8 Dec is a holiday: runs on to the 9th'],
    ['2026-01-15', 1, 'meses', '2026-02-16', 'date to date: 15 Feb is a Sunday → Monday 16th'],
    ['2026-01-31', 1, 'meses', '2026-03-02', 'no 31 Feb: the last day, Saturday 28th, runs on to Monday 2 March'],
    ['2026-03-31', 1, 'meses', '2026-04-30', 'no 31 April: the last day of April'],
    ['2026-10-14', 2, 'meses', '2026-12-14', 'two months, a Monday'],
    ['2026-11-30', 3, 'meses', '2027-03-01', '28 Feb 2027 is a Sunday → 1 March'],
  ];
  for (const [from, n, unit, end, why] of cases) {
    assert.equal(periodEnd(from, n, unit), end, why);
  }
  assert.throws(() => periodEnd('2028-02-01', 10, 'días hábiles'), /no national holiday calendar for 2028/);
});

test('readRelativePeriod: numbers in words and digits, units, and which publication the text means', () => {
  const cases: Array<[string, null | [number, string, string]]> = [
    [
      'con un plazo de presentación de treinta días naturales desde el día siguiente al de esta publicación.',
      [30, 'días naturales', 'this'],
    ],
    [
      '15 días hábiles a contar desde el día siguiente al de la publicación del extracto en el Diari Oficial de la Generalitat de Catalunya',
      [15, 'días hábiles', 'regional'],
    ],
    [
      'Veinte días hábiles a contar desde el día siguiente al de la publicación del extracto de la convocatoria en el Boletín Oficial del Estado',
      [20, 'días hábiles', 'boe'],
    ],
    [
      'El plazo será de quince (15) días hábiles contados a partir del día siguiente a la publicación de este extracto en el BOE.',
      [15, 'días hábiles', 'boe'],
    ],
    ['un mes desde el día siguiente a la publicación del extracto', [1, 'meses', 'extract']],
    ['Dos meses a partir del día siguiente al de la publicación en el BOCM', [2, 'meses', 'regional']],
    [
      '10 días desde el día siguiente a la publicación en el Boletín Oficial de la Provincia de Zaragoza',
      [10, 'días hábiles', 'regional'],
    ],
    ['veintiún días naturales desde el día siguiente a su publicación', [21, 'días naturales', 'unspecified']],
    [
      'dentro de los treinta días naturales siguientes al de la publicación de esta resolución en el BOE',
      [30, 'días naturales', 'boe'],
    ],
    [
      'El plazo será de un (1) mes contado desde el día siguiente al de la publicación del presente extracto',
      [1, 'meses', 'this'],
    ],
    [
      'plazo de diez días, a contar desde el siguiente al de la publicación de este anuncio',
      [10, 'días hábiles', 'this'],
    ],
    ['Hasta el 30 de noviembre de 2026', null],
    ['Programa 2026-2027, 15 días hábiles', null],
    ['Se presentarán en 20 días hábiles desde que se notifique la resolución', null],
  ];
  for (const [text, expected] of cases) {
    const p = readRelativePeriod(text);
    assert.deepEqual(p && [p.count, p.unit, p.refersTo], expected, text);
  }
  assert.equal(readRelativePeriod('15 días hábiles … en el DOGC')?.bulletin ?? null, null, 'no start phrase: nothing');
  assert.equal(
    readRelativePeriod('15 días hábiles desde el día siguiente a la publicación en el DOGC')?.bulletin,
    'DOGC',
  );
});

test('deadlineFromText: computed from the publication it names, or uncomputed with the reason', () => {
  const boe = { date: '2025-11-03', id: 'BOE-A-2025-22110' };
  const wine = deadlineFromText('plazo de treinta días naturales desde el día siguiente al de esta publicación', {
    self: boe,
    boeExtract: null,
  });
  assert.equal(wine.date, '2025-12-03');
  assert.equal(wine.source.kind, 'computed');
  if (wine.source.kind === 'computed') {
    assert.equal(wine.source.from, '2025-11-03');
    assert.equal(wine.source.publication, 'BOE-A-2025-22110');
    assert.match(wine.source.rule, /^30 días naturales desde el día siguiente/);
    assert.match(wine.source.calendar[0]!, /2025/);
  }
  const text = 'Veinte días hábiles a contar desde el día siguiente al de la publicación del extracto en el BOE';
  const withExtract = deadlineFromText(text, {
    self: null,
    boeExtract: { date: '2026-11-16', id: 'BOE-B-2026-41210' },
  });
  assert.equal(withExtract.date, '2026-12-15');
  const without = deadlineFromText(text, { self: null, boeExtract: null });
  assert.equal(without.date, null);
  assert.equal(without.source.kind, 'uncomputed');
  assert.match((without.source as { reason: string }).reason, /no BOE extract of this call is in the corpus/);
  const dogc = deadlineFromText(
    '15 días hábiles a contar desde el día siguiente al de la publicación del extracto en el DOGC',
    { self: null, boeExtract: { date: '2026-11-16', id: 'X' } },
  );
  assert.equal(dogc.date, null, 'a regional bulletin: never computed from another publication');
  assert.match((dogc.source as { reason: string }).reason, /in DOGC, and the record names no such publication/);
  const none = deadlineFromText('Hasta agotar el crédito', { self: boe, boeExtract: null });
  assert.deepEqual(none, {
    date: null,
    source: {
      kind: 'uncomputed',
      reason: 'the text states no period counted from a publication',
      text: 'Hasta agotar el crédito',
    },
  });
  const late = deadlineFromText('10 días hábiles desde el día siguiente a esta publicación', {
    self: { date: '2028-03-01', id: 'B' },
    boeExtract: null,
  });
  assert.equal(late.date, null, 'a year without holiday data is not guessed');
});

/**
 * The real BDNS details' periods (data/funding/bdns/convocatorias-detalle-…), with the publications
 * their anuncios[] list: each computed day checked by hand against the national calendar.
 */
test('real BDNS periods: Spanish and Catalan, bare periods read with textInicio, publications from anuncios', () => {
  const boe = 'BOE. BOLETÍN OFICIAL DEL ESTADO';
  const dogc = 'DOGC. D.O. DE LA GENERALITAT DE CATALUNYA';
  const catalanStart = 'Des de l’endemà de la publicació en el diari oficial de la convocatòria inicial';
  const cases: Array<[string, string, string | null, Array<[string, string, string]>, string | null, RegExp]> = [
    // id, textFin, textInicio, publications [date, id, bulletin], expected day, what deadline_source says
    [
      '873847',
      '45 días hábiles a contar desde el día siguiente a la publicación del extracto en el BOE',
      'desde el día siguiente a la publicación del extracto en el BOE',
      [['2025-12-12', 'BOE-B-2025-46004', boe]],
      '2026-02-18', // 15 Dec … over 25 Dec, 1 and 6 Jan: the 45th día hábil
      /^45 días hábiles desde el día siguiente a la publicación \(Ley 39\/2015, art\. 30\)$/,
    ],
    [
      '885128',
      'Treinta días desde la publicación del extracto de la convocatoria 2026 en el BOE',
      'Tras la publicación del extracto de la convocatoria 2026 en el BOE',
      [['2026-02-07', 'BOE-B-2026-3595', boe]],
      '2026-03-20', // "días" alone are hábiles: 9 Feb … 20 Mar
      /^30 días hábiles/,
    ],
    [
      '894612',
      '15 Dies Hàbils',
      catalanStart,
      [['2026-03-26', 'DOGC (BDNS anuncio 207239)', dogc]],
      '2026-04-17', // 27 Mar … over Good Friday 3 Apr; Easter Monday (a Catalan holiday) is not in the data
      /^15 días hábiles .*; regional and local holidays not counted$/,
    ],
    ['877440', '01 Mesos', catalanStart, [['2025-12-30', 'DOGC (BDNS anuncio 200484)', dogc]], '2026-01-30', /^1 mes/],
    ['919284', '15 Dies Hàbils', catalanStart, [], null, /names no such publication/],
    [
      '919413',
      '2 meses a partir día siguiente publicación',
      'Día siguiente a su publicación en BOE',
      [],
      null,
      /publication of the extract in the BOE, and no BOE extract/,
    ],
    [
      '894205',
      'Hasta veintiún días naturales desde la publicación del acuerdo del órgano instructor',
      'Desde la publicación del acuerdo del órgano instructor ',
      [['2026-03-21', 'BOE-B-2026-8864', boe]],
      null, // the instructor's acuerdo is another, later act: never the extract's day
      /another act of the procedure/,
    ],
    [
      '919085',
      'Plazo máximo de dos meses desde la fecha de entrad',
      'Desde la fecha de entrada en vigor del decreto',
      [],
      null,
      /states no period counted from a publication/,
    ],
    ['918846', 'Sin plazo de solicitud', 'Sin plazo de solicitud', [], null, /no application period/],
  ];
  for (const [id, textFin, textInicio, pubs, day, says] of cases) {
    const publications = pubs.map(([date, pid, bulletin]) => ({ date, id: pid, bulletin }));
    const r = deadlineFromText(textFin, { self: null, boeExtract: null, publications, start: textInicio });
    assert.equal(r.date, day, id);
    const said = r.source.kind === 'computed' ? r.source.rule : r.source.kind === 'uncomputed' ? r.source.reason : '';
    assert.match(said, says, id);
    if (r.source.kind === 'computed') assert.equal(r.source.publication, pubs[0]![1], id);
  }
});

test('a bare period without start words, or a start naming no publication, is not read', () => {
  assert.equal(readRelativePeriod('15 Dies Hàbils'), null);
  assert.equal(readRelativePeriod('15 Dies Hàbils', 'Desde la fecha de entrada en vigor'), null);
  assert.deepEqual(
    (({ count, unit, refersTo }) => ({ count, unit, refersTo }))(
      readRelativePeriod('10 Dies Hàbils', 'Des de l’endemà de la publicació en el DOGC')!,
    ),
    { count: 10, unit: 'días hábiles', refersTo: 'regional' },
  );
});

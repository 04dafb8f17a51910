/** What Spanish and Catalan prose about a period states outright (lib/funding/deadline-prose.ts), over real wordings. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closingDay, closingTime, statedDay, statedTime, statesNoPeriod } from '../../../lib/funding/deadline-prose.ts';

test('days and hours in the real BDNS and BOE wordings', () => {
  const cases: Array<[string, string | null, string | null, string | null]> = [
    // text, first day stated, closing day, closing hour
    [', hasta las 12:00 horas del 10 de febrero de 2026, hora peninsular', '2026-02-10', '2026-02-10', '12:00'],
    ['hasta las 12:00 horas, hora peninsular, del día 10 de febrero de 2026', '2026-02-10', '2026-02-10', '12:00'],
    [' el 14 de enero 2026 a las 12:00 horas peninsular', '2026-01-14', '2026-01-14', '12:00'],
    [
      'El día 26 de febrero de 2026 a las 14:00 horas (13:00 horas en la comunidad autónoma de Canarias)',
      '2026-02-26',
      '2026-02-26',
      '14:00',
    ],
    ['9:00 horas 02/04/2026', '2026-04-02', '2026-04-02', '09:00'],
    ['31/03/26', '2026-03-31', '2026-03-31', null],
    ['Hasta el 15 de setiembre de 2026', '2026-09-15', '2026-09-15', null],
    ['Desde el 1 de Octubre de 2026', '2026-10-01', '2026-10-01', null],
    [
      'El plazo de presentación de solicitudes se iniciará el 14 de enero 2026 a las 12:00 horas peninsular y finalizará a las 12:00 hora peninsular del día 19 de febrero de 2026.',
      '2026-01-14',
      '2026-02-19',
      '12:00',
    ],
    [
      'comenzará al día siguiente de la publicación de este anuncio en BOE, y finalizará a las 14:00 horas del 25 de abril de 2024.',
      '2024-04-25',
      '2024-04-25',
      '14:00',
    ],
    ['fins al 30 de juny de 2026', '2026-06-30', '2026-06-30', null],
    ['15 Dies Hàbils', null, null, null],
    ['Sin plazo de solicitud', null, null, null],
    ['hasta el 31 de febrero de 2026', null, null, null], // not a day
  ];
  for (const [text, first, closing, hour] of cases) {
    assert.equal(statedDay(text), first, `first day: ${text}`);
    assert.equal(closingDay(text), closing, `closing day: ${text}`);
    assert.equal(closing ? closingTime(closing, text) : null, hour, `hour: ${text}`);
  }
  assert.equal(statedTime('a las 9 horas'), '09:00');
  assert.equal(statedTime('25:00 horas'), null);
  // The hour of prose about another day is not this date's.
  assert.equal(closingTime('2026-02-11', 'hasta las 12:00 horas del 10 de febrero de 2026'), null);
  assert.equal(closingTime('2026-02-10', 'hasta las 12:00 horas'), '12:00', 'no day named: the hour is the date’s');
});

test('no application period, in Spanish and Catalan', () => {
  assert.equal(statesNoPeriod('Sin plazo de solicitud'), true);
  assert.equal(statesNoPeriod('Sense termini'), true);
  assert.equal(statesNoPeriod('15 días hábiles'), false);
  assert.equal(statesNoPeriod(null), false);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boeIdsIn, dispositionKey, noticeKind, type NoticeKind } from '../../../lib/funding/notice-kind.ts';

// Titles as the BOE sumario and BDNS publish them.
test('noticeKind: calls, bases, corrections, modifications and award resolutions', () => {
  const cases: Array<[string, NoticeKind]> = [
    [
      'Resolución de 27 de octubre de 2025, del Fondo Español de Garantía Agraria, por la que se convocan ayudas a la promoción del vino en mercados de terceros países para el ejercicio 2026.',
      'call',
    ],
    [
      'Extracto de la Orden de 30 de octubre de 2025 por la que se convocan ayudas a proyectos de innovación en la cadena de valor del vehículo eléctrico y conectado (PERTE VEC). BDNS (Identif.): 867001',
      'call',
    ],
    [
      'Resolución de 30 de octubre de 2026 de la Agencia Estatal de Investigación por la que se aprueba la convocatoria de ayudas a proyectos de transición ecológica y transición digital 2027',
      'call',
    ],
    [
      'Orden TED/1120/2025, de 2 de octubre, por la que se aprueban las bases reguladoras y se convocan ayudas para proyectos de hidrógeno renovable.',
      'call',
    ],
    ['Bases y convocatoria de subvenciones para actividades culturales 2027', 'call'],
    [
      'Orden CNU/1230/2025, de 27 de octubre, por la que se establecen las bases reguladoras para la concesión de ayudas públicas a proyectos de transición ecológica y transición digital en el marco del Plan Estatal de Investigación Científica, Técnica y de Innovación 2024-2027.',
      'bases',
    ],
    [
      'Real Decreto 691/2021, de 3 de agosto, por el que se regulan las subvenciones a otorgar a actuaciones de rehabilitación energética en edificios existentes (bases reguladoras)',
      'bases',
    ],
    [
      'Corrección de errores de la Resolución de 27 de octubre de 2025, del Fondo Español de Garantía Agraria, por la que se convocan ayudas a la promoción del vino en mercados de terceros países para el ejercicio 2026.',
      'correction',
    ],
    [
      'Extracto de la Resolución de 3 de noviembre de 2026, de la Agencia Estatal de Investigación, por la que se modifica la de 30 de octubre de 2026, por la que se aprueba la convocatoria de ayudas a proyectos de transición ecológica. BDNS (Identif.): 912345',
      'modification',
    ],
    [
      'Extracto de modificación de la convocatoria de subvenciones a asociaciones vecinales. BDNS (Identif.): 914002',
      'modification',
    ],
    [
      'Resolución de 10 de noviembre de 2026, por la que se amplía el plazo de presentación de solicitudes de la convocatoria de ayudas PREE',
      'modification',
    ],
    [
      'Resolución de 22 de octubre de 2025, de la Agencia Estatal de Investigación, por la que se conceden las ayudas de la convocatoria 2024 de proyectos de colaboración público-privada.',
      'award',
    ],
    [
      'Resolución de 5 de noviembre de 2025, por la que se resuelve la convocatoria de becas de formación 2025',
      'award',
    ],
    ['Resolución de concesión de las subvenciones para programas de interés general 2025', 'award'],
    [
      'Anuncio de la Subdirección General de Gestión de Ayudas a la Industria por el que se notifica la resolución de reintegro de un préstamo concedido en 2019.',
      'other',
    ],
  ];
  for (const [title, kind] of cases) assert.equal(noticeKind(title), kind, title);
});

test('dispositionKey: a call names its own disposition, a notice the one it refers to', () => {
  const call =
    'Resolución de 27 de octubre de 2025, del Fondo Español de Garantía Agraria, por la que se convocan ayudas a la promoción del vino';
  const correction =
    'Corrección de errores de la Resolución de 27 de octubre de 2025, del Fondo Español de Garantía Agraria, por la que se convocan ayudas a la promoción del vino';
  assert.equal(dispositionKey(call, 'own'), 'resolucion 2025-10-27');
  assert.equal(dispositionKey(correction, 'referred'), 'resolucion 2025-10-27');
  assert.equal(
    dispositionKey('Orden CNU/1230/2025, de 27 de octubre, por la que se establecen las bases', 'own'),
    'orden cnu/1230/2025',
  );
  assert.equal(
    dispositionKey(
      'Resolución de 3 de diciembre de 2025, por la que se modifica la Orden CNU/1230/2025, de 27 de octubre',
      'referred',
    ),
    'orden cnu/1230/2025',
  );
  assert.equal(
    dispositionKey(
      'Resolución de 3 de septiembre de 2026, por la que se amplía el plazo de la Resolución de 1 de septiembre de 2026',
      'referred',
    ),
    'resolucion 2026-09-01',
  );
  assert.equal(dispositionKey('Anuncio de reintegro de un préstamo', 'referred'), null);
  assert.deepEqual(boeIdsIn('modifica la convocatoria publicada como BOE-A-2025-22110 y BOE-A-2025-22110'), [
    'BOE-A-2025-22110',
  ]);
});

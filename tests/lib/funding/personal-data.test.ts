import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  classifyTaxId,
  findPersonalId,
  namesIndividual,
  normaliseTaxId,
  personalDataFinding,
} from '../../../lib/funding/personal-data.ts';

test('classifyTaxId: natural persons by prefix; E… and anything unrecognised count as persons', () => {
  const cases: Array<[string, 'natural' | 'legal', string]> = [
    ['12345678Z', 'natural', 'DNI'],
    ['00012345A', 'natural', 'DNI with leading zeros'],
    ['X1234567L', 'natural', 'NIE X'],
    ['Y1234567X', 'natural', 'NIE Y'],
    ['Z1234567R', 'natural', 'NIE Z'],
    ['K1234567A', 'natural', 'K: Spanish minor without DNI'],
    ['L1234567B', 'natural', 'L: non-resident Spaniard'],
    ['M1234567C', 'natural', 'M: foreigner without NIE'],
    ['E12345678', 'natural', 'comunidad de bienes'],
    ['***4821**', 'natural', 'masked NIF'],
    ['B1234567', 'natural', 'too short: unrecognised'],
    ['T1234567A', 'natural', 'unknown letter'],
    ['', 'natural', 'empty'],
    ['A28023430', 'legal', 'sociedad anónima'],
    ['B12345678', 'legal', 'sociedad limitada'],
    ['C1234567D', 'legal', 'colectiva'],
    ['D12345678', 'legal', 'comanditaria'],
    ['F12345678', 'legal', 'cooperativa'],
    ['G28795961', 'legal', 'asociación/fundación'],
    ['H12345678', 'legal', 'comunidad de propietarios'],
    ['J12345678', 'legal', 'sociedad civil'],
    ['N0012345I', 'legal', 'foreign entity'],
    ['P2807900B', 'legal', 'local authority'],
    ['Q2818002D', 'legal', 'public body'],
    ['R1234567C', 'legal', 'religious congregation'],
    ['S0611001I', 'legal', 'state/regional body'],
    ['U12345678', 'legal', 'UTE'],
    ['V12345678', 'legal', 'other'],
    ['W1234567J', 'legal', 'permanent establishment'],
    ['ESB12345678', 'legal', 'ES VAT prefix'],
    ['es-b12.345.678', 'legal', 'separators and case'],
    ['ES12345678Z', 'natural', 'ES VAT of a person'],
  ];
  for (const [id, kind, why] of cases) assert.equal(classifyTaxId(id), kind, `${id}: ${why}`);
});

test('normaliseTaxId strips separators and an ES prefix, keeps everything else', () => {
  assert.equal(normaliseTaxId(' es b-1234 5678 '), 'B12345678');
  assert.equal(normaliseTaxId('NL800678573B01'), 'NL800678573B01');
  assert.equal(normaliseTaxId('ESTONIA'), 'ESTONIA');
});

test('findPersonalId: DNI/NIE with a valid control letter, E… ids and masked NIFs in free text', () => {
  const cases: Array<[string | null, string | null]> = [
    ['Concesión directa a D. Lorenzo Vidal, con NIF ***4821**, para obras', '***4821**'],
    ['Beneficiario: 12345678Z', '12345678Z'],
    ['beneficiario 12345678z (minúsculas)', '12345678Z'],
    ['NIE X1234567L', 'X1234567L'],
    ['NIE Y1234567X', 'Y1234567X'],
    ['Comunidad de bienes E12345678', 'E12345678'],
    ['Referencia 12345678A del expediente', null], // wrong control letter: not a DNI
    ['Convocatoria 2027 para pymes (B12345678)', null], // a company
    ['Código AB12345678Z', null], // part of a longer code
    ['Ayudas a PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA', null],
    ['Programa 2026-2027, 15 días hábiles', null],
    [null, null],
  ];
  for (const [text, expected] of cases) assert.equal(findPersonalId(text), expected, String(text));
});

test('namesIndividual: an honorific before a name, not places named Don/Doña', () => {
  const cases: Array<[string, boolean]> = [
    ['Concesión directa de subvención a D. Juan Pérez para su tesis', true],
    ['Subvención a favor de Dña. María López García', true],
    ['Premio otorgado a Dª Carmen Ruiz', true],
    ['Ayuntamiento de Don Benito: obras de pavimentación', false],
    ['Subvención a la Fundación Doña Mencía', false],
    ['Subvención nominativa a la Fundación Princesa de Asturias', false],
    ['Plan D. de apoyo', false],
  ];
  for (const [text, expected] of cases) assert.equal(namesIndividual(text), expected, text);
});

// Real-format titles (BDNS descripcion, BOE titulo): true and false positives of the whole rule.
test('personalDataFinding: persons withheld, organisations, places and works named after people kept', () => {
  const cases: Array<[string, string | null, string]> = [
    [
      'Concesión directa de subvención a Dña. María ZZPERSONAFISICA Castro para la rehabilitación de su vivienda',
      'honorific',
      'BDNS list title, Dña. and a name, no NIF',
    ],
    [
      'Subvención nominativa a favor de D. Ernesto ZZPERSONAFISICA Gil para la edición de su obra',
      'honorific',
      'nominativa a favor de D.',
    ],
    [
      'SUBVENCIÓN NOMINATIVA A FAVOR DE DON ANTONIO ZZPERSONAFISICA RUIZ',
      'honorific',
      'all capitals, bare DON with name and surname',
    ],
    ['Ayuda a Doña Carmen Ruiz Pérez por su trayectoria', 'honorific', 'bare Doña before a full name'],
    ['Premio extraordinario concedido a la Sra. Lucía Gómez', 'honorific', 'Sra.'],
    ['Resolución por la que se concede a Sr. D. Pablo Ortega una ayuda', 'honorific', 'Sr. D.'],
    ['Subvención a Dª Rosa Martín para estudios', 'honorific', 'Dª'],
    [
      'Concesión directa de una subvención a José Antonio Pérez Vidal para gastos de desplazamiento',
      'named_beneficiary',
      'direct grant, given name',
    ],
    ['Ayuda a favor de María del Mar López García', 'named_beneficiary', 'a favor de, given name'],
    ['Concesión directa a D. Lorenzo Vidal, con NIF ***4821**, para obras', 'id_number', 'masked NIF'],
    ['Beneficiario con DNI 12345678Z', 'id_number', 'DNI'],
    ['Beneficiaria con NIF K1234567L', 'id_number', 'K NIF with its control letter'],
    // false positives the rule must not make
    ['Subvención nominativa a la Fundación Doña Juana para su programa de becas', null, 'Fundación Doña Juana'],
    ['Convocatoria del Premio Don Quijote de periodismo 2027', null, 'Premio Don Quijote'],
    [
      'Subvención directa al Ayuntamiento de Don Benito para la mejora de caminos rurales',
      null,
      'Ayuntamiento de Don Benito',
    ],
    ['AYUNTAMIENTO DE DON BENITO. Bases y convocatoria de ayudas al comercio local', null, 'all capitals place'],
    ['Ayudas a las asociaciones vecinales de Doña Mencía 2027', null, 'vecinos de Doña Mencía'],
    ['Obras en la Calle Don Pelayo y la Plaza Doña Urraca García', null, 'streets'],
    ['Subvención nominativa a la Cátedra Doña Emilia Pardo Bazán de la Universidad', null, 'Cátedra'],
    ['Colegio Sra. de las Mercedes: ayudas de comedor', null, 'school named Sra. de'],
    ['Convenio con el Sr. Alcalde-Presidente del Ayuntamiento de Lugo', null, 'an office, not a person'],
    ['Subvención a favor de Cruz Roja Española para atención humanitaria', null, 'a favor de an organisation'],
    [
      'Concesión directa de subvención a la Federación Española de Municipios y Provincias',
      null,
      'direct grant to an organisation',
    ],
    ['Ayudas para PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA', null, 'eligibility, not a person'],
    ['Real Decreto 691/2021, de 3 de agosto (R.D. 691/2021)', null, 'R.D. is not D.'],
    ['Plan D. de apoyo al comercio', null, 'D. before lower case'],
    ['Ph.D. Programme Support Actions 2027', null, 'Ph.D. is not D.'],
    [
      'Concesión directa de subvención a Santiago de Compostela Turismo para el Xacobeo 2027',
      null,
      'a town named like a person',
    ],
    ['Subvención nominativa a favor de Pedro Muñoz (Ciudad Real) para su feria', null, 'Pedro Muñoz, a town'],
    ['Proyectos de I+D. Programa Estatal de Investigación', null, 'I+D. is not D.'],
    [
      'Concesión directa de ayudas a las personas físicas afectadas por la DANA',
      null,
      'a direct grant to unnamed persons is a programme',
    ],
    ['SUBVENCIÓN NOMINATIVA A DÑA. LUCÍA PÉREZ SANZ', 'honorific', 'DÑA. in capitals'],
    ['Ayudas en la comarca de Don Benito-Villanueva', null, 'de Don Benito'],
  ];
  for (const [title, rule, why] of cases)
    assert.equal(personalDataFinding({ title })?.rule ?? null, rule, `${why}: ${title}`);
});

test('personalDataFinding reads summary and body too, and names the field', () => {
  assert.deepEqual(
    personalDataFinding({
      title: 'Ayudas al comercio 2027',
      summary: null,
      body: 'Beneficiaria: Dña. Elena Sanz Mora',
    }),
    { rule: 'honorific', field: 'body' },
  );
  // A direct grant named by tipoConvocatoria in the body makes "a <given name> <surname>" a beneficiary.
  assert.deepEqual(
    personalDataFinding({
      title: 'Subvención a Pedro Sánchez Gil para su tesis',
      body: 'Concesión directa - instrumental',
    }),
    { rule: 'named_beneficiary', field: 'title' },
  );
  assert.equal(
    personalDataFinding({
      title: 'Subvención a Pedro Sánchez Gil para su tesis',
      body: 'Concurrencia competitiva - canónica',
    }),
    null,
  );
});

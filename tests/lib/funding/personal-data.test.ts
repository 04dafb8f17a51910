import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyTaxId, findPersonalId, namesIndividual, normaliseTaxId } from '../../../lib/funding/personal-data.ts';

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

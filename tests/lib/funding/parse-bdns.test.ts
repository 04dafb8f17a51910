import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseBdns } from '../../../lib/funding/parse-bdns.ts';
import { ImportFormatError, type CallRecord } from '../../../lib/funding/records.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding');
const read = (p: string) => readFileSync(join(FIXTURES, p), 'utf8');
const NOW = Date.parse('2026-11-22T10:00:00Z');
const byId = (calls: CallRecord[]) => new Map(calls.map((c) => [c.source_id, c]));
const detail = (over: Record<string, unknown>) =>
  JSON.stringify({
    id: 1,
    organo: { nivel1: 'ESTADO', nivel2: 'MINISTERIO', nivel3: null },
    codigoBDNS: '900001',
    fechaRecepcion: '2026-11-01',
    descripcion: 'Ayudas de prueba',
    abierto: true,
    fechaInicioSolicitud: '2026-11-02',
    fechaFinSolicitud: '2026-12-01',
    ...over,
  });

test('list page: title, publication day and funder only; no deadline in a list', () => {
  const { format, calls } = parseBdns(read('bdns/convocatorias-busqueda.json'));
  assert.equal(format, 'list');
  assert.deepEqual(
    calls.map((c) => c.source_id),
    ['912345', '913870', '866120', '914002', '910777'],
  );
  const c = byId(calls).get('912345')!;
  assert.equal(c.bdns_id, '912345');
  assert.equal(c.url, 'https://www.infosubvenciones.es/bdnstrans/GE/es/convocatorias/912345');
  assert.deepEqual([c.country, c.time_zone, c.language], ['ES', 'Europe/Madrid', 'es']);
  assert.equal(c.funder, 'MINISTERIO DE CIENCIA, INNOVACIÓN Y UNIVERSIDADES – AGENCIA ESTATAL DE INVESTIGACIÓN');
  for (const call of calls) {
    assert.deepEqual(
      [call.cutoffs, call.deadline_text, call.opening_on, call.source_status, call.summary, call.budget, call.region],
      [[], null, null, null, null, null, null],
      `${call.source_id}: a list item leaves detail fields null`,
    );
  }
  // descripcionLeng is the list item's body: the personal-data rule reads it on every path.
  assert.equal(
    byId(calls).get('913870')!.body,
    'Ajuts per a la digitalització del comerç de proximitat a Catalunya 2026',
  );
  assert.equal(byId(calls).get('912345')!.body, null);
  assert.equal(byId(calls).get('914002')!.published_on, '2026-11-18', 'DD/MM/YYYY accepted');
  assert.equal(byId(calls).get('914002')!.funder, 'AYUNTAMIENTO DE ZARAGOZA');
});

test('list page: an item naming a natural person is flagged personal', () => {
  const calls = byId(parseBdns(read('bdns/convocatorias-busqueda.json')).calls);
  assert.equal(calls.get('910777')!.personal_data, true);
  assert.equal([...calls.values()].filter((c) => c.personal_data).length, 1);
});

test('detail: period, status, budget, region, and "personas físicas" eligibility is not personal data', () => {
  const { format, calls } = parseBdns(read('bdns/convocatoria-912345.json'), NOW);
  assert.equal(format, 'detail');
  const c = calls[0]!;
  assert.deepEqual(
    [c.opening_on, c.cutoffs, c.deadline_text],
    ['2026-11-04', [{ date: '2027-01-15', time: null }], null],
  );
  assert.equal(c.source_status, 'open');
  assert.deepEqual([c.budget, c.currency, c.region], [85_000_000, 'EUR', 'ES - ESPAÑA']);
  assert.equal(c.summary, 'Investigación, desarrollo e innovación');
  assert.match(c.body!, /PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA/);
  assert.equal(c.personal_data, false);
});

test('detail: no fechaFinSolicitud → the textFin words are the deadline', () => {
  const c = parseBdns(read('bdns/convocatoria-913870.json'), NOW).calls[0]!;
  assert.deepEqual(c.cutoffs, []);
  assert.equal(
    c.deadline_text,
    '15 días hábiles a contar desde el día siguiente al de la publicación del extracto en el Diari Oficial de la Generalitat de Catalunya',
  );
  assert.equal(c.region, 'ES511 - Barcelona; ES512 - Girona; ES513 - Lleida; ES514 - Tarragona');
  assert.match(c.body!, /Ajuts per a la digitalització/);
});

test('detail file holding an array; DD/MM/YYYY dates; abierto false before the window is forthcoming', () => {
  const calls = byId(parseBdns(read('bdns/convocatorias-detalle.json'), NOW).calls);
  assert.deepEqual([...calls.keys()], ['866120', '910777', '915500']);
  const pree = calls.get('866120')!;
  assert.deepEqual(
    [pree.published_on, pree.opening_on, pree.cutoffs],
    ['2025-10-29', '2025-11-04', [{ date: '2026-09-30', time: null }]],
  );
  assert.equal(pree.source_status, 'closed');
  assert.equal(calls.get('915500')!.source_status, 'forthcoming', 'window opens 2027-01-11, after now');
  assert.equal(
    parseBdns(read('bdns/convocatorias-detalle.json'), Date.parse('2027-01-12T10:00:00Z')).calls[2]!.source_status,
    'closed',
  );
  assert.equal(
    parseBdns(read('bdns/convocatorias-detalle.json')).calls[2]!.source_status,
    'closed',
    'no clock: as the source says',
  );
  assert.equal(calls.get('910777')!.personal_data, true);
});

test('detail read with the period block missing: no cut-offs, no words, no opening day', () => {
  const c = parseBdns(read('bdns/convocatoria-912345-relectura.json'), NOW).calls[0]!;
  assert.deepEqual([c.cutoffs, c.deadline_text, c.opening_on], [[], null, null]);
  assert.equal(c.title, parseBdns(read('bdns/convocatoria-912345.json'), NOW).calls[0]!.title);
});

test('personal data: an id in the texts, or a direct grant naming someone', () => {
  const cases: Array<[Record<string, unknown>, boolean]> = [
    [{}, false],
    [{ descripcion: 'Subvención a Y1234567X para formación' }, true],
    [{ descripcionFinalidad: 'Beneficiario con NIF ***1234**' }, true],
    [
      {
        tipoConvocatoria: 'Concesión directa - instrumental',
        descripcion: 'Subvención a D. Juan Pérez para su exposición',
      },
      true,
    ],
    [
      { tipoConvocatoria: 'Concurrencia competitiva - canónica', descripcion: 'Premio en memoria de D. Juan Pérez' },
      false,
    ],
    [{ tiposBeneficiarios: [{ descripcion: 'PERSONAS FÍSICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA' }] }, false],
    [{ descripcion: 'Ayudas a la empresa B12345678' }, false],
  ];
  for (const [over, expected] of cases)
    assert.equal(parseBdns(detail(over), NOW).calls[0]!.personal_data, expected, JSON.stringify(over));
});

test('catalogue entries may be plain strings; numbers may be numeric codes', () => {
  const c = parseBdns(detail({ regiones: ['ES30 - MADRID'], codigoBDNS: 900002, presupuestoTotal: '1500,50' }), NOW)
    .calls[0]!;
  assert.deepEqual([c.region, c.source_id, c.budget], ['ES30 - MADRID', '900002', 1500.5]);
});

test('the API error inside a 200 and other malformed input are refused naming the record', () => {
  const cases: Array<[string, RegExp]> = [
    [
      read('malformed/bdns-error-200.json'),
      /^response: BDNS answered an error: ERR_MANTENIMIENTO_BBDD La base de datos/,
    ],
    [
      JSON.stringify({ content: [{ numeroConvocatoria: '912345', descripcion: 'x', fechaRecepcion: '2026-13-45' }] }),
      /^content\[0\] \(BDNS 912345\): fechaRecepcion is not a date \("2026-13-45"\)/,
    ],
    [JSON.stringify({ content: [{ descripcion: 'x' }] }), /^content\[0\]: numeroConvocatoria\/codigoBDNS is missing/],
    [
      JSON.stringify({ content: [{ numeroConvocatoria: '1', descripcion: '' }] }),
      /^content\[0\] \(BDNS 1\): descripcion \(the title\) is missing/,
    ],
    [detail({ fechaFinSolicitud: '31-12-2026' }), /^convocatoria \(BDNS 900001\): fechaFinSolicitud is not a date/],
    [detail({ presupuestoTotal: 'mucho' }), /^convocatoria \(BDNS 900001\): presupuestoTotal is not a number/],
    [`[${detail({})}, 5]`, /^\[1\]: not a convocatoria detail object/],
    [JSON.stringify({ hello: 'world' }), /^file: neither a BDNS/],
    ['[]', /^file: neither a BDNS/],
    ['<html>', /^file: not valid JSON/],
  ];
  for (const [text, expected] of cases) {
    assert.throws(
      () => parseBdns(text, NOW),
      (e: unknown) => e instanceof ImportFormatError && expected.test(e.message),
      String(expected),
    );
  }
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isGrantCall, parseBoe } from '../../../lib/funding/parse-boe.ts';
import { BDNS_ID } from '../../../lib/funding/notice-kind.ts';
import { ImportFormatError } from '../../../lib/funding/records.ts';
import { parseXml, xmlToObject, XmlError } from '../../../lib/funding/xml.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding');
const read = (p: string) => readFileSync(join(FIXTURES, p), 'utf8');
const item = (identificador: string, titulo: string) => ({
  identificador,
  titulo,
  url_html: `https://www.boe.es/diario_boe/txt.php?id=${identificador}`,
});
const sumario = (diario: unknown) =>
  JSON.stringify({
    status: { code: '200', text: 'ok' },
    data: { sumario: { metadatos: { publicacion: 'BOE', fecha_publicacion: '20261110' }, diario } },
  });
const EXTRACT = 'Extracto de la Orden de 5 de noviembre de 2026 por la que se convocan ayudas. BDNS (Identif.): 920001';

test('JSON sumario: only grant-call items, across two diarios, objects and arrays alike', () => {
  const { date, notices, calls } = parseBoe(read('boe/sumario-20251103.json'));
  assert.equal(date, '2025-11-03');
  assert.deepEqual(
    notices.map((n) => n.source_id),
    [
      'BOE-A-2025-22101',
      'BOE-A-2025-22102',
      'BOE-A-2025-22110',
      'BOE-B-2025-33410',
      'BOE-B-2025-33415',
      'BOE-A-2025-22190',
    ],
  );
  assert.deepEqual(
    notices.map((n) => n.bdns_id),
    [null, null, null, '866120', '867001', null],
  );
  const pree = notices[3]!;
  assert.deepEqual(
    [pree.section, pree.department, pree.published_on, pree.personal_data],
    [
      'V. Anuncios. - B. Otros anuncios oficiales',
      'MINISTERIO PARA LA TRANSICIÓN ECOLÓGICA Y EL RETO DEMOGRÁFICO',
      '2025-11-03',
      false,
    ],
  );
  assert.equal(pree.url, 'https://www.boe.es/diario_boe/txt.php?id=BOE-B-2025-33410');
  assert.deepEqual(
    calls.map((c) => c.source_id),
    notices.map((n) => n.source_id),
    'every notice is also a call record',
  );
  for (const c of calls) {
    assert.deepEqual(
      [c.source, c.country, c.time_zone, c.language, c.cutoffs, c.source_status],
      ['boe', 'ES', 'Europe/Madrid', 'es', [], null],
    );
  }
  assert.equal(calls[3]!.bdns_id, '866120');
  assert.equal(calls[3]!.funder, 'MINISTERIO PARA LA TRANSICIÓN ECOLÓGICA Y EL RETO DEMOGRÁFICO');
});

test('JSON sumario: a relative deadline stated in a title is kept as words; none otherwise', () => {
  const { calls } = parseBoe(read('boe/sumario-20251103.json'));
  assert.deepEqual(
    calls.map((c) => c.deadline_text),
    [null, null, 'treinta días naturales desde el día siguiente al de esta publicación', null, null, null],
  );
});

test('XML sumario gives exactly what the JSON one does', () => {
  assert.deepEqual(parseBoe(read('boe/sumario-20251103.xml')), parseBoe(read('boe/sumario-20251103.json')));
});

test('object-or-array: the same items read whichever shape each level takes', () => {
  const asObjects = sumario({
    numero: '1',
    seccion: {
      codigo: '5B',
      nombre: 'V-B',
      departamento: { nombre: 'MINISTERIO', item: item('BOE-B-2026-1', EXTRACT) },
    },
  });
  const asArrays = sumario([
    {
      numero: '1',
      seccion: [
        {
          codigo: '5B',
          nombre: 'V-B',
          departamento: [{ nombre: 'MINISTERIO', item: [item('BOE-B-2026-1', EXTRACT)] }],
        },
      ],
    },
  ]);
  const underEpigraph = sumario({
    seccion: {
      codigo: '5B',
      nombre: 'V-B',
      departamento: { nombre: 'MINISTERIO', epigrafe: [{ nombre: 'Ayudas', item: item('BOE-B-2026-1', EXTRACT) }] },
    },
  });
  const a = parseBoe(asObjects);
  assert.equal(a.notices.length, 1);
  assert.equal(a.notices[0]!.bdns_id, '920001');
  assert.deepEqual(parseBoe(asArrays), a);
  assert.deepEqual(parseBoe(underEpigraph).notices, a.notices);
  assert.deepEqual(
    parseBoe(JSON.stringify({ response: JSON.parse(asObjects) })),
    a,
    'a {response:…} wrapper is accepted',
  );
});

// Award resolutions are kept since issue 13: as notices of the call they resolve, never as calls
// (db/funding/import.ts classifies each item with lib/funding/notice-kind.ts).
test('isGrantCall: section III grant epigraphs, calls and awards, V-B extracts; other sections skipped', () => {
  const cases: Array<[string | null, string | null, string, boolean]> = [
    ['3', 'Subvenciones', 'Orden por la que se establecen las bases reguladoras de ayudas', true],
    ['3', 'Ayudas', 'Resolución por la que se convocan ayudas a la promoción del vino', true],
    ['3', 'Becas', 'Resolución por la que se convocan becas de formación', true],
    ['3', 'Investigación', 'Resolución por la que se aprueba la convocatoria de subvenciones para proyectos', true],
    ['3', 'Subvenciones', 'Resolución por la que se conceden las ayudas de la convocatoria 2024', true],
    ['3', 'Subvenciones', 'Resolución por la que se publica la relación de beneficiarios', true],
    ['3', 'Investigación', 'Resolución por la que se conceden las ayudas de la convocatoria 2024', true],
    ['3', 'Investigación', 'Resolución por la que se publica la relación de puestos de trabajo', false],
    ['3', 'Convenios', 'Resolución por la que se publica el Convenio con la Universidad de Salamanca', false],
    ['5B', null, 'Extracto de la Resolución de 28 de octubre por la que se convocan ayudas', true],
    ['5B', null, 'Anuncio de notificación de reintegro. BDNS (Identif.): 866120', true],
    ['5B', null, 'Anuncio de la Subdirección General por el que se notifica la resolución de reintegro', false],
    ['5A', null, 'Extracto de la Resolución por la que se convocan ayudas', false],
    ['1', 'Subvenciones', 'Real Decreto por el que se regula la concesión directa de una subvención', false],
    ['2B', null, 'Resolución por la que se convoca concurso de becas', false],
  ];
  for (const [code, epigraph, title, expected] of cases)
    assert.equal(isGrantCall(code, epigraph, title), expected, `${code} ${epigraph}: ${title}`);
});

test('BDNS id regex: "BDNS (Identif.): N" and its variants', () => {
  const cases: Array<[string, string | null]> = [
    ['… por la que se convocan ayudas. BDNS (Identif.): 866120', '866120'],
    ['BDNS(Identif.):123456', '123456'],
    ['BDNS (Identificador): 7654321', '7654321'],
    ['BDNS 12345', '12345'],
    ['BDNS: 1234', null],
    ['Código BDNSX 123456', null],
    ['sin identificador', null],
  ];
  for (const [text, expected] of cases) assert.equal(BDNS_ID.exec(text)?.[1] ?? null, expected, text);
});

test('a title naming a person makes the notice and its call personal', () => {
  const t = 'Extracto de la Orden por la que se convocan ayudas; beneficiario NIF ***4821**';
  const { notices, calls } = parseBoe(
    sumario({ seccion: { codigo: '5B', departamento: { nombre: 'M', item: item('BOE-B-2026-2', t) } } }),
  );
  assert.deepEqual([notices[0]!.personal_data, calls[0]!.personal_data], [true, true]);
});

test('malformed sumarios are refused naming the record', () => {
  const cases: Array<[string, RegExp]> = [
    [
      read('malformed/boe-sumario-sin-titulo.json'),
      /^diario\[0\]\.seccion\[2\]\.departamento\[1\]\.item\[0\] \(identificador BOE-B-2025-33415\): titulo is missing/,
    ],
    [
      read('malformed/boe-sumario-roto.xml'),
      /^file: not well-formed XML \(<\/epigrafes> closes <epigrafe> at line \d+\)/,
    ],
    [
      JSON.stringify({ status: { code: '404', text: 'La información solicitada no existe' } }),
      /^status: the BOE answered 404 La información/,
    ],
    [JSON.stringify({ status: { code: '200' }, data: {} }), /^data\.sumario: is missing/],
    [sumario([]).replace('20261110', '2026-11-xx'), /^data\.sumario\.metadatos: fecha_publicacion is not a date/],
    [
      sumario({ seccion: { codigo: '3', departamento: { item: { titulo: 'x' } } } }),
      /^diario\[0\]\.seccion\[0\]\.departamento\[0\]\.item\[0\]: identificador is missing/,
    ],
    ['{"status":', /^file: not valid JSON/],
  ];
  for (const [text, expected] of cases) {
    assert.throws(
      () => parseBoe(text),
      (e: unknown) => e instanceof ImportFormatError && expected.test(e.message),
      String(expected),
    );
  }
});

test('xml: elements, attributes, entities, CDATA, comments; the BOE JSON shape out of it', () => {
  const xml =
    `<?xml version="1.0"?>\n<!-- c --><r a='1'><x>A &amp; B &#243; &#xF1;</x><x><![CDATA[<raw>]]></x><e/>` +
    `<u n="2" m="&quot;q&quot;">https://x?a=1&amp;b=2</u><!-- inner --></r>`;
  assert.deepEqual(xmlToObject(parseXml(xml)), {
    a: '1',
    x: ['A & B ó ñ', '<raw>'],
    e: '',
    u: { n: '2', m: '"q"', texto: 'https://x?a=1&b=2' },
  });
  for (const bad of ['<a><b></a>', '<a>', '<a></a><b></b>', '<a b=1></a>', 'text', '<a><!-- x </a>']) {
    assert.throws(() => parseXml(bad), XmlError, bad);
  }
});

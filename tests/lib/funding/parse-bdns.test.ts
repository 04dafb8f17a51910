import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseBdns } from '../../../lib/funding/parse-bdns.ts';
import { ImportFormatError, type CallRecord } from '../../../lib/funding/records.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const read = (p: string) => readFileSync(join(ROOT, 'fixtures', 'funding', p), 'utf8');
const real = (p: string) => readFileSync(join(ROOT, 'data', 'funding', 'bdns', p), 'utf8');
const byId = (calls: CallRecord[]) => new Map(calls.map((c) => [c.source_id, c]));
const detail = (over: Record<string, unknown>) =>
  JSON.stringify({
    id: 1,
    organo: { nivel1: 'ESTADO', nivel2: 'MINISTERIO', nivel3: null },
    codigoBDNS: '900001',
    fechaRecepcion: '2026-11-01',
    descripcion: 'Ayudas de prueba',
    abierto: false,
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
      [call.cutoffs, call.deadline_text, call.opening_on, call.source_status, call.summary, call.budget],
      [[], null, null, null, null, null],
      `${call.source_id}: a list item leaves detail fields null`,
    );
  }
  assert.equal(byId(calls).get('913870')!.region, 'CATALUÑA', 'AUTONOMICA: nivel2 is the community');
  assert.equal(byId(calls).get('912345')!.region, null, 'ESTADO: no region in a list');
  // descripcionLeng is the list item's body: the personal-data rule reads it on every path.
  assert.equal(
    byId(calls).get('913870')!.body,
    'Ajuts per a la digitalització del comerç de proximitat a Catalunya 2026',
  );
  assert.equal(byId(calls).get('912345')!.body, null);
  assert.equal(byId(calls).get('914002')!.published_on, '2026-11-18');
  assert.equal(byId(calls).get('914002')!.funder, 'AYUNTAMIENTO DE ZARAGOZA');
});

test('real list (1,992 entries): nivel1 is the tier; a regional body names its community, the only region a list gives', () => {
  const { calls } = parseBdns(real('convocatorias-busqueda-20260217-20260226.json'));
  assert.equal(calls.length, 1992);
  const first = calls[0]!; // 890095, AUTONOMICA / CASTILLA Y LEÓN / SERVICIO PÚBLICO DE EMPLEO DE CASTILLA Y LEÓN
  assert.deepEqual(
    [first.source_id, first.published_on, first.region, first.funder],
    ['890095', '2026-02-26', 'CASTILLA Y LEÓN', 'CASTILLA Y LEÓN – SERVICIO PÚBLICO DE EMPLEO DE CASTILLA Y LEÓN'],
  );
  const raw = JSON.parse(real('convocatorias-busqueda-20260217-20260226.json')) as {
    content: Array<{ numeroConvocatoria: string; nivel1: string; nivel2: string }>;
  };
  const regions = byId(calls);
  for (const item of raw.content)
    assert.equal(
      regions.get(item.numeroConvocatoria)!.region,
      item.nivel1 === 'AUTONOMICA' ? item.nivel2 : null,
      item.numeroConvocatoria,
    );
  assert.equal(calls.filter((c) => c.region !== null).length, 274, 'the AUTONOMICA entries');
  // The list's four self-flagged entries (data/funding/bdns/SOURCE.md): "D." = Distrito, "NTRA. SRA.".
  assert.deepEqual(
    calls
      .filter((c) => c.personal_data)
      .map((c) => c.source_id)
      .sort(),
    ['888650', '888662', '889893', '889918'],
  );
});

test('list page: an item naming a natural person is flagged personal', () => {
  const calls = byId(parseBdns(read('bdns/convocatorias-busqueda.json')).calls);
  assert.equal(calls.get('910777')!.personal_data, true);
  assert.equal([...calls.values()].filter((c) => c.personal_data).length, 1);
});

test('detail: period, budget, region, and "personas físicas" eligibility is not personal data', () => {
  const { format, calls } = parseBdns(read('bdns/convocatoria-912345.json'));
  assert.equal(format, 'detail');
  const c = calls[0]!;
  assert.deepEqual(
    [c.opening_on, c.cutoffs, c.deadline_text],
    ['2026-11-04', [{ date: '2027-01-15', time: null }], null],
  );
  assert.equal(c.source_status, null, 'abierto is not read');
  assert.deepEqual([c.budget, c.currency, c.region], [85_000_000, 'EUR', 'ES - ESPAÑA']);
  assert.equal(c.summary, 'Investigación, desarrollo e innovación');
  assert.match(c.body!, /PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA/);
  assert.equal(c.personal_data, false);
});

test('detail: no fechaFinSolicitud → the textFin words are the deadline', () => {
  const c = parseBdns(read('bdns/convocatoria-913870.json')).calls[0]!;
  assert.deepEqual(c.cutoffs, []);
  assert.equal(
    c.deadline_text,
    '15 días hábiles a contar desde el día siguiente al de la publicación del extracto en el Diari Oficial de la Generalitat de Catalunya',
  );
  assert.equal(c.region, 'ES511 - Barcelona; ES512 - Girona; ES513 - Lleida; ES514 - Tarragona');
  assert.match(c.body!, /Ajuts per a la digitalització/);
});

test('detail file holding an array; abierto is never the status (the dates are)', () => {
  const calls = byId(parseBdns(read('bdns/convocatorias-detalle.json')).calls);
  assert.deepEqual([...calls.keys()], ['866120', '910777', '915500']);
  const pree = calls.get('866120')!;
  assert.deepEqual(
    [pree.published_on, pree.opening_on, pree.cutoffs],
    ['2025-10-29', '2025-11-04', [{ date: '2026-09-30', time: null }]],
  );
  for (const c of calls.values()) assert.equal(c.source_status, null, c.source_id);
  assert.equal(calls.get('915500')!.opening_on, '2027-01-11', 'forthcoming by its dates (lib/funding/status.ts)');
  assert.equal(calls.get('910777')!.personal_data, true);
});

/**
 * The 71 real details (data/funding/bdns/convocatorias-detalle-…): what each period becomes. Every
 * call whose textFin states an hour, a day in prose, or a relative period is listed, with what the
 * source wrote; the others have ISO dates only.
 */
test('real details: the closing hour from textFin, days stated in prose, relative periods kept as words', () => {
  const calls = byId(parseBdns(real('convocatorias-detalle-20250116-20260715.json')).calls);
  assert.equal(calls.size, 71);
  const cases: Array<[string, string | null, string | null, string | null, string | null]> = [
    // id, opening_on, closing day, closing time, deadline_text
    ['876660', '2025-12-30', '2026-02-10', '12:00', null], // ", hasta las 12:00 horas del 10 de febrero de 2026, hora peninsular"
    ['876683', '2025-12-23', '2026-02-10', '12:00', null], // "hasta las 12:00 horas, hora peninsular, del día 10 de febrero de 2026"
    ['877068', '2026-01-14', '2026-02-19', '12:00', null], // "el día 19 de febrero de 2026 hasta las 12:00 hora peninsular"
    ['877435', '2026-01-21', '2026-02-27', '13:00', null],
    ['877748', '2026-01-15', '2026-02-24', '12:00', null], // "Hasta las 12:00 horas del mediodía (hora peninsular) del 24 de…"
    ['877869', '2026-01-27', '2026-02-26', '14:00', null], // "14:00 horas (13:00 horas en … Canarias)": the peninsular hour
    ['896067', '2026-04-02', '2026-06-10', '15:00', null], // no dates: "9:00 horas 02/04/2026" / "hasta las 15:00 horas del día 10 de junio de 2026"
    ['918059', null, '2026-09-15', null, null], // no dates: "Finaliza el 15 de septiembre de 2026"
    ['918981', '2026-07-15', '2026-09-15', null, null], // "Hasta el 15 de setiembre de 2026" agrees with the date
    ['919009', '2026-10-01', '2026-10-15', null, null],
    ['919444', '2026-01-15', '2026-03-31', null, null], // "15/01/26" / "31/03/26"
    ['912921', '2026-07-08', '2026-09-29', null, null], // dates, no words
    [
      '873847',
      null,
      null,
      null,
      '45 días hábiles a contar desde el día siguiente a la publicación del extracto en el BOE',
    ],
    ['894612', null, null, null, '15 Dies Hàbils'],
    ['877440', null, null, null, '01 Mesos'],
    ['918846', null, null, null, 'Sin plazo de solicitud'],
    ['919451', null, null, null, null], // textInicio and textFin a single space
    ['917478', null, null, null, null], // abierto true, no period at all
  ];
  for (const [id, opening, day, time, words] of cases) {
    const c = calls.get(id)!;
    assert.deepEqual(
      [c.opening_on, c.cutoffs, c.deadline_text],
      [opening, day ? [{ date: day, time }] : [], words],
      id,
    );
  }
  // abierto is not the status: it is true on 7 undated calls and false on 12 running windows.
  for (const c of calls.values()) assert.equal(c.source_status, null, c.source_id);
  // A Catalan bare period keeps the words its start counts from.
  assert.equal(
    calls.get('894612')!.opening_text,
    'Des de l’endemà de la publicació en el diari oficial de la convocatòria inicial',
  );
  assert.equal(calls.get('876660')!.opening_text, null, 'a call with dates needs no start words');
  // Hours are read only where the source wrote one: 15 textFin beside a fechaFinSolicitud, and 896067's
  // textFin without one (the other textFin beside a date state a day, a period or nothing about the hour).
  assert.equal([...calls.values()].filter((c) => c.cutoffs.some((k) => k.time !== null)).length, 16);
});

test('real details: anuncios[] are the publications a period counts from, and the BOE ones notices of the call', () => {
  const { calls, notices } = parseBdns(real('convocatorias-detalle-20250116-20260715.json'));
  const byCall = byId(calls);
  // 873847: the extract published twice on 2025-12-12, and the notice voiding the duplicate (not a publication).
  assert.deepEqual(byCall.get('873847')!.publications, [
    { date: '2025-12-12', id: 'BOE-B-2025-46004', bulletin: 'BOE. BOLETÍN OFICIAL DEL ESTADO' },
    { date: '2025-12-12', id: 'BOE-B-2025-46003', bulletin: 'BOE. BOLETÍN OFICIAL DEL ESTADO' },
  ]);
  // 894612: its DOGC publication has no cve: named by the bulletin and BDNS's own number.
  assert.deepEqual(byCall.get('894612')!.publications, [
    {
      date: '2026-03-26',
      id: 'DOGC. D.O. DE LA GENERALITAT DE CATALUNYA (BDNS anuncio 207239)',
      bulletin: 'DOGC. D.O. DE LA GENERALITAT DE CATALUNYA',
    },
  ]);
  // The 22 BOE notices of data/funding/bdns/SOURCE.md's table, each with its call's BDNS id; the correction of 877748 too.
  assert.equal(notices.length, 22);
  const voided = notices.find((n) => n.source_id === 'BOE-B-2025-46495')!;
  assert.deepEqual(
    [voided.bdns_id, voided.published_on, voided.url],
    ['873847', '2025-12-16', 'https://www.boe.es/diario_boe/txt.php?id=BOE-B-2025-46495'],
  );
  assert.equal(notices.find((n) => n.source_id === 'BOE-B-2026-441')!.bdns_id, '877748');
  assert.ok(notices.every((n) => /^BOE-B-\d{4}-\d+$/.test(n.source_id) && n.bdns_id !== null));
});

test('detail read with the period block missing: no cut-offs, no words, no opening day', () => {
  const c = parseBdns(read('bdns/convocatoria-912345-relectura.json')).calls[0]!;
  assert.deepEqual([c.cutoffs, c.deadline_text, c.opening_on], [[], null, null]);
  assert.equal(c.title, parseBdns(read('bdns/convocatoria-912345.json')).calls[0]!.title);
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
    assert.equal(parseBdns(detail(over)).calls[0]!.personal_data, expected, JSON.stringify(over));
});

test('catalogue entries may be plain strings; numbers may be numeric codes', () => {
  const c = parseBdns(detail({ regiones: ['ES30 - MADRID'], codigoBDNS: 900002, presupuestoTotal: '1500,50' }))
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
      () => parseBdns(text),
      (e: unknown) => e instanceof ImportFormatError && expected.test(e.message),
      String(expected),
    );
  }
});

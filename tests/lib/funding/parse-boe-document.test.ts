/**
 * BOE item documents: the real one (data/funding/boe/documento-BOE-B-2024-3994.xml) and the 22 real
 * extract texts BDNS mirrors, in the document format (tests/helpers/boe-mirror.ts). The BDNS number and
 * the deadline come from the text, never from the title, and each deadline read from a document is
 * checked against the date BDNS states for the same call.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyCallRules } from '../../../lib/funding/call-rules.ts';
import { deadlineParagraph } from '../../../lib/funding/parse-boe-document.ts';
import { parseBoe } from '../../../lib/funding/parse-boe.ts';
import { ImportFormatError } from '../../../lib/funding/records.ts';
import { boeDaysFromBdnsMirrors } from '../../helpers/boe-mirror.ts';

const DATA = join(import.meta.dirname, '..', '..', '..', 'data', 'funding');

test('the real extract BOE-B-2024-3994: its BDNS number and deadline are in its text, not its title', () => {
  const { date, notices, calls, documents } = parseBoe(
    readFileSync(join(DATA, 'boe', 'documento-BOE-B-2024-3994.xml'), 'utf8'),
  );
  assert.equal(date, '2024-02-06');
  assert.deepEqual(documents, []);
  const [n, c] = [notices[0]!, calls[0]!];
  assert.ok(!/742455/.test(c.title), 'the title has no BDNS number');
  assert.deepEqual([n.source_id, n.bdns_id, c.bdns_id], ['BOE-B-2024-3994', '742455', '742455']);
  // "Quinto. Plazo de presentación de solicitudes: … finalizará a las 14:00 horas del 25 de abril de 2024."
  assert.deepEqual(c.cutoffs, [{ date: '2024-04-25', time: '14:00' }]);
  assert.equal(c.deadline_text, null);
  assert.equal(c.funder, 'Ministerio de Educación, Formación Profesional y Deportes');
  assert.match(
    c.body!,
    /^V\. Anuncios\. - B\. Otros anuncios oficiales · Ministerio de Educación.* Concurso Nacional de Teatro Clásico Grecolatino/,
  );
  assert.match(c.body!, /Primer Premio: 8\.000 euros/);
  assert.equal(c.url, 'https://www.boe.es/diario_boe/txt.php?id=BOE-B-2024-3994');
});

test('the 22 extracts BDNS mirrors: each document names its call; its deadline agrees with BDNS, or is computed from its own day', () => {
  const details = JSON.parse(
    readFileSync(join(DATA, 'bdns', 'convocatorias-detalle-20250116-20260715.json'), 'utf8'),
  ) as Array<{ codigoBDNS: string; fechaFinSolicitud: string | null; anuncios?: Array<{ cve: string | null }> | null }>;
  const byCve = new Map(details.flatMap((d) => (d.anuncios ?? []).map((a) => [a.cve, d] as const)));
  const docs = [...boeDaysFromBdnsMirrors((id) => `https://example.org/${id}`).values()].flatMap((d) => [
    ...d.documents,
  ]);
  assert.equal(docs.length, 22);
  let agreed = 0;
  for (const [id, xml] of docs) {
    const call = parseBoe(xml).calls[0]!;
    const bdns = byCve.get(id)!;
    if (/^Extracto de/.test(call.title)) assert.equal(call.bdns_id, bdns.codigoBDNS, id);
    const ruled = applyCallRules(call, { boeExtract: null, sticky: true });
    const day = ruled.cutoffs[0]?.date ?? null;
    if (day && bdns.fechaFinSolicitud) {
      assert.equal(day, bdns.fechaFinSolicitud, `${id}: the document's deadline is BDNS's`);
      agreed++;
    }
  }
  // Every extract of a call with a stated end date agrees with it (15 of them, the hour too where BDNS
  // states one: "se iniciará el 14 de enero 2026 … y finalizará … del día 19 de febrero de 2026" is the
  // 19th); 873847's two extracts, "45 días hábiles a contar desde …", are computed from their own day,
  // and 885128's "treinta días" too: the same days BDNS's words give from the same extract.
  assert.equal(agreed, 15);
  const enaire = parseBoe(docs.find(([id]) => id === 'BOE-B-2026-3595')![1]).calls[0]!;
  assert.equal(applyCallRules(enaire, { boeExtract: null, sticky: true }).cutoffs[0]!.date, '2026-03-20');
  const dup = parseBoe(docs.find(([id]) => id === 'BOE-B-2025-46003')![1]).calls[0]!;
  assert.match(dup.deadline_text!, /45 días hábiles a contar desde/);
  assert.equal(applyCallRules(dup, { boeExtract: null, sticky: true }).cutoffs[0]!.date, '2026-02-18');
});

test('the deadline paragraph: the one naming the application period, with the next when it is only a heading', () => {
  assert.equal(
    deadlineParagraph([
      'Cuarto. Cuantía: 5.000 euros.',
      'Quinto. Presentación de solicitudes:',
      'Las solicitudes se presentarán en el plazo de 45 días hábiles.',
    ]),
    'Quinto. Presentación de solicitudes: Las solicitudes se presentarán en el plazo de 45 días hábiles.',
  );
  assert.equal(
    deadlineParagraph(['Quinto. Plazo de presentación de solicitudes: hasta el 25 de abril de 2024.']),
    'Quinto. Plazo de presentación de solicitudes: hasta el 25 de abril de 2024.',
  );
  assert.equal(deadlineParagraph(['Primero. Beneficiarios: asociaciones.']), null);
});

test('a document without its identifier, title or day is refused naming it', () => {
  const doc = (meta: string) =>
    `<?xml version="1.0"?><documento><metadatos>${meta}</metadatos><texto><p>x</p></texto></documento>`;
  const cases: Array<[string, RegExp]> = [
    [
      doc('<titulo>T</titulo><fecha_publicacion>20240206</fecha_publicacion>'),
      /^documento\.metadatos: identificador is missing/,
    ],
    [
      doc('<identificador>BOE-B-2024-1</identificador><fecha_publicacion>20240206</fecha_publicacion>'),
      /^documento BOE-B-2024-1: titulo is missing/,
    ],
    [
      doc(
        '<identificador>BOE-B-2024-1</identificador><titulo>T</titulo><fecha_publicacion>2024-13-45</fecha_publicacion>',
      ),
      /fecha_publicacion is not a date/,
    ],
  ];
  for (const [xml, expected] of cases)
    assert.throws(
      () => parseBoe(xml),
      (e: unknown) => e instanceof ImportFormatError && expected.test(e.message),
      String(expected),
    );
});

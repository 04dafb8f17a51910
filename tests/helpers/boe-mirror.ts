/**
 * BOE days assembled from real texts, for the sync tests' BOE server (./funding-sources.ts).
 *
 * The 71 real BDNS details (data/funding/bdns/convocatorias-detalle-…) list 22 BOE notices in their
 * anuncios[]: each with its real BOE id (cve), day, title and text, as BDNS mirrors them. No real
 * sumario or item document of those days is in the data, so this builds them in the BOE's formats:
 *  - a sumario per day (the open-data JSON tree: status, data.sumario.metadatos, diario, seccion 5B,
 *    departamento = the call's ministry as BDNS names it, item with identificador, titulo, url_xml);
 *  - an item document per notice (`<documento>` with metadatos, analisis tipo 63, texto), whose
 *    paragraphs are the mirrored text. BDNS's mirror drops the extract's first paragraph,
 *    "BDNS(Identif.):N", which real extracts carry (data/funding/boe/documento-BOE-B-2024-3994.xml;
 *    Ley 38/2003, art. 20.8.a): it is put back on the extracts, not on the voiding notice or the
 *    correction, whose real first lines are not known.
 * Everything else (ids, days, titles, texts, ministries) is as the sources published it. What is
 * assembled is the envelope, and it says so here, not in the records.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { noticeKind } from '../../lib/funding/notice-kind.ts';

const ROOT = join(import.meta.dirname, '..', '..');

interface Anuncio {
  cve: string | null;
  titulo: string | null;
  texto: string | null;
  datPublicacion: string | null;
}
interface Detail {
  codigoBDNS: string;
  organo: { nivel2: string | null };
  anuncios?: Anuncio[] | null;
}

export interface BoeDay {
  /** The sumario, as the open-data API answers with Accept: application/json. */
  sumario: string;
  /** BOE id → the item's document (xml.php?id=…). */
  documents: Map<string, string>;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The mirrored HTML as the document's paragraphs: tags inside a paragraph dropped, entities kept as text. */
function paragraphs(html: string): string[] {
  return html
    .split(/<\/p>/i)
    .map((p) =>
      p
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

function documentXml(a: Anuncio, bdnsId: string, department: string): string {
  const ymd = a.datPublicacion!.replaceAll('-', '');
  const lines = paragraphs(a.texto ?? '');
  if (noticeKind(a.titulo!) === 'call') lines.unshift(`BDNS(Identif.):${bdnsId}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<documento fecha_actualizacion="${ymd}071500">`,
    '  <metadatos>',
    `    <identificador>${a.cve}</identificador>`,
    `    <departamento>${xml(department)}</departamento>`,
    `    <titulo>${xml(a.titulo!)}</titulo>`,
    '    <diario codigo="BOE">Boletín Oficial del Estado</diario>',
    `    <fecha_publicacion>${ymd}</fecha_publicacion>`,
    '    <seccion>5</seccion>',
    '    <subseccion>B</subseccion>',
    '  </metadatos>',
    '  <analisis>',
    '    <tipo codigo="63">Subvenciones (SNPS)</tipo>',
    '  </analisis>',
    '  <texto>',
    ...lines.map((l) => `    <p class="parrafo">${xml(l)}</p>`),
    '  </texto>',
    '</documento>',
    '',
  ].join('\n');
}

const realDetails = () =>
  JSON.parse(
    readFileSync(join(ROOT, 'data', 'funding', 'bdns', 'convocatorias-detalle-20250116-20260715.json'), 'utf8'),
  ) as Detail[];

/** The BOE notices the real details mirror: their BOE id, day (YYYY-MM-DD) and call. */
export function mirroredBoeNotices(): Array<{ id: string; day: string; bdnsId: string }> {
  return realDetails().flatMap((d) =>
    (d.anuncios ?? [])
      .filter((a) => a.cve?.startsWith('BOE-') && a.datPublicacion)
      .map((a) => ({ id: a.cve!, day: a.datPublicacion!, bdnsId: d.codigoBDNS })),
  );
}

/** The BOE days the real BDNS details' anuncios name, keyed YYYYMMDD; documents at `documentUrl(id)`. */
export function boeDaysFromBdnsMirrors(documentUrl: (id: string) => string): Map<string, BoeDay> {
  const details = realDetails();
  const byDay = new Map<string, Array<{ a: Anuncio; bdnsId: string; department: string }>>();
  for (const d of details)
    for (const a of d.anuncios ?? []) {
      if (!a.cve?.startsWith('BOE-') || !a.datPublicacion || !a.titulo) continue;
      const ymd = a.datPublicacion.replaceAll('-', '');
      byDay.set(ymd, [...(byDay.get(ymd) ?? []), { a, bdnsId: d.codigoBDNS, department: d.organo.nivel2 ?? '' }]);
    }
  const days = new Map<string, BoeDay>();
  for (const [ymd, notices] of byDay) {
    const departments = [...new Set(notices.map((n) => n.department))];
    const sumario = {
      status: { code: '200', text: 'ok' },
      data: {
        sumario: {
          metadatos: { publicacion: 'BOE', fecha_publicacion: ymd },
          diario: [
            {
              seccion: [
                {
                  codigo: '5B',
                  nombre: 'V. Anuncios. - B. Otros anuncios oficiales',
                  departamento: departments.map((dep) => ({
                    nombre: dep,
                    item: notices
                      .filter((n) => n.department === dep)
                      .map(({ a }) => ({
                        identificador: a.cve,
                        titulo: a.titulo,
                        url_html: `https://www.boe.es/diario_boe/txt.php?id=${a.cve}`,
                        url_xml: documentUrl(a.cve!),
                      })),
                  })),
                },
              ],
            },
          ],
        },
      },
    };
    days.set(ymd, {
      sumario: JSON.stringify(sumario),
      documents: new Map(notices.map((n) => [n.a.cve!, documentXml(n.a, n.bdnsId, n.department)])),
    });
  }
  return days;
}

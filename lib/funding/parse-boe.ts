/**
 * BOE open-data sumario (JSON or XML, same tree) → the grant-call items of one day, each as a
 * NoticeRecord and as a CallRecord; the store decides whether the call is kept (it is not when a
 * BDNS call with the same BDNS id exists: the notice then just attaches to it).
 *
 * Sumario titles of real V-B extracts carry neither the BDNS number nor the deadline sentence: both are
 * in the item's own document, which this parser also reads (./parse-boe-document.ts) and whose address
 * it lists for the sync (`documents`, each item's `url_xml`).
 *
 * Traps: in JSON, diario, seccion, departamento, epigrafe and item can each be an object or an array;
 * a date can have several diario (extraordinary issues); items sit under an epigrafe or directly
 * under a departamento. The sumario has no structured deadline; a relative one stated in a title
 * ("quince días hábiles…") is kept as deadline_text.
 *
 * Which items are about grant calls: section III ("Otras disposiciones") items under a grant epigraph
 * (Subvenciones, Ayudas, Becas, Premios), or whose title convenes grants or awards them; section V-B
 * ("Otros anuncios oficiales") extracts ("Extracto de … por la que se convocan …"), their corrections,
 * notices about a grant call's extract (one voiding a duplicate publication), and any V-B item
 * carrying a BDNS id. Not all of them are calls: db/funding/import.ts classifies each
 * (lib/funding/notice-kind.ts) and keeps bases, corrections, modifications and award resolutions as
 * notices of the call they refer to, not as calls.
 */
import { BDNS_ID } from './notice-kind.ts';
import { parseBoeDocument } from './parse-boe-document.ts';
import { isAboutPerson } from './personal-data.ts';
import { asList, dayField, isObj, joinText, parseJson, text, type Obj } from './parse-util.ts';
import { ImportFormatError, spanishCall, type CallRecord, type NoticeRecord } from './records.ts';
import { parseXml, xmlToObject, XmlError, type XmlElement } from './xml.ts';

export interface BoeParse {
  date: string;
  notices: NoticeRecord[];
  calls: CallRecord[];
  /** A sumario's grant items and the address of each one's own document (`url_xml`), for the sync. */
  documents: Array<{ id: string; url: string }>;
}

const GRANT_EPIGRAPH = /subvenci|\bayudas?\b|\bbecas?\b|\bpremios?\b/i;
const CONVENES = /\bconvoca(?:n|toria|torias)?\b[\s\S]*\b(?:subvenci|ayudas?\b|becas?\b|premios?\b)/i;
const AWARD =
  /por la que se (?:conceden|resuelven?|adjudican|publica(?:n)? la (?:concesi[oó]n|resoluci[oó]n|relaci[oó]n))/i;
const EXTRACT = /^(?:extracto|correcci[oó]n de errores)\b[\s\S]*\bconvoca/i;
// A notice about an extract that is not one: "Anuncio por el que se deja sin efecto la publicación del
// extracto de la Orden … por la que se convocan ayudas" (the real BOE-B-2025-46495 voids a duplicate).
const ABOUT_EXTRACT = /\bextracto\b[\s\S]*\bconvoca/i;
const GRANTS = /subvenci|\bayudas?\b|\bbecas?\b|\bpremios?\b/i;
const RELATIVE_DEADLINE =
  /\b(?:\d+|un|una|dos|tres|cinco|diez|quince|veinte|treinta|cuarenta y cinco)\s+(?:días|mes|meses)(?:\s+(?:hábiles|naturales))?[^.;]*/i;

/** Where an item's own document is, when a sumario item does not say (it always does in real ones). */
const DOCUMENT_URL = 'https://www.boe.es/diario_boe/xml.php?id=';

/** Is this sumario item a grant call? (rules in the header comment) */
export function isGrantCall(sectionCode: string | null, epigraph: string | null, title: string): boolean {
  const code = (sectionCode ?? '').toUpperCase();
  if (code === '3')
    return GRANT_EPIGRAPH.test(epigraph ?? '') || CONVENES.test(title) || (AWARD.test(title) && GRANTS.test(title));
  if (code === '5B')
    return EXTRACT.test(title) || (ABOUT_EXTRACT.test(title) && GRANTS.test(title)) || BDNS_ID.test(title);
  return false;
}

/** The file as the BOE's JSON tree, or an item document's XML root. */
function load(fileText: string): { tree: Obj } | { document: XmlElement } {
  const s = fileText.replace(/^\uFEFF/, '').trimStart();
  let doc: unknown;
  if (s.startsWith('<')) {
    let root: XmlElement;
    try {
      root = parseXml(s);
    } catch (e) {
      if (e instanceof XmlError) throw new ImportFormatError('file', `not well-formed XML (${e.message})`);
      throw e;
    }
    if (root.name === 'documento') return { document: root };
    doc = xmlToObject(root);
  } else {
    doc = parseJson(s, 'file');
  }
  const root = isObj(doc) && isObj(doc.response) ? doc.response : doc;
  if (!isObj(root)) throw new ImportFormatError('file', 'not a BOE sumario');
  return { tree: root };
}

function url(v: unknown): string | null {
  return isObj(v) ? text(v.texto) : text(v);
}

interface Place {
  section: string | null;
  sectionCode: string | null;
  department: string | null;
  epigraph: string | null;
}

/** A BOE sumario (JSON or XML) or one item document (XML, ./parse-boe-document.ts). */
export function parseBoe(fileText: string): BoeParse {
  const loaded = load(fileText);
  if ('document' in loaded) {
    const { date, notice, call } = parseBoeDocument(loaded.document);
    return { date, notices: [notice], calls: [call], documents: [] };
  }
  const root = loaded.tree;
  if (isObj(root.status)) {
    const code = text(root.status.code);
    if (code !== '200')
      throw new ImportFormatError('status', `the BOE answered ${code ?? '?'} ${text(root.status.text) ?? ''}`.trim());
  }
  const sumario = isObj(root.data) ? root.data.sumario : undefined;
  if (!isObj(sumario)) throw new ImportFormatError('data.sumario', 'is missing: not a BOE sumario');
  const metadatos = isObj(sumario.metadatos) ? sumario.metadatos : {};
  const date = dayField(metadatos.fecha_publicacion, 'data.sumario.metadatos', 'fecha_publicacion');
  if (!date) throw new ImportFormatError('data.sumario.metadatos', 'fecha_publicacion is missing');

  const out: BoeParse = { date, notices: [], calls: [], documents: [] };
  const seen = new Set<string>();
  const visit = (items: unknown, path: string, place: Place) => {
    asList(items).forEach((item, n) => {
      const at = `${path}.item[${n}]`;
      if (!isObj(item)) throw new ImportFormatError(at, 'not an item object');
      const id = text(item.identificador);
      if (!id) throw new ImportFormatError(at, 'identificador is missing');
      const record = `${at} (identificador ${id})`;
      const title = text(item.titulo);
      if (!title) throw new ImportFormatError(record, 'titulo is missing');
      if (seen.has(id) || !isGrantCall(place.sectionCode, place.epigraph, title)) return;
      seen.add(id);
      take(out, date, id, title, url(item.url_html) ?? url(item.url_pdf), place);
      out.documents.push({ id, url: url(item.url_xml) ?? `${DOCUMENT_URL}${encodeURIComponent(id)}` });
    });
  };
  asList(sumario.diario).forEach((diario, d) => {
    if (!isObj(diario)) throw new ImportFormatError(`diario[${d}]`, 'not an object');
    asList(diario.seccion).forEach((sec, s) => {
      if (!isObj(sec)) throw new ImportFormatError(`diario[${d}].seccion[${s}]`, 'not an object');
      const path = `diario[${d}].seccion[${s}]`;
      const base: Place = {
        section: text(sec.nombre) ?? text(sec.codigo),
        sectionCode: text(sec.codigo),
        department: null,
        epigraph: null,
      };
      visit(sec.item, path, base);
      asList(sec.departamento).forEach((dep, k) => {
        if (!isObj(dep)) throw new ImportFormatError(`${path}.departamento[${k}]`, 'not an object');
        const depPath = `${path}.departamento[${k}]`;
        const place = { ...base, department: text(dep.nombre) };
        visit(dep.item, depPath, place);
        asList(dep.epigrafe).forEach((ep, e) => {
          if (!isObj(ep)) throw new ImportFormatError(`${depPath}.epigrafe[${e}]`, 'not an object');
          visit(ep.item, `${depPath}.epigrafe[${e}]`, { ...place, epigraph: text(ep.nombre) });
        });
      });
    });
  });
  return out;
}

function take(out: BoeParse, date: string, id: string, title: string, link: string | null, place: Place): void {
  const bdnsId = BDNS_ID.exec(title)?.[1] ?? null;
  const personal = isAboutPerson({ title });
  out.notices.push({
    source_id: id,
    bdns_id: bdnsId,
    title,
    url: link,
    published_on: date,
    section: place.section,
    department: place.department,
    personal_data: personal,
  });
  out.calls.push({
    ...spanishCall('boe', id, title),
    body: joinText([place.section, place.department, place.epigraph]),
    funder: place.department,
    url: link,
    published_on: date,
    deadline_text: RELATIVE_DEADLINE.exec(title)?.[0].trim() ?? null,
    bdns_id: bdnsId,
    personal_data: personal,
  });
}

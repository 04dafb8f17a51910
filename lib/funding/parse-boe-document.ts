/**
 * A BOE item document (`GET https://www.boe.es/diario_boe/xml.php?id=BOE-B-…`, the `url_xml` each
 * sumario item links) → the item as a notice and as a call, like a sumario item but with what only
 * the document holds. The real V-B grant extracts (data/funding/boe/) carry neither the BDNS number nor
 * the deadline in their title; both are in the text:
 *  - the BDNS id is the first paragraph, "BDNS(Identif.):742455" (no spaces);
 *  - the deadline is the "Plazo de presentación de solicitudes" paragraph ("Quinto. Plazo …: … finalizará
 *    a las 14:00 horas del 25 de abril de 2024", or "quince días hábiles desde el día siguiente al de la
 *    publicación de este extracto"), sometimes a heading whose sentence is the next paragraph;
 *  - the text itself (beneficiaries, object, amount) is what a grant seeker searches.
 * A stated day (and hour) becomes the cut-off; a relative period is kept as deadline_text, and the data
 * rules compute it from this document's own publication (lib/funding/call-rules.ts). The body starts
 * with the section and department as the sumario writes them, so a sumario read after the document
 * keeps the document's richer text (lib/funding/merge.ts).
 */
import { closingDay, closingTime } from './deadline-prose.ts';
import { BDNS_ID } from './notice-kind.ts';
import { dayField, joinText, text } from './parse-util.ts';
import { isAboutPerson } from './personal-data.ts';
import { ImportFormatError, spanishCall, type CallRecord, type NoticeRecord } from './records.ts';
import { readRelativePeriod } from './relative-deadline.ts';
import type { XmlElement } from './xml.ts';

/** The sumario's names of the sections an item document gives as codes (seccion 5, subseccion B). */
const SECTIONS: Record<string, string> = {
  '1': 'I. Disposiciones generales',
  '2A': 'II. Autoridades y personal. - A. Nombramientos, situaciones e incidencias',
  '2B': 'II. Autoridades y personal. - B. Oposiciones y concursos',
  '3': 'III. Otras disposiciones',
  '4': 'IV. Administración de Justicia',
  '5A': 'V. Anuncios. - A. Contratación del Sector Público',
  '5B': 'V. Anuncios. - B. Otros anuncios oficiales',
  '5C': 'V. Anuncios. - C. Anuncios particulares',
};

const DEADLINE_HEADING =
  /\bplazo (?:de|para la) (?:presentaci[oó]n|solicitud)|\bpresentaci[oó]n de (?:las )?solicitudes\b|\bplazo de solicitud/i;

const ORDINAL =
  /^(?:primer[oa]?|segund[oa]|tercer[oa]?|cuart[oa]|quint[oa]|sext[oa]|s[eé]ptim[oa]|octav[oa]|noven[oa]|d[eé]cim[oa])\b/i;

/**
 * The deadline paragraph: the one naming the application period. When it is only a heading ("Quinto.
 * Presentación de solicitudes:"), the sentence is among the paragraphs of its section: the first that
 * states a period or a day, else the first that speaks of the "plazo". The real BOE-B-2025-46003 puts a
 * paragraph on the form of the application first, and its sentence lacks the very word: "Las
 * solicitudes se presentarán en el de 45 días hábiles a contar desde…" (its corrected twin, -46004, has it).
 */
export function deadlineParagraph(paragraphs: string[]): string | null {
  const at = paragraphs.findIndex((p) => DEADLINE_HEADING.test(p));
  if (at === -1) return null;
  const p = paragraphs[at]!;
  // "Quinto. Plazo de presentación de solicitudes:" (or "." or nothing): a heading, its sentence below.
  if (!(p.length < 90 && !/\d/.test(p))) return p;
  const section: string[] = [];
  for (const q of paragraphs.slice(at + 1)) {
    if (ORDINAL.test(q)) break;
    section.push(q);
  }
  const states = (q: string) => readRelativePeriod(q) !== null || closingDay(q) !== null;
  const sentence = section.find(states) ?? section.find((q) => /\bplazo\b/i.test(q)) ?? section[0];
  return sentence ? `${p} ${sentence}` : p;
}

const child = (el: XmlElement | undefined, name: string) => el?.children.find((c) => c.name === name);
const field = (el: XmlElement | undefined, name: string) => text(child(el, name)?.content);

export interface BoeDocument {
  date: string;
  notice: NoticeRecord;
  call: CallRecord;
}

export function parseBoeDocument(root: XmlElement): BoeDocument {
  const meta = child(root, 'metadatos');
  const id = field(meta, 'identificador');
  if (!id) throw new ImportFormatError('documento.metadatos', 'identificador is missing');
  const record = `documento ${id}`;
  const title = field(meta, 'titulo');
  if (!title) throw new ImportFormatError(record, 'titulo is missing');
  const date = dayField(field(meta, 'fecha_publicacion'), record, 'fecha_publicacion');
  if (!date) throw new ImportFormatError(record, 'fecha_publicacion is missing');
  const paragraphs = (child(root, 'texto')?.children ?? [])
    .map((p) => text(p.content))
    .filter((p): p is string => p !== null);
  const body = paragraphs.join(' ');
  const bdnsId = BDNS_ID.exec(body.slice(0, 2000))?.[1] ?? BDNS_ID.exec(title)?.[1] ?? null;
  const department = field(meta, 'departamento');
  const section = SECTIONS[`${field(meta, 'seccion') ?? ''}${field(meta, 'subseccion') ?? ''}`] ?? null;
  const url = `https://www.boe.es/diario_boe/txt.php?id=${encodeURIComponent(id)}`;
  const sentence = deadlineParagraph(paragraphs);
  // A relative period counts from a publication (often this one); a day stated outright is the date.
  const day = sentence && !readRelativePeriod(sentence) ? closingDay(sentence) : null;
  const personal = isAboutPerson({ title });
  const notice: NoticeRecord = {
    source_id: id,
    bdns_id: bdnsId,
    title,
    url,
    published_on: date,
    section,
    department,
    personal_data: personal,
  };
  const call: CallRecord = {
    ...spanishCall('boe', id, title),
    body: joinText([section, department, body]),
    funder: department,
    url,
    published_on: date,
    cutoffs: day ? [{ date: day, time: closingTime(day, sentence) }] : [],
    deadline_text: day ? null : sentence,
    bdns_id: bdnsId,
    personal_data: personal,
  };
  return { date, notice, call };
}

/**
 * BDNS (infosubvenciones.es) JSON → CallRecord[], from the two shapes the API returns:
 *  (a) convocatorias/busqueda: a Spring Page {content:[…], totalElements, …}; items carry no deadline,
 *      so a list record gives title, publication day and funder only and leaves every other field
 *      null (the store never lets a null overwrite what a detail read filled);
 *  (b) convocatorias?numConv=N: one detail object, or a file holding an array of them.
 * The error the API returns inside a 200 ({codigo, error}) is refused as a format error.
 * The application-period block (fechaInicio/FinSolicitud, textInicio/Fin) vanishes from some reads:
 * when it is absent the record has no cut-offs and no deadline_text, and the store keeps what it had.
 *
 * Status comes from the dates, never from `abierto`: on the 71 real details `abierto` is true only on
 * open-ended calls with no period at all, and false on 12 calls whose window was running when they
 * were read (data/funding/bdns/SOURCE.md). source_status stays null; lib/funding/status.ts decides.
 *
 * The period: fechaInicioSolicitud / fechaFinSolicitud are ISO days without a time (never DD/MM/YYYY
 * in a real response). The closing hour, when there is one, is only in textFin ("hasta las 12:00
 * horas, hora peninsular, del día 10 de febrero de 2026"): it is taken when textFin names no other
 * day. Without dates, textInicio / textFin are prose in Spanish or Catalan (./deadline-prose.ts): a
 * day stated there ("31/03/26", "Finaliza el 15 de septiembre de 2026") is the date; a relative period
 * ("15 Dies Hàbils", "45 días hábiles a contar desde … la publicación del extracto en el BOE") is kept
 * as deadline_text with textInicio as opening_text, for the data rules to compute
 * (./relative-deadline.ts); "Sin plazo de solicitud" is kept as words.
 *
 * anuncios[]: the call's bulletin publications (BOE, DOGC, BOP…), with their day. They are the
 * publications a relative period counts from (`publications`, corrections and modifications left
 * out), and each BOE one (`cve` BOE-B-…) is a notice linked to this call by its BDNS id: the BOE
 * extract of the call, even before the BOE sumario is imported.
 *
 * Who may apply: `tiposBeneficiarios` (BDNS's four categories) as `applicant_terms`. Amounts:
 * `presupuestoTotal` (euros) is the budget; BDNS states no per-grant ceiling in a detail.
 *
 * Personal data: calls are about programmes, and tiposBeneficiarios "PERSONAS FÍSICAS" says who may
 * apply, which is not personal data. A call is flagged by the one rule of ./personal-data.ts over
 * its title, summary and body, the same for a list item (descripcionLeng as its body) and a detail;
 * db/funding/import.ts applies the rule again to the merged record on every import path.
 */
import { isAboutPerson } from './personal-data.ts';
import { amount, asList, dayField, isObj, joinText, parseJson, text, type Obj } from './parse-util.ts';
import { closingDay, closingTime, statedDay } from './deadline-prose.ts';
import { noticeKind } from './notice-kind.ts';
import { readRelativePeriod } from './relative-deadline.ts';
import { ImportFormatError, spanishCall, type CallRecord, type NoticeRecord, type Publication } from './records.ts';

const CALL_URL = 'https://www.infosubvenciones.es/bdnstrans/GE/es/convocatorias/';

export interface BdnsParse {
  format: 'list' | 'detail';
  calls: CallRecord[];
  /** The BOE notices the details list in anuncios[] (each with its call's BDNS id). */
  notices: NoticeRecord[];
}

export function parseBdns(fileText: string): BdnsParse {
  const data = parseJson(fileText, 'file');
  if (isObj(data) && 'codigo' in data && 'error' in data) {
    throw new ImportFormatError(
      'response',
      `BDNS answered an error: ${text(data.codigo) ?? '?'} ${text(data.error) ?? ''}`.trim(),
    );
  }
  if (isObj(data) && Array.isArray(data.content)) {
    return { format: 'list', calls: data.content.map((item, i) => listItem(item, `content[${i}]`)), notices: [] };
  }
  const details: Array<[Obj, string]> | null =
    isObj(data) && ('codigoBDNS' in data || 'organo' in data)
      ? [[data, 'convocatoria']]
      : Array.isArray(data) && data.length > 0
        ? data.map((d, i) => {
            if (!isObj(d)) throw new ImportFormatError(`[${i}]`, 'not a convocatoria detail object');
            return [d, `[${i}]`];
          })
        : null;
  if (details) {
    const read = details.map(([d, at]) => detail(d, at));
    return { format: 'detail', calls: read.map((r) => r.call), notices: read.flatMap((r) => r.notices) };
  }
  throw new ImportFormatError('file', 'neither a BDNS convocatorias/busqueda page nor a convocatoria detail');
}

function baseCall(id: string, title: string): CallRecord {
  return { ...spanishCall('bdns', id, title), url: CALL_URL + encodeURIComponent(id), bdns_id: id };
}

/** The granting body: ministry or regional department, with its unit (nivel1 is only the tier). */
function funder(n1: unknown, n2: unknown, n3: unknown): string | null {
  return joinText([text(n2), text(n3)], ' – ') ?? text(n1);
}

function identity(at: string, id: unknown, title: unknown): { id: string; title: string; record: string } {
  const code = text(id);
  if (!code || !/^\d+$/.test(code))
    throw new ImportFormatError(
      at,
      `numeroConvocatoria/codigoBDNS is missing or not a number (${JSON.stringify(id ?? null)})`,
    );
  const record = `${at} (BDNS ${code})`;
  const t = text(title);
  if (!t) throw new ImportFormatError(record, 'descripcion (the title) is missing');
  return { id: code, title: t, record };
}

function listItem(item: unknown, at: string): CallRecord {
  if (!isObj(item)) throw new ImportFormatError(at, 'not an object');
  const { id, title, record } = identity(at, item.numeroConvocatoria ?? item.codigoBDNS, item.descripcion);
  const call = baseCall(id, title);
  call.published_on = dayField(item.fechaRecepcion, record, 'fechaRecepcion');
  call.funder = funder(item.nivel1, item.nivel2, item.nivel3);
  // nivel1 is the tier (ESTADO, AUTONOMICA, LOCAL, OTROS); a regional body's nivel2 is its community.
  if (text(item.nivel1) === 'AUTONOMICA') call.region = text(item.nivel2);
  call.body = text(item.descripcionLeng);
  call.personal_data = isAboutPerson(call);
  return call;
}

/** Catalogue entries arrive as {descripcion} objects or as plain strings ("ES511 - Barcelona"). */
function descriptions(v: unknown): string[] {
  return asList(v)
    .map((x) => (isObj(x) ? text(x.descripcion) : text(x)))
    .filter((x): x is string => x !== null);
}

const BOE_CVE = /^BOE-[AB]-\d{4}-\d+$/;

/** anuncios[]: the call's publications, and its BOE notices (a BOE-B cve is the BOE identifier). */
function announcements(d: Obj, id: string, record: string): { publications: Publication[]; notices: NoticeRecord[] } {
  const publications: Publication[] = [];
  const notices: NoticeRecord[] = [];
  asList(d.anuncios).forEach((a, i) => {
    if (!isObj(a)) throw new ImportFormatError(`${record}.anuncios[${i}]`, 'not an object');
    const date = dayField(a.datPublicacion, `${record}.anuncios[${i}]`, 'datPublicacion');
    if (!date) return;
    const cve = text(a.cve);
    const bulletin = text(a.desDiarioOficial);
    const title = text(a.titulo);
    // A correction or modification of the extract is not what a period counts from.
    const kind = title ? noticeKind(title) : 'other';
    if (kind === 'call' || kind === 'other')
      publications.push({
        date,
        id: cve ?? `${bulletin ?? 'bulletin'} (BDNS anuncio ${text(a.numAnuncio) ?? i})`,
        bulletin,
      });
    if (cve && BOE_CVE.test(cve) && title)
      notices.push({
        source_id: cve,
        bdns_id: id,
        title,
        url: `https://www.boe.es/diario_boe/txt.php?id=${cve}`,
        published_on: date,
        section: null,
        department: null,
        personal_data: false,
      });
  });
  publications.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { publications, notices };
}

/** A day the prose states (the closing one for textFin), unless it is a relative period (its days name other acts). */
function proseDay(prose: string | null, start: string | null, read: (p: string) => string | null): string | null {
  return prose && !readRelativePeriod(prose, start) ? read(prose) : null;
}

function detail(d: Obj, at: string): { call: CallRecord; notices: NoticeRecord[] } {
  const { id, title, record } = identity(at, d.codigoBDNS ?? d.numeroConvocatoria, d.descripcion);
  const call = baseCall(id, title);
  const organo = isObj(d.organo) ? d.organo : {};
  call.funder = funder(organo.nivel1, organo.nivel2, organo.nivel3);
  call.published_on = dayField(d.fechaRecepcion, record, 'fechaRecepcion');
  call.summary = text(d.descripcionFinalidad);
  // tipoConvocatoria ("Concesión directa - instrumental") is kept in the body: the personal-data rule
  // reads it wherever the record is re-read (a direct grant "a <name>" names its beneficiary).
  call.body = joinText([
    text(d.descripcionLeng),
    ...descriptions(d.tiposBeneficiarios),
    ...descriptions(d.sectores),
    ...descriptions(d.instrumentos),
    text(d.descripcionBasesReguladoras),
    text(d.tipoConvocatoria),
  ]);
  call.region = joinText(descriptions(d.regiones), '; ');
  call.budget = amount(d.presupuestoTotal, record, 'presupuestoTotal');
  call.currency = call.budget === null ? null : 'EUR';
  // Who may apply, in BDNS's words (lib/funding/applicants.ts maps them); also in the body, for search.
  call.applicant_terms = [...new Set(descriptions(d.tiposBeneficiarios))];
  // The period block (may be absent on a read: then nothing here is set).
  const startText = text(d.textInicio);
  const endText = text(d.textFin);
  call.opening_on =
    dayField(d.fechaInicioSolicitud, record, 'fechaInicioSolicitud') ?? proseDay(startText, null, statedDay);
  const closing =
    dayField(d.fechaFinSolicitud, record, 'fechaFinSolicitud') ?? proseDay(endText, startText, closingDay);
  call.cutoffs = closing ? [{ date: closing, time: closingTime(closing, endText) }] : [];
  call.deadline_text = closing ? null : endText;
  call.opening_text = call.opening_on || closing ? null : startText;
  const { publications, notices } = announcements(d, id, record);
  call.publications = publications;
  call.personal_data = isAboutPerson(call);
  return { call, notices };
}

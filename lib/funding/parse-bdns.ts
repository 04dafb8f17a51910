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
 * source_status: abierto true → open; false → closed, or forthcoming when the application window
 * opens after `now` (in Madrid). A missing abierto leaves it null.
 *
 * Personal data: calls are about programmes, and tiposBeneficiarios "PERSONAS FÍSICAS" says who may
 * apply, which is not personal data. A call is flagged by the one rule of ./personal-data.ts over
 * its title, summary and body, the same for a list item (descripcionLeng as its body) and a detail;
 * db/funding/import.ts applies the rule again to the merged record on every import path.
 */
import { isAboutPerson } from './personal-data.ts';
import { amount, asList, dayField, isObj, joinText, parseJson, text, type Obj } from './parse-util.ts';
import { ImportFormatError, type CallRecord } from './records.ts';
import { toLocal } from './zoned-time.ts';

const CALL_URL = 'https://www.infosubvenciones.es/bdnstrans/GE/es/convocatorias/';

export interface BdnsParse {
  format: 'list' | 'detail';
  calls: CallRecord[];
}

/** `now` (UTC ms) only tells a not-yet-open call (abierto false, window ahead) from a closed one. */
export function parseBdns(fileText: string, now?: number): BdnsParse {
  const data = parseJson(fileText, 'file');
  if (isObj(data) && 'codigo' in data && 'error' in data) {
    throw new ImportFormatError(
      'response',
      `BDNS answered an error: ${text(data.codigo) ?? '?'} ${text(data.error) ?? ''}`.trim(),
    );
  }
  if (isObj(data) && Array.isArray(data.content)) {
    return { format: 'list', calls: data.content.map((item, i) => listItem(item, `content[${i}]`)) };
  }
  if (isObj(data) && ('codigoBDNS' in data || 'organo' in data))
    return { format: 'detail', calls: [detail(data, 'convocatoria', now)] };
  if (Array.isArray(data) && data.length > 0) {
    return {
      format: 'detail',
      calls: data.map((d, i) => {
        if (!isObj(d)) throw new ImportFormatError(`[${i}]`, 'not a convocatoria detail object');
        return detail(d, `[${i}]`, now);
      }),
    };
  }
  throw new ImportFormatError('file', 'neither a BDNS convocatorias/busqueda page nor a convocatoria detail');
}

function baseCall(id: string, title: string): CallRecord {
  return {
    source: 'bdns',
    source_id: id,
    title,
    summary: null,
    body: null,
    funder: null,
    programme: null,
    country: 'ES',
    region: null,
    url: CALL_URL + encodeURIComponent(id),
    published_on: null,
    opening_on: null,
    cutoffs: [],
    deadline_text: null,
    time_zone: 'Europe/Madrid',
    budget: null,
    currency: null,
    language: 'es',
    source_status: null,
    bdns_id: id,
    personal_data: false,
  };
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

function detail(d: Obj, at: string, now: number | undefined): CallRecord {
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
  // The period block (may be absent on a read: then nothing here is set).
  call.opening_on = dayField(d.fechaInicioSolicitud, record, 'fechaInicioSolicitud');
  // abierto means "open now": false is also what a call whose window has not opened yet says.
  const ahead = now !== undefined && call.opening_on !== null && call.opening_on > toLocal(now, call.time_zone).date;
  call.source_status = d.abierto === true ? 'open' : d.abierto === false ? (ahead ? 'forthcoming' : 'closed') : null;
  const end = dayField(d.fechaFinSolicitud, record, 'fechaFinSolicitud');
  call.cutoffs = end ? [{ date: end, time: null }] : [];
  call.deadline_text = end ? null : text(d.textFin);
  call.personal_data = isAboutPerson(call);
  return call;
}

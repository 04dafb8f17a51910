/**
 * Turns the console's delivery form (multipart: answer fields, confidence, note, position, files) into
 * a Delivery for db/human/work.ts. Pure. Every refusal is a 400 naming what to fix; file types are
 * decided by their bytes (uploads.ts), and an empty file input (no file chosen) is skipped.
 */
import { resultFields } from './capabilities.ts';
import { invalidRequest } from './errors.ts';
import type { Part } from './multipart.ts';
import { MAX_FILE_BYTES, MAX_FILES, sniffMediaType, type EvidenceMediaType } from './uploads.ts';

/** Field names of the form, so the page and the parser agree. */
export const FORM = {
  answer: (name: string) => `answer.${name}`,
  confidence: 'confidence',
  note: 'note',
  files: 'files',
  latitude: 'latitude',
  longitude: 'longitude',
  accuracy: 'accuracy_m',
  csrf: 'csrf',
};

export function fieldValue(parts: Part[], name: string): string | null {
  const found = parts.filter((p) => p.name === name && p.filename === null);
  if (found.length > 1) throw invalidRequest(`The field ${name} was sent more than once.`, name);
  return found.length ? found[0]!.data.toString('utf8') : null;
}

export function readDelivery(capability: string, parts: Part[]): Delivery {
  const answer: Record<string, unknown> = {};
  for (const field of resultFields(capability)) {
    const raw = fieldValue(parts, FORM.answer(field.name));
    if (raw === null || raw === '') continue; // the result schema says whether it was required
    answer[field.name] = field.kind === 'yesno' ? (raw === 'yes' ? true : raw === 'no' ? false : raw) : raw;
  }
  const confidenceText = fieldValue(parts, FORM.confidence) ?? '';
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(confidenceText.trim()) || Number(confidenceText) > 100) {
    throw invalidRequest('Give your confidence as a percentage from 0 to 100.', 'confidence');
  }
  const note = (fieldValue(parts, FORM.note) ?? '').trim();
  if (note.length > 4000) throw invalidRequest('The note has at most 4000 characters.', 'note');

  const files: UploadedFile[] = [];
  for (const part of parts.filter((p) => p.name === FORM.files && p.filename !== null)) {
    if (part.data.length === 0 && part.filename === '') continue;
    const name = part.filename || 'upload';
    if (part.data.length === 0) throw invalidRequest(`The file ${name} is empty.`, 'files');
    if (part.data.length > MAX_FILE_BYTES)
      throw invalidRequest(`The file ${name} is larger than ${MAX_FILE_BYTES / 1_048_576} MiB.`, 'files');
    const mediaType = sniffMediaType(part.data);
    if (!mediaType)
      throw invalidRequest(`The file ${name} is not a JPEG, PNG or WebP photo or a PDF document.`, 'files');
    files.push({ bytes: part.data, mediaType, filename: name.slice(0, 200) });
  }
  if (files.length > MAX_FILES) throw invalidRequest(`At most ${MAX_FILES} files per delivery.`, 'files');

  return {
    answer,
    confidenceBps: Math.round(Number(confidenceText) * 100),
    note: note || null,
    files,
    reported: position(parts),
  };
}

function position(parts: Part[]): Delivery['reported'] {
  const lat = (fieldValue(parts, FORM.latitude) ?? '').trim();
  const lon = (fieldValue(parts, FORM.longitude) ?? '').trim();
  const acc = (fieldValue(parts, FORM.accuracy) ?? '').trim();
  if (lat === '' && lon === '') return null;
  const latitude = Number(lat);
  const longitude = Number(lon);
  if (
    lat === '' ||
    lon === '' ||
    !Number.isFinite(latitude) ||
    !Number.isFinite(longitude) ||
    Math.abs(latitude) > 90 ||
    Math.abs(longitude) > 180
  ) {
    throw invalidRequest(
      'Give both latitude (−90 to 90) and longitude (−180 to 180) in decimal degrees, or neither.',
      'latitude',
    );
  }
  const accuracyM = acc === '' ? null : Number(acc);
  if (accuracyM !== null && (!Number.isFinite(accuracyM) || accuracyM < 0 || accuracyM > 100_000))
    throw invalidRequest('Accuracy is a distance in metres.', 'accuracy_m');
  return { latitude, longitude, accuracyM };
}

export interface UploadedFile {
  bytes: Buffer;
  mediaType: EvidenceMediaType;
  filename: string | null;
}

export interface Delivery {
  answer: Record<string, unknown>;
  confidenceBps: number;
  note: string | null;
  files: UploadedFile[];
  /** Where the person says they were, when the photos carry no position. */
  reported: { latitude: number; longitude: number; accuracyM: number | null } | null;
}

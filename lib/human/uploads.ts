/**
 * Evidence uploads: what the console accepts and how a file's type is decided. The type comes from
 * the file's first bytes, never from the name or the browser's Content-Type, so a renamed file is
 * still refused. Limits (documented in docs/human.md and on the delivery page): JPEG, PNG or WebP
 * photos and PDF documents, at most MAX_FILE_BYTES each and MAX_FILES per delivery.
 */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_FILES = 4;
/** The delivery form's whole body: the files plus room for the fields and the multipart framing. */
export const MAX_UPLOAD_BODY_BYTES = MAX_FILES * MAX_FILE_BYTES + 256 * 1024;

export type EvidenceMediaType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

export function sniffMediaType(bytes: Buffer): EvidenceMediaType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (bytes.length >= 5 && bytes.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

export const isPhoto = (t: EvidenceMediaType) => t !== 'application/pdf';

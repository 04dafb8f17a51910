/**
 * Reads when and where a JPEG photo was taken from its EXIF block: GPS position (and its stated
 * accuracy), and the capture time when the file says which zone it is in (GPS date and time are UTC;
 * DateTimeOriginal counts only with OffsetTimeOriginal, since a local time of unknown zone could be
 * off by a day). Never throws: a damaged or absent block yields what could be read, often nothing.
 *
 * Layout (EXIF 2.32 / TIFF 6): JPEG segments FF xx + 16-bit length; APP1 (FF E1) starting "Exif\0\0"
 * holds a TIFF header (II little-endian or MM big-endian, 42, offset of IFD0); an IFD is a 16-bit
 * count of 12-byte entries (tag, type, count, value or offset). IFD0 points to the Exif IFD (0x8769)
 * and the GPS IFD (0x8825).
 */

export interface PhotoFacts {
  capturedAt?: number;
  latitude?: number;
  longitude?: number;
  accuracyM?: number;
}

const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

export function readExif(jpeg: Buffer): PhotoFacts {
  try {
    const tiff = findTiff(jpeg);
    return tiff ? readTiff(tiff) : {};
  } catch {
    return {};
  }
}

function findTiff(b: Buffer): Buffer | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= b.length && b[at] === 0xff) {
    const marker = b[at + 1]!;
    if (marker === 0xda || marker === 0xd9) return null; // image data or end: no EXIF before it
    const length = b.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > b.length) return null;
    if (marker === 0xe1 && length >= 16 && b.toString('latin1', at + 4, at + 10) === 'Exif\0\0')
      return b.subarray(at + 10, at + 2 + length);
    at += 2 + length;
  }
  return null;
}

interface Entry {
  type: number;
  count: number;
  valueAt: number;
}

function readTiff(t: Buffer): PhotoFacts {
  const little = t.toString('latin1', 0, 2) === 'II';
  if (!little && t.toString('latin1', 0, 2) !== 'MM') return {};
  const u16 = (o: number) => (little ? t.readUInt16LE(o) : t.readUInt16BE(o));
  const u32 = (o: number) => (little ? t.readUInt32LE(o) : t.readUInt32BE(o));
  if (u16(2) !== 42) return {};

  const ifd = (offset: number): Map<number, Entry> => {
    const out = new Map<number, Entry>();
    if (offset + 2 > t.length) return out;
    const n = Math.min(u16(offset), 512);
    for (let i = 0; i < n; i++) {
      const e = offset + 2 + i * 12;
      if (e + 12 > t.length) break;
      const type = u16(e + 2);
      const count = u32(e + 4);
      const size = (TYPE_SIZES[type] ?? 0) * count;
      const valueAt = size <= 4 ? e + 8 : u32(e + 8);
      if (size > 0 && valueAt + size <= t.length) out.set(u16(e), { type, count, valueAt });
    }
    return out;
  };
  const ascii = (e: Entry | undefined) =>
    e && e.type === 2 ? t.toString('latin1', e.valueAt, e.valueAt + e.count).replace(/\0+$/, '') : undefined;
  const rationals = (e: Entry | undefined): number[] | undefined => {
    if (!e || e.type !== 5) return undefined;
    const out: number[] = [];
    for (let i = 0; i < e.count; i++) {
      const den = u32(e.valueAt + i * 8 + 4);
      out.push(den === 0 ? NaN : u32(e.valueAt + i * 8) / den);
    }
    return out;
  };
  const pointer = (entries: Map<number, Entry>, tag: number) => {
    const e = entries.get(tag);
    return e && (e.type === 4 || e.type === 13) ? u32(e.valueAt) : undefined;
  };

  const facts: PhotoFacts = {};
  const ifd0 = ifd(u32(4));
  const gpsAt = pointer(ifd0, 0x8825);
  if (gpsAt !== undefined) {
    const gps = ifd(gpsAt);
    const degrees = (v: number[] | undefined) =>
      v && v.length === 3 && v.every(Number.isFinite) ? v[0]! + v[1]! / 60 + v[2]! / 3600 : undefined;
    const lat = degrees(rationals(gps.get(2)));
    const lon = degrees(rationals(gps.get(4)));
    const latRef = ascii(gps.get(1));
    const lonRef = ascii(gps.get(3));
    if (
      lat !== undefined &&
      lon !== undefined &&
      lat <= 90 &&
      lon <= 180 &&
      (latRef === 'N' || latRef === 'S') &&
      (lonRef === 'E' || lonRef === 'W')
    ) {
      facts.latitude = Math.round((latRef === 'S' ? -lat : lat) * 1e6) / 1e6;
      facts.longitude = Math.round((lonRef === 'W' ? -lon : lon) * 1e6) / 1e6;
      const accuracy = rationals(gps.get(0x1f))?.[0];
      if (accuracy !== undefined && Number.isFinite(accuracy)) facts.accuracyM = accuracy;
    }
    const date = ascii(gps.get(0x1d));
    const time = rationals(gps.get(7));
    const dm = date ? /^(\d{4}):(\d{2}):(\d{2})$/.exec(date) : null;
    if (dm && time && time.length === 3 && time.every(Number.isFinite)) {
      const ms = Date.UTC(Number(dm[1]), Number(dm[2]) - 1, Number(dm[3]), time[0]!, time[1]!, Math.floor(time[2]!));
      if (Number.isFinite(ms)) facts.capturedAt = ms;
    }
  }
  const exifAt = pointer(ifd0, 0x8769);
  if (facts.capturedAt === undefined && exifAt !== undefined) {
    const exif = ifd(exifAt);
    const local = ascii(exif.get(0x9003));
    const offset = ascii(exif.get(0x9011));
    const lm = local ? /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(local) : null;
    const om = offset ? /^([+-])(\d{2}):(\d{2})$/.exec(offset) : null;
    if (lm && om) {
      const asUtc = Date.UTC(
        Number(lm[1]),
        Number(lm[2]) - 1,
        Number(lm[3]),
        Number(lm[4]),
        Number(lm[5]),
        Number(lm[6]),
      );
      const shift = (Number(om[2]) * 60 + Number(om[3])) * 60_000 * (om[1] === '-' ? -1 : 1);
      if (Number.isFinite(asUtc)) facts.capturedAt = asUtc - shift;
    }
  }
  return facts;
}

/**
 * Test photos: the storefront JPEG fixture (made once in Chromium from a canvas), with an EXIF block
 * written in, the way a phone camera writes one (GPS position, accuracy, GPS UTC time, local time
 * with its offset), in either byte order. Used by the EXIF reader's tests and the console tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const STOREFRONT = readFileSync(
  join(import.meta.dirname, '..', '..', '..', 'fixtures', 'human', 'storefront.jpg'),
);

export interface ExifInput {
  latitude?: number;
  longitude?: number;
  accuracyM?: number;
  gpsTime?: Date;
  localTime?: string;
  offset?: string;
  bigEndian?: boolean;
}

interface Entry {
  tag: number;
  type: number;
  count: number;
  data: Buffer;
}

export function withExif(jpeg: Buffer, input: ExifInput): Buffer {
  const be = input.bigEndian ?? false;
  const u16 = (n: number) => {
    const b = Buffer.alloc(2);
    if (be) b.writeUInt16BE(n);
    else b.writeUInt16LE(n);
    return b;
  };
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    if (be) b.writeUInt32BE(n);
    else b.writeUInt32LE(n);
    return b;
  };
  const ascii = (tag: number, s: string): Entry => ({
    tag,
    type: 2,
    count: s.length + 1,
    data: Buffer.from(s + '\0', 'latin1'),
  });
  const rationals = (tag: number, values: Array<[number, number]>): Entry => ({
    tag,
    type: 5,
    count: values.length,
    data: Buffer.concat(values.flatMap(([n, d]) => [u32(n), u32(d)])),
  });
  const dms = (deg: number): Array<[number, number]> => {
    const a = Math.abs(deg);
    const d = Math.floor(a);
    const m = Math.floor((a - d) * 60);
    const s = Math.round(((a - d) * 60 - m) * 60 * 10_000);
    return [
      [d, 1],
      [m, 1],
      [s, 10_000],
    ];
  };

  const gps: Entry[] = [];
  if (input.latitude !== undefined && input.longitude !== undefined) {
    gps.push(
      ascii(1, input.latitude < 0 ? 'S' : 'N'),
      rationals(2, dms(input.latitude)),
      ascii(3, input.longitude < 0 ? 'W' : 'E'),
      rationals(4, dms(input.longitude)),
    );
    if (input.accuracyM !== undefined) gps.push(rationals(0x1f, [[Math.round(input.accuracyM * 100), 100]]));
  }
  if (input.gpsTime) {
    const t = input.gpsTime;
    gps.push(
      rationals(7, [
        [t.getUTCHours(), 1],
        [t.getUTCMinutes(), 1],
        [t.getUTCSeconds(), 1],
      ]),
    );
    gps.push(
      ascii(
        0x1d,
        `${t.getUTCFullYear()}:${String(t.getUTCMonth() + 1).padStart(2, '0')}:${String(t.getUTCDate()).padStart(2, '0')}`,
      ),
    );
  }
  const exif: Entry[] = [];
  if (input.localTime) exif.push(ascii(0x9003, input.localTime));
  if (input.offset) exif.push(ascii(0x9011, input.offset));

  // Layout: header (8) | IFD0 | Exif IFD + data | GPS IFD + data. Pointers are filled in once sizes are known.
  const ifdSize = (entries: Entry[]) =>
    2 +
    entries.length * 12 +
    4 +
    entries.reduce((n, e) => n + (e.data.length > 4 ? e.data.length + (e.data.length % 2) : 0), 0);
  const ifd0: Entry[] = [];
  const exifAt = 8 + 2 + 2 * 12 + 4;
  const gpsAt = exifAt + ifdSize(exif);
  ifd0.push(
    { tag: 0x8769, type: 4, count: 1, data: u32(exifAt) },
    { tag: 0x8825, type: 4, count: 1, data: u32(gpsAt) },
  );
  const write = (entries: Entry[], at: number) => {
    const head: Buffer[] = [u16(entries.length)];
    const tail: Buffer[] = [];
    let dataAt = at + 2 + entries.length * 12 + 4;
    for (const e of [...entries].sort((a, b) => a.tag - b.tag)) {
      head.push(u16(e.tag), u16(e.type), u32(e.count));
      if (e.data.length <= 4) head.push(Buffer.concat([e.data, Buffer.alloc(4 - e.data.length)]));
      else {
        head.push(u32(dataAt));
        const padded = e.data.length % 2 ? Buffer.concat([e.data, Buffer.alloc(1)]) : e.data;
        tail.push(padded);
        dataAt += padded.length;
      }
    }
    head.push(u32(0));
    return Buffer.concat([...head, ...tail]);
  };
  const tiff = Buffer.concat([
    Buffer.from(be ? 'MM' : 'II', 'latin1'),
    u16(42),
    u32(8),
    write(ifd0, 8),
    write(exif, exifAt),
    write(gps, gpsAt),
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.concat([
    Buffer.from([0xff, 0xe1]),
    (() => {
      const b = Buffer.alloc(2);
      b.writeUInt16BE(payload.length + 2);
      return b;
    })(),
    payload,
  ]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

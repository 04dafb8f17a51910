/**
 * The picture a sandbox task "takes": a small, valid PNG (a grey test card with a diagonal band),
 * made once in memory. Every sandbox delivery attaches the same bytes, so they are stored once.
 */
import { crc32, deflateSync } from 'node:zlib';

let cached: Buffer | undefined;

export function syntheticPhoto(): Buffer {
  if (cached) return cached;
  const width = 96;
  const height = 64;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const band = Math.abs(x - y * 1.5) < 8;
      const shade = band ? 230 : 120 + (((x >> 3) + (y >> 3)) % 2) * 40;
      raw.fill(shade, row + 1 + x * 3, row + 4 + x * 3);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  cached = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return cached;
}

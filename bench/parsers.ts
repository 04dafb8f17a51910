/**
 * `npm run bench -- parsers`: the hand-written parsers that stayed (CSV, multipart, EXIF) against the
 * maintained library each was measured against (csv-parse, busboy, exifr), on the same inputs, with
 * whether the library's answer matches ours. The numbers behind docs/decisions.md ("Parsers").
 * Options: --rows N (CORDIS rows, default 50,000), --rounds N (default 5). Prints; writes nothing.
 */
import busboy from 'busboy';
import { parse as csvParse } from 'csv-parse/sync';
import exifr from 'exifr';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseCsv } from '../lib/funding/csv.ts';
import { readExif } from '../lib/human/exif.ts';
import { parseMultipart, type Part } from '../lib/human/multipart.ts';
import { STOREFRONT, withExif } from '../tests/lib/human/jpeg-exif.ts';

const ROOT = join(import.meta.dirname, '..');

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** Median milliseconds of `rounds` runs (after one warm-up run). */
async function time(rounds: number, run: () => unknown): Promise<number> {
  await run();
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint();
    await run();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
}

function cordisCsv(rows: number): string {
  const text = readFileSync(join(ROOT, 'fixtures', 'funding', 'cordis', 'project.csv'), 'utf8');
  const [header, ...data] = text.trimEnd().split('\n');
  return `${header}\n${Array.from({ length: rows }, (_, i) => data[i % data.length]).join('\n')}\n`;
}

const CSV_OPTIONS = {
  delimiter: ';',
  relax_quotes: true,
  relax_column_count: true,
  bom: true,
  skip_empty_lines: true,
} as const;

function busboyParts(body: Buffer, boundary: string): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const parts: Part[] = [];
    const bb = busboy({
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      limits: { parts: 65, fileSize: body.length },
    });
    bb.on('field', (name, value, info) =>
      parts.push({ name, filename: null, contentType: info.mimeType, data: Buffer.from(value) }),
    );
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      const part: Part = { name, filename: info.filename ?? null, contentType: info.mimeType, data: Buffer.alloc(0) };
      parts.push(part);
      stream
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          part.data = Buffer.concat(chunks);
        });
    });
    bb.on('error', reject).on('close', () => resolve(parts));
    Readable.from([body]).pipe(bb);
  });
}

function deliveryBody(boundary: string): Buffer {
  const photo = withExif(STOREFRONT, {
    latitude: 48.86432,
    longitude: 2.37891,
    accuracyM: 4.5,
    gpsTime: new Date('2026-11-22T09:41:07Z'),
  });
  const filler = Buffer.alloc(5 * 1024 * 1024 - photo.length, 0x0d); // CRs: the worst case for a boundary search
  const file = Buffer.concat([photo, filler]);
  const part = (headers: string, data: Buffer) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), data, Buffer.from('\r\n')]);
  return Buffer.concat([
    part('Content-Disposition: form-data; name="csrf"', Buffer.from('token')),
    part('Content-Disposition: form-data; name="answer.open"', Buffer.from('yes')),
    ...Array.from({ length: 4 }, (_, i) =>
      part(`Content-Disposition: form-data; name="files"; filename="p${i}.jpg"\r\nContent-Type: image/jpeg`, file),
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}

export async function run(args: string[]): Promise<void> {
  const rows = option(args, 'rows', 50_000);
  const rounds = option(args, 'rounds', 5);
  const lines: string[] = [];

  const csv = cordisCsv(rows);
  const ours = parseCsv(csv).map((r) => r.fields);
  const theirs = csvParse(csv, CSV_OPTIONS) as string[][];
  const csvSame = ours.filter((r, i) => JSON.stringify(r) === JSON.stringify(theirs[i])).length;
  lines.push(
    `CSV, ${rows.toLocaleString('en')} CORDIS rows (${(csv.length / 1e6).toFixed(1)} MB): hand-written ${(await time(rounds, () => parseCsv(csv))).toFixed(0)} ms, ` +
      `csv-parse (relax_quotes) ${(await time(rounds, () => csvParse(csv, CSV_OPTIONS))).toFixed(0)} ms; rows read alike ${csvSame}/${ours.length}`,
  );

  const boundary = '----WebKitFormBoundaryx7Q2Hc4pNtE1bG9A';
  const body = deliveryBody(boundary);
  const a = parseMultipart(body, boundary);
  const b = await busboyParts(body, boundary);
  const partsSame = a.length === b.length && a.every((p, i) => p.name === b[i]!.name && p.data.equals(b[i]!.data));
  lines.push(
    `Multipart, 4 files of 5 MiB (${(body.length / 1_048_576).toFixed(1)} MiB body in memory): hand-written ${(await time(rounds, () => parseMultipart(body, boundary))).toFixed(1)} ms, ` +
      `busboy ${(await time(rounds, () => busboyParts(body, boundary))).toFixed(1)} ms; same parts: ${partsSame}`,
  );

  const photo = withExif(STOREFRONT, {
    latitude: 48.86432,
    longitude: 2.37891,
    accuracyM: 4.5,
    gpsTime: new Date('2026-11-22T09:41:07Z'),
  });
  const n = 2_000;
  const ourFacts = readExif(photo);
  const gps = await exifr.gps(photo);
  lines.push(
    `EXIF, ${n} reads of a ${(photo.length / 1024).toFixed(0)} KiB JPEG: hand-written ${(
      await time(rounds, () => {
        for (let i = 0; i < n; i++) readExif(photo);
      })
    ).toFixed(1)} ms, ` +
      `exifr.parse ${(
        await time(rounds, async () => {
          for (let i = 0; i < n; i++)
            await exifr.parse(photo, { gps: true, exif: true, tiff: false, reviveValues: false });
        })
      ).toFixed(1)} ms; ` +
      `same position: ${Math.abs(gps.latitude - ourFacts.latitude!) < 1e-6 && Math.abs(gps.longitude - ourFacts.longitude!) < 1e-6}`,
  );

  console.log(`Parsers on ${new Date().toISOString().slice(0, 10)}, node ${process.version}, median of ${rounds}:`);
  for (const line of lines) console.log(`- ${line}`);
}

/** The console's delivery form → a Delivery: answers typed per the result schema, files typed by their bytes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readDelivery } from '../../../lib/human/delivery-form.ts';
import type { Part } from '../../../lib/human/multipart.ts';
import { syntheticPhoto } from '../../../lib/human/synthetic-photo.ts';
import { MAX_FILE_BYTES, sniffMediaType } from '../../../lib/human/uploads.ts';
import { STOREFRONT } from './jpeg-exif.ts';

const field = (name: string, value: string): Part => ({
  name,
  filename: null,
  contentType: null,
  data: Buffer.from(value),
});
const file = (data: Buffer, filename = 'p.jpg'): Part => ({ name: 'files', filename, contentType: 'image/jpeg', data });
const base = [
  field('answer.found', 'yes'),
  field('answer.description', 'The door, from the street'),
  field('confidence', '87.5'),
];

test('answers, confidence in basis points, a photo, a reported position', () => {
  const d = readDelivery('human.photo', [
    ...base,
    field('note', ' by the bakery '),
    file(STOREFRONT),
    file(Buffer.alloc(0), ''),
    field('latitude', '48.85'),
    field('longitude', '2.35'),
    field('accuracy_m', '12'),
  ]);
  assert.deepEqual(d.answer, { found: true, description: 'The door, from the street' });
  assert.equal(d.confidenceBps, 8750);
  assert.equal(d.note, 'by the bakery');
  assert.equal(d.files.length, 1, 'an empty file input is skipped');
  assert.equal(d.files[0]!.mediaType, 'image/jpeg');
  assert.deepEqual(d.reported, { latitude: 48.85, longitude: 2.35, accuracyM: 12 });
});

test('refusals name what to fix', () => {
  const cases: Array<[string, Part[], RegExp]> = [
    ['no confidence', base.slice(0, 2), /confidence as a percentage/],
    ['confidence over 100', [...base.slice(0, 2), field('confidence', '101')], /confidence as a percentage/],
    [
      'a renamed text file',
      [...base, file(Buffer.from('hello'), 'photo.jpg')],
      /photo.jpg is not a JPEG, PNG or WebP photo or a PDF/,
    ],
    ['an empty named file', [...base, file(Buffer.alloc(0), 'a.jpg')], /a.jpg is empty/],
    [
      'a file too large',
      [...base, file(Buffer.concat([STOREFRONT, Buffer.alloc(MAX_FILE_BYTES)]), 'big.jpg')],
      /big.jpg is larger than 5 MiB/,
    ],
    ['too many files', [...base, ...Array.from({ length: 5 }, () => file(STOREFRONT))], /At most 4 files/],
    ['latitude without longitude', [...base, field('latitude', '48')], /both latitude/],
    ['a field twice', [...base, field('confidence', '10')], /sent more than once/],
  ];
  for (const [name, parts, message] of cases) assert.throws(() => readDelivery('human.photo', parts), message, name);
});

test('file types come from the bytes', () => {
  assert.equal(sniffMediaType(STOREFRONT), 'image/jpeg');
  assert.equal(sniffMediaType(syntheticPhoto()), 'image/png');
  assert.equal(sniffMediaType(Buffer.from('%PDF-1.7\n')), 'application/pdf');
  assert.equal(sniffMediaType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  assert.equal(sniffMediaType(Buffer.from('GIF89a')), null);
});

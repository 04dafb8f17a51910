/** Reading where and when a photo was taken from its EXIF block, and surviving damaged files. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readExif } from '../../../lib/human/exif.ts';
import { STOREFRONT, withExif } from './jpeg-exif.ts';

test('GPS position, accuracy and UTC time, in both byte orders', () => {
  for (const bigEndian of [false, true]) {
    const photo = withExif(STOREFRONT, {
      latitude: 48.86432,
      longitude: 2.37891,
      accuracyM: 4.5,
      gpsTime: new Date('2026-11-22T09:41:07Z'),
      bigEndian,
    });
    const facts = readExif(photo);
    assert.ok(Math.abs(facts.latitude! - 48.86432) < 1e-5, `latitude ${facts.latitude}`);
    assert.ok(Math.abs(facts.longitude! - 2.37891) < 1e-5, `longitude ${facts.longitude}`);
    assert.equal(facts.accuracyM, 4.5);
    assert.equal(facts.capturedAt, Date.parse('2026-11-22T09:41:07Z'));
  }
});

test('south and west are negative', () => {
  const facts = readExif(withExif(STOREFRONT, { latitude: -33.8568, longitude: -70.6483 }));
  assert.ok(facts.latitude! < 0 && facts.longitude! < 0);
});

test('a local capture time counts only with its zone offset', () => {
  assert.equal(
    readExif(withExif(STOREFRONT, { localTime: '2026:11:22 10:41:07', offset: '+01:00' })).capturedAt,
    Date.parse('2026-11-22T09:41:07Z'),
  );
  assert.equal(
    readExif(withExif(STOREFRONT, { localTime: '2026:11:22 10:41:07' })).capturedAt,
    undefined,
    'no zone: unknown instant',
  );
});

test('no EXIF, damaged EXIF, or not a JPEG at all: nothing, and no exception', () => {
  assert.deepEqual(readExif(STOREFRONT), {});
  const good = withExif(STOREFRONT, { latitude: 1, longitude: 2, gpsTime: new Date() });
  for (let cut = 4; cut < 200; cut += 7) assert.doesNotThrow(() => readExif(good.subarray(0, cut)));
  const scrambled = Buffer.from(good);
  for (let i = 30; i < 120; i += 3) scrambled[i] = 0xff;
  assert.doesNotThrow(() => readExif(scrambled));
  assert.deepEqual(readExif(Buffer.from('%PDF-1.4 not a photo')), {});
});

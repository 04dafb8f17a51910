import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { displayPrefix, formatKey, hashKey, parseKey, redactKeys, type KeyPrefix } from '../../lib/keys.ts';

// Produced by an independent implementation (Python hashlib + zlib): see the file's generated_by.
const golden = JSON.parse(readFileSync(new URL('../../fixtures/keys/golden.json', import.meta.url), 'utf8')) as {
  vectors: Array<{ prefix: KeyPrefix; random_hex: string; key: string; sha256: string; display_prefix: string }>;
};

test('golden vectors: format, hash and display prefix match the independent implementation', () => {
  for (const v of golden.vectors) {
    const key = formatKey(v.prefix, Buffer.from(v.random_hex, 'hex'));
    assert.equal(key, v.key, `key for ${v.random_hex}`);
    assert.equal(hashKey(key), v.sha256);
    assert.equal(displayPrefix(key), v.display_prefix);
    assert.deepEqual(parseKey(key), { prefix: v.prefix, body: key.slice(v.prefix.length, v.prefix.length + 43) });
  }
});

test('generated keys have the documented shape and parse', () => {
  for (const prefix of ['ia_', 'ho_test_', 'ho_live_', 'fnd_'] as const) {
    const key = formatKey(prefix, randomBytes(32));
    assert.match(key, new RegExp(`^${prefix}[0-9A-Za-z]{49}$`));
    assert.ok(parseKey(key));
  }
});

test('parseKey refuses anything that is not a well-formed key, before any lookup', () => {
  const good = golden.vectors[3]!.key;
  const flipped = good.slice(0, -7) + (good.at(-7) === 'a' ? 'b' : 'a') + good.slice(-6);
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['prefix only', 'fnd_'],
    ['unknown prefix', 'xyz_' + good.slice('ho_test_'.length)],
    ['one character short', good.slice(0, -1)],
    ['one character long', good + 'a'],
    ['body character changed (checksum catches it)', flipped],
    ['checksum changed', good.slice(0, -1) + (good.at(-1) === '0' ? '1' : '0')],
    ['non-base62 character', good.slice(0, -2) + '-' + good.slice(-1)],
    ['surrounding space', ` ${good}`],
    ['unicode lookalike', good.slice(0, 12) + '\u0430' + good.slice(13)],
  ];
  for (const [name, candidate] of cases) assert.equal(parseKey(candidate), null, name);
});

test('formatKey needs exactly 32 random bytes', () => {
  assert.throws(() => formatKey('fnd_', randomBytes(16)), RangeError);
});

test('displayPrefix refuses a malformed key', () => {
  assert.throws(() => displayPrefix('fnd_nope'), TypeError);
});

test('redactKeys cuts a whole or truncated key to its prefix, and leaves other text alone', () => {
  for (const prefix of ['ia_', 'ho_test_', 'ho_live_', 'fnd_'] as const) {
    const key = formatKey(prefix, randomBytes(32));
    assert.equal(redactKeys(`got '${key}'.`), `got '${prefix}…'.`);
    assert.equal(redactKeys(`/tasks/${key.slice(0, 40)}`), `/tasks/${prefix}…`);
    assert.equal(redactKeys(`${key},${key}`), `${prefix}…,${prefix}…`);
  }
  for (const text of [
    'fnd_short',
    'ia_0123456789abcde',
    'multimedia_0123456789abcdefXYZ',
    'tsk_0123456789abcdefghij',
    'eu:HORIZON-CL5-2021-D2-01-11',
  ]) {
    assert.equal(redactKeys(text), text);
  }
});

/** The multipart/form-data parser, on bodies built the way browsers build them, and on broken ones. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundaryOf, MultipartError, parseMultipart } from '../../../lib/human/multipart.ts';

const B = '----WebKitFormBoundaryx7Q2Hc4pNtE1bG9A';
const part = (headers: string, data: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`--${B}\r\n${headers}\r\n\r\n`),
    Buffer.isBuffer(data) ? data : Buffer.from(data),
    Buffer.from('\r\n'),
  ]);
const body = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${B}--\r\n`)]);

test('fields and files, binary data with CRLFs and boundary-like bytes inside intact', () => {
  const binary = Buffer.from([0xff, 0xd8, 0x0d, 0x0a, 0x2d, 0x2d, 0x00, 0xff, 0x0d, 0x0a]);
  const parts = parseMultipart(
    body(
      part('Content-Disposition: form-data; name="csrf"', 'tok'),
      part('Content-Disposition: form-data; name="answer.note"', 'line one\r\nline two — é'),
      part(
        'Content-Disposition: form-data; name="files"; filename="shop front.jpg"\r\nContent-Type: image/jpeg',
        binary,
      ),
      part('Content-Disposition: form-data; name="files"; filename=""\r\nContent-Type: application/octet-stream', ''),
    ),
    B,
  );
  assert.equal(parts.length, 4);
  assert.deepEqual(
    parts.map((p) => [p.name, p.filename]),
    [
      ['csrf', null],
      ['answer.note', null],
      ['files', 'shop front.jpg'],
      ['files', ''],
    ],
  );
  assert.equal(parts[1]!.data.toString('utf8'), 'line one\r\nline two — é');
  assert.ok(parts[2]!.data.equals(binary));
  assert.equal(parts[2]!.contentType, 'image/jpeg');
});

test('a quote in a file name (browsers send %22) and a preamble are handled', () => {
  const parts = parseMultipart(
    Buffer.concat([
      Buffer.from('preamble\r\n'),
      body(part('Content-Disposition: form-data; name="files"; filename="a%22b.png"', 'x')),
    ]),
    B,
  );
  assert.equal(parts[0]!.filename, 'a"b.png');
});

test('the boundary is read from Content-Type, quoted or not', () => {
  assert.equal(boundaryOf(`multipart/form-data; boundary=${B}`), B);
  assert.equal(boundaryOf('multipart/form-data; charset=utf-8; boundary="abc def"'), 'abc def');
  assert.equal(boundaryOf('application/x-www-form-urlencoded'), null);
  assert.equal(boundaryOf(undefined), null);
});

test('malformed bodies are refused with a reason, never half-read', () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ['no boundary at all', Buffer.from('hello'), /no parts/],
    [
      'cut short',
      Buffer.concat([Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue`)]),
      /cut short/,
    ],
    ['no end of headers', Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="a"`), /end of headers/],
    ['a part without a name', body(part('Content-Disposition: form-data', 'x')), /no name/],
    ['garbage after a boundary', Buffer.from(`--${B}XX`), /malformed/],
  ];
  for (const [name, input, message] of cases)
    assert.throws(
      () => parseMultipart(input, B),
      (e: unknown) => e instanceof MultipartError && message.test(e.message),
      name,
    );
  const many = body(...Array.from({ length: 70 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, 'x')));
  assert.throws(() => parseMultipart(many, B), /more than 64 parts/);
});

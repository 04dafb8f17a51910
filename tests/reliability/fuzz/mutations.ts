/**
 * The hostile values the fuzzer puts where a valid one belongs (issue 8): wrong types, numbers out of
 * range, empty and huge strings, unicode edge cases, control characters, malformed percent-encoding,
 * path traversal, and JSON bodies of the wrong shape. Values for URLs come already percent-encoded
 * (`encoded`), since the point is often the encoding itself (`%2F`, `%00`, a lone surrogate).
 */
import fc from 'fast-check';

/** A URL-ready value: `encoded` goes into the target as is. */
export interface UrlValue {
  encoded: string;
  label: string;
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is written as the bytes a
 * careless client would send for it (WTF-8, e.g. %ED%A0%80): exactly the input a server must survive.
 */
export function encodeLoose(raw: string): string {
  try {
    return encodeURIComponent(raw);
  } catch {
    return Array.from(raw, (ch) => {
      const code = ch.codePointAt(0)!;
      if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(ch);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => '%' + b.toString(16).toUpperCase())
        .join('');
    }).join('');
  }
}

const enc = (label: string, raw: string): UrlValue => ({ label, encoded: encodeLoose(raw) });
const verbatim = (label: string, encoded: string): UrlValue => ({ label, encoded });

/** Strings that are hard on parsers, decoders and databases (raw, before URL encoding). */
export const nastyStrings: fc.Arbitrary<{ label: string; raw: string }> = fc.oneof(
  fc.constantFrom(
    { label: 'empty', raw: '' },
    { label: 'space', raw: ' ' },
    { label: 'RTL override', raw: '\u202Egnp.exe\u202C' },
    { label: 'Arabic and Hebrew', raw: 'مرحبا שלום' },
    { label: 'combining marks', raw: 'e\u0301\u0301\u0301\u0301a\u0308\u0308' },
    { label: 'emoji ZWJ family', raw: '👨‍👩‍👧‍👦🏳️‍🌈' },
    { label: 'U+FFFF', raw: '\uFFFF' },
    { label: 'U+FFFE', raw: '\uFFFE' },
    { label: 'BOM', raw: '\uFEFFabc' },
    { label: 'NUL', raw: 'a\u0000b' },
    { label: 'control characters', raw: '\u0001\u0007\u0008\t\n\r\u001B[31m\u007F' },
    { label: 'CRLF injection', raw: 'x\r\nSet-Cookie: a=b' },
    { label: 'SQL', raw: "' OR 1=1; DROP TABLE api_keys; --" },
    { label: 'FTS syntax', raw: '"unclosed NEAR( AND OR * ^ -:' },
    { label: 'FTS star only', raw: '*' },
    { label: 'quotes', raw: '""""' },
    { label: 'LIKE wildcards', raw: '%_%_\\' },
    { label: 'HTML', raw: '<script>alert(1)</script>' },
    { label: 'template', raw: '${7*7}{{7*7}}' },
    { label: 'path traversal', raw: '../../../../etc/passwd' },
    { label: 'prototype', raw: '__proto__' },
    { label: 'constructor', raw: 'constructor' },
    { label: 'number-like', raw: '1e309' },
    { label: 'negative zero', raw: '-0' },
    { label: 'full-width digits', raw: '１２３' },
    { label: 'Turkish dotless', raw: 'ıİ' },
    { label: 'zero-width', raw: 'a\u200Bb\u200Dc' },
    { label: 'long word', raw: 'a'.repeat(5000) },
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map((raw) => ({ label: 'random unicode', raw })),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((raw) => ({ label: 'random graphemes', raw })),
  fc
    .integer({ min: 10_000, max: 60_000 })
    .chain((n) =>
      fc
        .constantFrom('x', 'é', '😀 ')
        .map((c) => ({ label: `huge (${n} × ${JSON.stringify(c)})`, raw: c.repeat(Math.ceil(n / c.length)) })),
    ),
);

/**
 * Huge for a URL: 3 to 12 KB once encoded, so that the request still fits node's 16 KiB header limit
 * and reaches the server (over it, node's parser answers a bare 431: http-abuse.test.ts's subject).
 */
const hugeUrlValue: fc.Arbitrary<{ label: string; raw: string }> = fc
  .integer({ min: 3_000, max: 12_000 })
  .chain((bytes) =>
    fc.constantFrom('x', 'é', '😀 ').map((c) => {
      const per = encodeURIComponent(c).length;
      return {
        label: `huge (${bytes} encoded bytes of ${JSON.stringify(c)})`,
        raw: c.repeat(Math.max(1, Math.floor(bytes / per))),
      };
    }),
  );

/** Encodings that only exist in a URL: malformed percent-escapes, lone surrogates, bad UTF-8. */
const encodingTricks: fc.Arbitrary<UrlValue> = fc.constantFrom(
  verbatim('lone high surrogate', '%ED%A0%80'),
  verbatim('lone low surrogate', '%ED%B0%80'),
  verbatim('invalid UTF-8', '%C3%28'),
  verbatim('overlong slash', '%C0%AF'),
  verbatim('0xFF byte', '%FF%FE'),
  verbatim('bare percent', '%'),
  verbatim('bad escape', '%zz'),
  verbatim('half escape', 'ab%4'),
  verbatim('encoded NUL', 'a%00b'),
  verbatim('encoded slash', 'a%2Fb'),
  verbatim('encoded backslash', 'a%5Cb'),
  verbatim('double-encoded slash', 'a%252Fb'),
  verbatim('plus', 'a+b'),
  verbatim('encoded newline', 'a%0D%0Ab'),
  // Not here: raw bytes above 0x7F in the target, which node's parser refuses before the server sees
  // the request (a bare 400; tests/reliability/http-abuse.test.ts owns the request line).
);

/** A hostile value for a query parameter or path segment, URL-encoded. */
export const hostileUrlValue: fc.Arbitrary<UrlValue> = fc.oneof(
  { weight: 3, arbitrary: nastyStrings.filter((s) => !s.label.startsWith('huge')).map((s) => enc(s.label, s.raw)) },
  { weight: 1, arbitrary: hugeUrlValue.map((s) => enc(s.label, s.raw)) },
  { weight: 2, arbitrary: encodingTricks },
);

/** Path segments aimed at the router: traversal, encoded separators and NUL, empty segments. */
export const hostilePathSegment: fc.Arbitrary<UrlValue> = fc.oneof(
  fc.constantFrom(
    verbatim('dot-dot', '..'),
    verbatim('dot', '.'),
    verbatim('encoded dot-dot', '%2e%2e'),
    verbatim('dot-dot slash', '../..'),
    verbatim('dot-dot encoded slash', '..%2F..%2F'),
    verbatim('encoded slash', '%2F'),
    verbatim('encoded NUL', '%00'),
    verbatim('NUL suffix', 'abc%00.json'),
    verbatim('empty segment', ''),
    verbatim('double slash', '/'),
    verbatim('semicolon', 'abc;param=1'),
    verbatim('trailing dot', 'abc.'),
    verbatim('upper case', 'ABC'),
    verbatim('encoded query', 'abc%3Fq=1'),
    verbatim('fragment', 'abc%23frag'),
  ),
  hostileUrlValue,
);

/** Number-ish strings that are not what an integer or bounded number parameter accepts. */
export const badNumbers = (schema: {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}): fc.Arbitrary<UrlValue> => {
  const below = schema.minimum !== undefined ? schema.minimum - 1 : schema.exclusiveMinimum;
  const above = schema.maximum !== undefined ? schema.maximum + 1 : undefined;
  const values = [
    'abc',
    '1.5',
    '1e3',
    '0x10',
    ' 5',
    '5 ',
    '+5',
    'NaN',
    'Infinity',
    '-Infinity',
    '99999999999999999999999',
    '1e309',
    '',
    '--1',
    '1,2',
    'true',
    'null',
    '[]',
    '{}',
  ];
  if (below !== undefined) values.push(String(below), String(below - 1000));
  if (above !== undefined) values.push(String(above), String(above * 1000));
  return fc.constantFrom(...values).map((v) => enc(`number ${JSON.stringify(v)}`, v));
};

/** A JSON value of the wrong type for a field. */
export const wrongTypeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    '',
    'x',
    [],
    {},
    [1, 2],
    { a: 1 },
    2 ** 53 + 1,
    Number.MIN_VALUE,
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Deeply nested JSON text (arrays or objects), `depth` levels. */
export const deepJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/**
 * Bodies that are not a JSON object, or not JSON at all, as raw text. `parsed` is what a correct
 * parser may read where that is a value: RFC 8259 lets a parser ignore a byte order mark.
 */
export const nonObjectBodies: fc.Arbitrary<{ label: string; text: string; parsed?: unknown }> = fc.constantFrom<{
  label: string;
  text: string;
  parsed?: unknown;
}>(
  { label: 'empty body', text: '' },
  { label: 'whitespace', text: '   \n' },
  { label: 'null', text: 'null' },
  { label: 'number', text: '42' },
  { label: 'string', text: '"hello"' },
  { label: 'array', text: '[{"capability":"human.verify"}]' },
  { label: 'truncated', text: '{"capability": "human.ver' },
  { label: 'trailing garbage', text: '{} {}' },
  { label: 'single quotes', text: "{'a': 1}" },
  { label: 'comment', text: '{/* c */}' },
  { label: 'NaN literal', text: '{"max_price_cents": NaN}' },
  { label: 'BOM prefix', text: '\uFEFF{}', parsed: {} },
  { label: 'form encoded', text: 'capability=human.verify&max_price_cents=10' },
  { label: 'XML', text: '<?xml version="1.0"?><task/>' },
  { label: 'lone surrogate escape', text: '{"reason":"\\ud800"}' },
  { label: 'NUL escape', text: '{"reason":"\\u0000"}' },
  { label: 'big number', text: '{"max_price_cents": 1e400}' },
  { label: 'deep array', text: deepJson(20_000, 'array') },
  { label: 'deep object', text: deepJson(20_000, 'object') },
  { label: 'moderately deep', text: deepJson(600, 'object') },
);

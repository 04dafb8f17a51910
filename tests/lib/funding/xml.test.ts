/** The XML reader over fast-xml-parser: the BOE JSON shape out of it, and every malformed input an XmlError. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseXml, xmlToObject, XmlError } from '../../../lib/funding/xml.ts';

test('xmlToObject(parseXml(...)): declaration, DOCTYPE and BOM skipped, entities decoded, text trimmed', () => {
  const cases: Array<[string, unknown]> = [
    ['\uFEFF<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE r><r><a>x&amp;y</a></r>', { a: 'x&y' }],
    ['<r><a>x&nbsp;y &euro; &hellip;</a></r>', { a: 'x\u00a0y € …' }],
    ['<r>\n  <a>  spaced  </a>\n  <a/>\n</r>', { a: ['spaced', ''] }],
    ['<r><t a="&lt;&amp;&#65;&#x42;"/></r>', { t: { a: '<&AB' } }],
    ['<r><a><![CDATA[x<]]>y<![CDATA[z]]></a></r>', { a: 'x<yz' }],
    ['<r><a>&amp;lt;</a></r>', { a: '&lt;' }], // decoded once, not twice
    ['<r><a>&unknown;</a></r>', { a: '&unknown;' }],
    ['<r><i n="1"/><i n="2"/><j>x</j></r>', { i: [{ n: '1' }, { n: '2' }], j: 'x' }],
    ['<r><u sz="3">https://x?a=1&amp;b=2</u></r>', { u: { sz: '3', texto: 'https://x?a=1&b=2' } }],
    ['<r><!-- note --><?pi x?><a>1</a></r>', { a: '1' }],
  ];
  for (const [xml, expected] of cases) assert.deepEqual(xmlToObject(parseXml(xml)), expected, xml);
});

test('the element tree keeps names, attributes, child order and text, and all the text in order', () => {
  assert.deepEqual(parseXml('<r k="v"><b>1</b>t<a/></r>'), {
    name: 'r',
    attrs: { k: 'v' },
    text: 't',
    content: '1t',
    children: [
      { name: 'b', attrs: {}, children: [], text: '1', content: '1' },
      { name: 'a', attrs: {}, children: [], text: '', content: '' },
    ],
  });
  // A paragraph with inline markup reads as written (an item document's text).
  assert.equal(parseXml('<p>BDNS(Identif.):<b>742455</b> y <i>más</i>.</p>').content, 'BDNS(Identif.):742455 y más.');
});

test('malformed XML is an XmlError with the line, never another exception', () => {
  const cases: Array<[string, RegExp]> = [
    ['<a><b></a>', /^<\/a> closes <b> at line 1$/],
    ['<a>\n<b>\n</c>\n</a>', /^<\/c> closes <b> at line 3$/],
    ['<a>', /at line 1$/],
    ['<a></a><b></b>', /at line 1$/],
    ['<a b=1></a>', /at line 1$/],
    ['<r x="1" x="2"/>', /repeated at line 1$/],
    ['text', /at line 1$/],
    ['<a><!-- x </a>', /at line 1$/],
    ['', /./],
    ['<r><__proto__>x</__proto__></r>', /__proto__/],
  ];
  for (const [xml, message] of cases) {
    assert.throws(
      () => parseXml(xml),
      (e: unknown) => e instanceof XmlError && message.test(e.message),
      JSON.stringify(xml),
    );
  }
});

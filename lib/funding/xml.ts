/**
 * A small XML reader, enough for the BOE sumario (elements, attributes, text, CDATA, comments,
 * entities; no namespaces or DTDs), so no dependency is needed. `xmlToObject` turns the tree into the
 * shape the BOE's own JSON has: attributes and child elements become properties, a repeated child
 * becomes an array, a text-only element becomes a string, and an element with attributes and text
 * keeps its text as `texto` (<url_pdf szBytes="…">https://…</url_pdf> → {szBytes, texto}).
 */
import { decodeEntities } from './parse-util.ts';

export interface XmlElement { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

export class XmlError extends Error {}

const NAME = /[A-Za-z_][\w.\-:]*/y;
const ATTR = /\s*([A-Za-z_][\w.\-:]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

export function parseXml(input: string): XmlElement {
  const s = input.replace(/^\uFEFF/, '');
  let i = 0;
  const fail = (msg: string): never => {
    const line = s.slice(0, i).split('\n').length;
    throw new XmlError(`${msg} at line ${line}`);
  };
  const skipMisc = () => {
    for (;;) {
      while (i < s.length && /\s/.test(s[i]!)) i++;
      if (s.startsWith('<?', i)) i = s.indexOf('?>', i) < 0 ? fail('unterminated <?') : s.indexOf('?>', i) + 2;
      else if (s.startsWith('<!--', i)) i = s.indexOf('-->', i) < 0 ? fail('unterminated comment') : s.indexOf('-->', i) + 3;
      else if (s.startsWith('<!DOCTYPE', i)) i = s.indexOf('>', i) < 0 ? fail('unterminated DOCTYPE') : s.indexOf('>', i) + 1;
      else return;
    }
  };
  const readName = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(s);
    if (!m) return fail('expected a name');
    i += m[0].length;
    return m[0];
  };

  const element = (): XmlElement => {
    if (s[i] !== '<') fail('expected an element');
    i++;
    const el: XmlElement = { name: readName(), attrs: {}, children: [], text: '' };
    for (;;) {
      ATTR.lastIndex = i;
      const m = ATTR.exec(s);
      if (!m) break;
      el.attrs[m[1]!] = decodeEntities(m[2] ?? m[3] ?? '');
      i += m[0].length;
    }
    while (/\s/.test(s[i] ?? '')) i++;
    if (s.startsWith('/>', i)) { i += 2; return el; }
    if (s[i] !== '>') fail(`malformed start tag <${el.name}>`);
    i++;
    for (;;) {
      if (i >= s.length) fail(`<${el.name}> is not closed`);
      if (s.startsWith('</', i)) {
        i += 2;
        const close = readName();
        if (close !== el.name) fail(`</${close}> closes <${el.name}>`);
        while (/\s/.test(s[i] ?? '')) i++;
        if (s[i] !== '>') fail(`malformed end tag </${close}>`);
        i++;
        return el;
      }
      if (s.startsWith('<![CDATA[', i)) {
        const end = s.indexOf(']]>', i);
        if (end < 0) fail('unterminated CDATA');
        el.text += s.slice(i + 9, end);
        i = end + 3;
      } else if (s.startsWith('<!--', i) || s.startsWith('<?', i)) {
        skipMisc();
      } else if (s[i] === '<') {
        el.children.push(element());
      } else {
        const next = s.indexOf('<', i);
        const end = next < 0 ? s.length : next;
        el.text += decodeEntities(s.slice(i, end));
        i = end;
      }
    }
  };

  skipMisc();
  const root = element();
  skipMisc();
  if (i < s.length) fail('content after the root element');
  return root;
}

export function xmlToObject(el: XmlElement): unknown {
  if (el.children.length === 0 && Object.keys(el.attrs).length === 0) return el.text.trim();
  const out: Record<string, unknown> = { ...el.attrs };
  const groups = new Map<string, unknown[]>();
  for (const child of el.children) {
    const group = groups.get(child.name) ?? [];
    group.push(xmlToObject(child));
    groups.set(child.name, group);
  }
  for (const [name, values] of groups) out[name] = values.length === 1 ? values[0] : values;
  if (el.children.length === 0 && el.text.trim()) out.texto = el.text.trim();
  return out;
}

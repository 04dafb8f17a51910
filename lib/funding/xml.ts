/**
 * The BOE sumario and item documents as XML, read with fast-xml-parser (maintained and fuzzed; it replaced a hand-written
 * reader, docs/decisions.md). Its validator refuses malformed input first, with the line; the parser
 * then gives elements in document order. `xmlToObject` turns the tree into the shape the BOE's own
 * JSON has: attributes and child elements become properties, a repeated child becomes an array, a
 * text-only element becomes a string, and an element with attributes and text keeps its text as
 * `texto` (<url_pdf szBytes="…">https://…</url_pdf> → {szBytes, texto}).
 */
import { XMLParser, XMLValidator, type ValidationError } from 'fast-xml-parser';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its children's left out). */
  text: string;
  /** All the text inside it, its children's included, in document order (a paragraph with inline markup). */
  content: string;
}

export class XmlError extends Error {}

// Values stay strings (no number guessing), whitespace is kept as written (xmlToObject trims), CDATA
// joins the text, comments and processing instructions are dropped, named HTML entities (&nbsp;, &euro;
// …) are decoded as the BOE writes them.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** fast-xml-parser's preserveOrder node: `{ [tag]: children, ':@'?: attributes }` or `{ '#text': text }`. */
type OrderedNode = Record<string, unknown>;

/** Our message for a mismatched end tag (`</b> closes <a> at line N`), the validator's for the rest. */
function describe(err: ValidationError['err']): string {
  const mismatch =
    /^Expected closing tag '([^']+)' \(opened in line \d+, col \d+\) instead of closing tag '([^']+)'/.exec(err.msg);
  if (mismatch) return `</${mismatch[2]}> closes <${mismatch[1]}> at line ${err.line}`;
  return `${err.msg.replace(/\.$/, '')} at line ${err.line}`;
}

function toElement(node: OrderedNode): XmlElement {
  const name = Object.keys(node).find((k) => k !== ':@')!;
  const attrs = { ...(node[':@'] as Record<string, string> | undefined) };
  const el: XmlElement = { name, attrs, children: [], text: '', content: '' };
  for (const child of node[name] as OrderedNode[]) {
    if ('#text' in child) {
      el.text += String(child['#text']);
      el.content += String(child['#text']);
    } else {
      const c = toElement(child);
      el.children.push(c);
      el.content += c.content;
    }
  }
  return el;
}

export function parseXml(input: string): XmlElement {
  const s = input.replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(s);
  if (valid !== true) throw new XmlError(describe(valid.err));
  let tree: OrderedNode[];
  try {
    tree = parser.parse(s) as OrderedNode[];
  } catch (err) {
    // What the validator lets through but the parser still refuses (a `__proto__` element name).
    throw new XmlError(err instanceof Error ? err.message : String(err));
  }
  const roots = tree.filter((n) => !('#text' in n));
  if (roots.length !== 1) throw new XmlError(roots.length === 0 ? 'no root element' : 'content after the root element');
  return toElement(roots[0]!);
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

/**
 * The impact payloads as data (routes/impact/contract-payloads.json) turned into the valibot schemas
 * of the OpenAPI contract and the contract tests. The notation, kept small:
 *   "str" "int" "num" "bool" "null" "unknown"   a primitive; a trailing "?" makes it nullable
 *   "$Name"                                     a named schema (defined earlier in the file, or one of
 *                                               the shared ones of contract.ts); "$Name?" nullable
 *   ["<shape>"]                                 an array of it
 *   { "field": <shape>, … }                     a strict object (a field the contract does not list
 *                                               fails the contract tests)
 *   { "$enum": ["a", "b"] | "NAME" }            one of the values (NAME: a list given below)
 *   { "$record": <shape> }                      an object keyed by string
 *   { "$shape": <shape>, "$desc": "…", "$nullable": true }   a described (or nullable) shape
 *   { "$envelope": "$Data", "$metrics": "$Metrics", "$desc": "…" }   a response: the envelope of contract.ts
 * Named lists (`$enum` by name) are the code's own constants, so a value list has one home.
 */
import * as v from 'valibot';
import { MATCH_KINDS, SEARCH_TYPES } from '../../lib/impact/present-search.ts';
import { SCENARIO_CODES } from '../../lib/impact/scenario.ts';
import { BASES, INPUT_KINDS } from '../../lib/impact/basis.ts';
import * as shared from './contract.ts';
import { BREAKDOWNS, METHODS, METRICS, PRODUCT_SORTS, TIERS } from './schemas.ts';

type Shape = string | Shape[] | { [key: string]: Shape | boolean };
type Schema = v.GenericSchema;

const LISTS: Record<string, readonly string[]> = {
  SCENARIO_CODES,
  SEARCH_TYPES,
  MATCH_KINDS,
  METRICS,
  METHODS,
  BREAKDOWNS,
  PRODUCT_SORTS,
  TIERS,
  BASES,
  INPUT_KINDS,
};

const PRIMITIVES: Record<string, () => Schema> = {
  str: () => v.string(),
  int: () => v.pipe(v.number(), v.integer()),
  num: () => v.number(),
  bool: () => v.boolean(),
  null: () => v.null(),
  unknown: () => v.unknown(),
};

/** The shapes of contract.ts the JSON may name ("$Figure") or list as components. */
const SHARED: Record<string, Schema> = {
  Figure: shared.Figure,
  NFigure: shared.NFigure,
  ProductLinks: shared.ProductLinks,
  ProductRef: shared.ProductRef,
  Contribution: shared.Contribution,
  Reach: shared.Reach,
  Metrics: shared.Metrics,
  ProductMetrics: shared.ProductMetrics,
  RunObject: shared.RunObject,
  SourceUsed: shared.SourceUsed,
  Licence: shared.Licence,
  Caveat: shared.Caveat,
  Citation: shared.Citation,
  Withheld: shared.Withheld,
  ErrorBody: shared.ErrorBody,
};

export function compileShapes(doc: { schemas: Record<string, Shape> }): Record<string, Schema> {
  const named: Record<string, Schema> = { ...SHARED };
  const compile = (shape: Shape, at: string): Schema => {
    if (typeof shape === 'string') {
      const nullable = shape.endsWith('?');
      const name = nullable ? shape.slice(0, -1) : shape;
      let s: Schema | undefined;
      if (name.startsWith('$')) s = named[name.slice(1)];
      else s = PRIMITIVES[name]?.();
      if (!s) throw new Error(`contract-payloads.json ${at}: unknown shape "${shape}"`);
      return nullable ? v.nullable(s) : s;
    }
    if (Array.isArray(shape)) return v.array(compile(shape[0]!, `${at}[]`));
    if ('$envelope' in shape) {
      return shared.envelope(
        compile(shape.$envelope as Shape, `${at}.$envelope`),
        compile(shape.$metrics as Shape, `${at}.$metrics`),
        shape.$desc as string,
      );
    }
    if ('$enum' in shape) {
      const values = typeof shape.$enum === 'string' ? LISTS[shape.$enum] : (shape.$enum as string[]);
      if (!values) throw new Error(`contract-payloads.json ${at}: no list ${String(shape.$enum)}`);
      return v.picklist(values as [string, ...string[]]);
    }
    if ('$record' in shape) return v.record(v.string(), compile(shape.$record as Shape, `${at}{}`));
    if ('$shape' in shape) {
      let s = compile(shape.$shape as Shape, at);
      if (shape.$nullable === true) s = v.nullable(s);
      return shape.$desc ? v.pipe(s, v.description(shape.$desc as string)) : s;
    }
    return v.strictObject(
      Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, compile(s as Shape, `${at}.${k}`)])),
    );
  };
  for (const [name, shape] of Object.entries(doc.schemas)) named[name] = compile(shape, name);
  return named;
}

/**
 * fast-check arbitraries of values valid against a JSON Schema, for the subset the three contracts
 * use in parameters and request bodies: enum/const, string (pattern, length, a few formats),
 * integer and number (bounds, exclusive bounds), boolean, array, object (properties, required,
 * additionalProperties), anyOf/oneOf, and local $refs. Anything else yields arbitrary JSON, which the
 * fuzzer treats as "probably invalid" (it never asserts that such a value is accepted).
 */
import fc from 'fast-check';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema = any;

export interface SchemaContext {
  /** The document whose #/components/... references resolve. */
  doc?: Schema;
}

export function resolveRef(schema: Schema, ctx: SchemaContext): Schema {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i++) {
    const path = s.$ref.replace(/^#\//, '').split('/');
    s = path.reduce((node: Schema, part: string) => node?.[part], ctx.doc);
  }
  return s;
}

/** Strings valid for a string schema: from its pattern when it has one, within its length bounds. */
function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 40);
  const inBounds = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern)).filter(inBounds);
  }
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'uuid') return fc.uuid();
  return fc
    .oneof(
      fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 30) }),
      fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, minLength + 30) }),
    )
    .filter(inBounds);
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const lowInclusive = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? undefined : -1e6);
  const highInclusive = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? undefined : 1e6);
  if (integer) {
    const min = lowInclusive ?? Math.floor(schema.exclusiveMinimum) + 1;
    const max = highInclusive ?? Math.ceil(schema.exclusiveMaximum) - 1;
    return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
  }
  const min = lowInclusive ?? schema.exclusiveMinimum;
  const max = highInclusive ?? schema.exclusiveMaximum;
  return fc
    .double({
      min,
      max,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: lowInclusive === undefined,
      maxExcluded: highInclusive === undefined,
    })
    .filter((n) => !Object.is(n, -0));
}

/** An arbitrary of values valid against `schema`. */
export function valueArbitrary(schema: Schema, ctx: SchemaContext = {}, depth = 0): fc.Arbitrary<unknown> {
  const s = resolveRef(schema, ctx);
  if (
    s === undefined ||
    s === true ||
    (typeof s === 'object' && Object.keys(s).filter((k) => k !== 'description').length === 0)
  ) {
    return depth > 2 ? fc.string() : fc.jsonValue({ maxDepth: 2 });
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf))
    return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Schema) => valueArbitrary(x, ctx, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return numberArbitrary(s, true);
    case 'number':
      return numberArbitrary(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = s.items ? valueArbitrary(s.items, ctx, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(item, {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 4, (s.minItems ?? 0) + 4),
      });
    }
    case 'object': {
      const properties: Record<string, Schema> = s.properties ?? {};
      const required: string[] = s.required ?? [];
      if (Object.keys(properties).length === 0) {
        return depth > 2
          ? fc.constant({})
          : fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 });
      }
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, prop] of Object.entries(properties)) model[name] = valueArbitrary(prop, ctx, depth + 1);
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Validation glue: valibot schemas per endpoint → parsed input, or a 400 that names the parameter and
 * what it accepts. Unknown and repeated query parameters are refused (SPEC "Errors"). The same
 * schemas feed the OpenAPI contract (lib/openapi.ts), so the contract never lists a parameter the
 * endpoint would reject.
 */
import * as v from 'valibot';
import { badRequest } from './http/errors.ts';
import type { ApiRequest } from './http/types.ts';

export type ParamsSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/** An integer query parameter: digits only (no '1e2', no '+1', no ' 1'), within bounds. */
export function integerParam(min: number, max: number, description: string) {
  const accepts = `an integer from ${min} to ${max}`;
  return v.pipe(
    v.string(),
    v.regex(/^\d{1,10}$/, accepts),
    v.toNumber(),
    v.number(),
    v.integer(accepts),
    v.minValue(min, accepts),
    v.maxValue(max, accepts),
    v.description(description),
  );
}

export function enumParam<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return v.pipe(v.picklist(values, `one of: ${values.join(', ')}`), v.description(description));
}

/** Characters as a reader counts them: code points, so 'é' or an emoji is one, not two UTF-16 units. */
export function characters(s: string): number {
  // A surrogate pair is one code point; a lone surrogate is one too (as `for…of` counts them).
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * A string parameter whose length is counted in characters (code points), as the documents state
 * limits; the contract still says minLength/maxLength, which JSON Schema counts in code points too.
 */
export function stringParam(opts: {
  min?: number;
  max: number;
  pattern?: RegExp;
  accepts: string;
  description: string;
}) {
  const lo = opts.min ?? 1;
  const hi = opts.max;
  // A string longer than 2·max UTF-16 units has more than max code points: no need to count them.
  const length = v.check<string, string>((s) => {
    if (s.length > 2 * hi) return false;
    const n = characters(s);
    return n >= lo && n <= hi;
  }, opts.accepts);
  const schema = v.pipe(v.string(), v.minLength(lo, opts.accepts), v.maxLength(2 * hi, opts.accepts), length);
  const withMeta = v.pipe(schema, v.metadata({ minLength: lo, maxLength: hi }));
  const description = v.description<string, string>(opts.description);
  return opts.pattern
    ? v.pipe(withMeta, v.regex(opts.pattern, opts.accepts), description)
    : v.pipe(withMeta, description);
}

/** Parses a query against a strict object schema of optional string parameters. */
export function parseQuery<S extends ParamsSchema>(schema: S, req: ApiRequest): v.InferOutput<S> {
  const accepted = acceptedNames(schema);
  const input: Record<string, string> = {};
  const repeated = repeatedNames(req.url);
  const query = req.query;
  for (const name in query) {
    const value = query[name];
    if (!accepted.has(name)) {
      const list = accepted.size
        ? `Accepted parameters: ${[...accepted].join(', ')}.`
        : 'This endpoint takes no query parameters.';
      throw badRequest(`Unknown query parameter '${printable(name)}'. ${list}`, name);
    }
    if (Array.isArray(value) || repeated?.has(name))
      throw badRequest(`Query parameter '${name}' is given more than once; give it once.`, name);
    if (value !== undefined) input[name] = value;
  }
  return parseWith(schema, input, 'query parameter');
}

const namesBySchema = new WeakMap<ParamsSchema, Set<string>>();
/** The parameter names a schema accepts, in its order (read once per schema). */
function acceptedNames(schema: ParamsSchema): Set<string> {
  let names = namesBySchema.get(schema);
  if (names === undefined) namesBySchema.set(schema, (names = new Set(Object.keys(schema.entries))));
  return names;
}

/** Parses route params, URL-decoding them first (itty-router leaves them encoded). */
export function parseParams<S extends ParamsSchema>(schema: S, req: ApiRequest): v.InferOutput<S> {
  const input: Record<string, string> = {};
  const params = req.params;
  for (const name in params) {
    const value = params[name]!;
    try {
      input[name] = value.includes('%') ? decodeURIComponent(value) : value;
    } catch {
      throw badRequest(`Path parameter '${name}' is not valid percent-encoding.`, name);
    }
  }
  return parseWith(schema, input, 'path parameter');
}

/**
 * Query parameters given more than once, counted on the URL itself: itty-router keeps a repeated
 * parameter as an array, except after an empty first value ('q=&q=x' becomes 'x'). Null when there
 * cannot be any: no query, or a single parameter (no '&').
 */
function repeatedNames(url: string | undefined): Set<string> | null {
  // Only the query string is read (no whole-URL parse on every request).
  const at = typeof url === 'string' ? url.indexOf('?') : -1;
  if (at === -1 || url!.indexOf('&', at) === -1) return null;
  const end = url!.indexOf('#', at);
  const names = [...new URLSearchParams(url!.slice(at + 1, end === -1 ? undefined : end)).keys()];
  return new Set(names.filter((name, i) => names.indexOf(name) !== i));
}

const FIRST_ISSUE = { abortEarly: true } as const;

function parseWith<S extends ParamsSchema>(schema: S, input: unknown, kind: string): v.InferOutput<S> {
  const result = v.safeParse(schema, input, FIRST_ISSUE);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const name = String(issue.path?.[0]?.key ?? '');
  const received = issue.path?.[0]?.value;
  const got = typeof received === 'string' ? ` (got '${printable(received)}')` : '';
  if (received === undefined) throw badRequest(`Missing required ${kind} '${name}'${accepted(schema, name)}.`, name);
  throw badRequest(`Invalid ${kind} '${name}': must be ${issue.message}${got}.`, name);
}

/**
 * What a parameter accepts, for the 400 of a missing one: the message its own schema gives for an
 * empty value (every parameter schema's messages say what it accepts), so the text is never a copy.
 */
function accepted(schema: ParamsSchema, name: string): string {
  const entry = (schema.entries as Record<string, v.GenericSchema | undefined>)[name];
  if (!entry) return '';
  const probe = v.safeParse(entry, '', { abortEarly: true });
  return probe.success ? '' : `: give ${probe.issues[0].message}`;
}

/** Shortens and escapes user input before it is echoed in a message. */
export function printable(value: string): string {
  const cut = value.length > 60 ? value.slice(0, 60) + '…' : value;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point: they are escaped
  return cut.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

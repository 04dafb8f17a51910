/**
 * One validator for every human-service input (REST bodies and queries, MCP tool arguments, a
 * capability's spec and a delivered answer): the first problem becomes a 400 invalid_request naming the
 * field by its path, in plain words (lib/plain-words.ts). The schemas themselves are in inputs.ts.
 */
import * as v from 'valibot';
import { invalidRequest } from './errors.ts';
import { accepts, describeValue } from '../plain-words.ts';

type AnySchema = v.GenericSchema;

/**
 * Validates an input against a schema; the first problem becomes a 400 invalid_request whose message
 * names the field by its path (location.city_slug), says what it accepts in plain words and what was
 * sent (lib/plain-words.ts). `prefix` names where the input sits (spec. for a capability's spec);
 * `noun` is what the transport calls its inputs (a REST body's fields, an MCP tool's arguments).
 */
export function validateInput<S extends AnySchema>(
  schema: S,
  input: unknown,
  prefix = '',
  noun: 'field' | 'argument' = 'field',
): v.InferOutput<S> {
  if (prefix === '' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw invalidRequest(
      noun === 'field'
        ? `The body must be a JSON object (got ${describeValue(input)}).`
        : 'The arguments must be an object.',
    );
  }
  const list = listWhereObject(schema, input, []);
  if (list) {
    const field = prefix + list.join('.');
    throw invalidRequest(
      `Invalid ${noun} '${field}': give ${accepts(schemaAt(schema, list)!)} (got ${describeValue(valueAt(input, list))}).`,
      field,
    );
  }
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const keys = (issue.path ?? []).map((p) => String(p.key));
  const field = keys.length ? prefix + keys.join('.') : prefix.replace(/\.$/, '');
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    const accepted = Object.keys(entriesAt(schema, keys.slice(0, -1)) ?? {}).join(', ');
    throw invalidRequest(
      `Unknown ${noun} '${field}'.${accepted ? ` Accepted: ${accepted}.` : ' This object takes no fields.'}`,
      field,
    );
  }
  const parent = schemaAt(schema, keys.slice(0, -1));
  const keySchema = parent ? core(parent as Walkable).key : undefined;
  if (issue.path?.at(-1)?.origin === 'key' && keySchema) {
    // A record's key is at fault (metadata's): name the record, and what its keys may be.
    const owner = prefix + keys.slice(0, -1).join('.');
    throw invalidRequest(
      `Invalid ${noun} '${owner}': the key ${describeValue(keys.at(-1)).replace(/^the text /, '')} is not one; give ${accepts(keySchema)}.`,
      owner,
    );
  }
  const leaf = schemaAt(schema, keys);
  const wanted = leaf ? accepts(leaf) : issue.message;
  if (issue.input === undefined) throw invalidRequest(`Missing required ${noun} '${field}': give ${wanted}.`, field);
  if (field === '') throw invalidRequest(`Invalid body: give ${wanted}.`);
  throw invalidRequest(`Invalid ${noun} '${field}': give ${wanted} (got ${describeValue(issue.input)}).`, field);
}

type Walkable = AnySchema & {
  type: string;
  wrapped?: Walkable;
  pipe?: readonly Walkable[];
  entries?: Record<string, Walkable>;
  item?: Walkable;
  key?: Walkable;
  value?: Walkable;
  options?: readonly Walkable[];
};

/** The schema without its optional/nullable wrappers and pipe actions (the last schema of a pipe). */
function core(node: Walkable): Walkable {
  let n = node;
  for (;;) {
    if (n.wrapped) n = n.wrapped;
    else if (n.pipe) n = n.pipe.filter((p) => (p as { kind: string }).kind === 'schema').at(-1)!;
    else return n;
  }
}

/** The schema a path leads to (object fields, record values, list items), or undefined. */
function schemaAt(schema: AnySchema, path: string[]): AnySchema | undefined {
  let node: Walkable | undefined = schema as Walkable;
  for (const key of path) {
    if (!node) return undefined;
    const c: Walkable = core(node);
    if (c.entries) node = c.entries[key];
    else if (c.value) node = c.value;
    else if (c.item) node = c.item;
    else if (c.options)
      node =
        c.options.map(core).find((o) => o.entries?.[key] || o.item)?.entries?.[key] ??
        c.options.map(core).find((o) => o.item)?.item;
    else return undefined;
  }
  return node;
}

/**
 * The path of a list sent where the schema wants an object of names (a record: metadata, a spec), or
 * null: valibot's record takes a list as an object of its indexes, so it would pass as {"0": …}.
 */
function listWhereObject(schema: AnySchema, input: unknown, path: string[]): string[] | null {
  const node = core(schema as Walkable);
  if (node.value && Array.isArray(input)) return path;
  if (!node.entries || typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  for (const [key, inner] of Object.entries(node.entries)) {
    const value = (input as Record<string, unknown>)[key];
    const found = value === undefined ? null : listWhereObject(inner, value, [...path, key]);
    if (found) return found;
  }
  return null;
}

const valueAt = (input: unknown, path: string[]) =>
  path.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], input);

/** The fields a strict object accepts at a path, for the "unknown field" message. */
function entriesAt(schema: AnySchema, path: string[]): Record<string, unknown> | undefined {
  const node = schemaAt(schema, path);
  return node ? core(node as Walkable).entries : undefined;
}

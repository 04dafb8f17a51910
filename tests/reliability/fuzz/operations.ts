/**
 * The operations of a served OpenAPI document, as the fuzzer needs them: parameters with their JSON
 * Schemas, the request body schema, whether a key is needed, and the documented responses. Also the
 * contract's own verdict on a parameter value or a body (an independent Ajv validator): a request the
 * contract rejects must not be answered 2xx.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Service } from './error-shapes.ts';
import { resolveRef, type Schema } from './schema-arbitrary.ts';

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  id: string;
  service: Service;
  base: string;
  method: 'GET' | 'POST';
  path: string;
  params: Param[];
  body: Schema | null;
  /** The contract's requestBody.required: false means the body may be left out altogether. */
  bodyRequired: boolean;
  /** A key is required (a security requirement, or the MCP endpoint, which refuses anonymous calls). */
  keyed: boolean;
  /** Needs the tasks:write scope (human). */
  writeScope: boolean;
  responses: Record<string, Schema>;
  doc: Schema;
}

export function operationsOf(service: Service, doc: Schema): Operation[] {
  const base = `/${service}/v1`;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(item)) {
      const security: Array<Record<string, string[]>> = op.security ?? [];
      const scopes = security.flatMap((s) => Object.values(s).flat());
      ops.push({
        id: `${service} ${method.toUpperCase()} ${path}`,
        service,
        base,
        path,
        doc,
        method: method.toUpperCase() as 'GET' | 'POST',
        params: (op.parameters ?? []).map((p: Schema) => ({
          name: p.name,
          in: p.in,
          required: p.required === true,
          schema: resolveRef(p.schema, { doc }),
        })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        bodyRequired: op.requestBody?.required === true,
        // An empty requirement ({}) among the alternatives makes the key optional (OpenAPI: anonymous allowed).
        keyed:
          (security.length > 0 && !security.some((s) => Object.keys(s).length === 0)) ||
          (service === 'human' && path === '/mcp'),
        writeScope: scopes.includes('tasks:write'),
        responses: op.responses,
      });
    }
  }
  return ops;
}

export type Verdict = 'valid' | 'invalid' | 'unknown';

const ajv = new Ajv2020.default({ strict: false, allErrors: false });
addFormats.default(ajv);
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/** Ajv's verdict on a JSON value (refs resolved against `doc`). */
export function jsonVerdict(schema: Schema, value: unknown, doc: Schema): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    // #/components/... references resolve against the root of the compiled schema: put them there.
    validate = ajv.compile({ ...schema, components: doc?.components ?? {} });
    compiled.set(schema, validate);
  }
  return validate(value) as boolean;
}

const codePoints = (s: string) => [...s].length;

/**
 * The contract's verdict on a parameter value as the server will see it (decoded). Numbers are only
 * judged where no reading could make them valid (not a number at all, out of range, a fraction for
 * an integer); spellings like '1e3' or '+5' are left 'unknown', since the contract does not say.
 */
export function paramVerdict(param: Param, decoded: string | null): Verdict {
  if (decoded === null) return 'unknown'; // not decodable: the server may keep it raw
  const s = param.schema;
  if (Array.isArray(s.enum)) return s.enum.includes(decoded) ? 'valid' : 'invalid';
  if (s.type === 'integer' || s.type === 'number') {
    const n = Number(decoded);
    if (decoded.trim() === '' || Number.isNaN(n)) return 'invalid';
    if (!Number.isFinite(n)) return 'invalid';
    if (s.minimum !== undefined && n < s.minimum) return 'invalid';
    if (s.maximum !== undefined && n > s.maximum) return 'invalid';
    if (s.exclusiveMinimum !== undefined && n <= s.exclusiveMinimum) return 'invalid';
    if (s.type === 'integer' && !Number.isInteger(n)) return 'invalid';
    return /^-?\d+(\.\d+)?$/.test(decoded) ? 'valid' : 'unknown';
  }
  if (s.type === 'string') {
    const length = codePoints(decoded);
    // Both ways of counting must agree that a length is out of bounds (code points vs UTF-16 units).
    if (s.minLength !== undefined && length < s.minLength && decoded.length < s.minLength) return 'invalid';
    if (s.maxLength !== undefined && length > s.maxLength && decoded.length > s.maxLength) return 'invalid';
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(decoded)) return 'invalid';
    return 'valid';
  }
  return 'unknown';
}

/** A query value as URLSearchParams decodes it ('+' is a space), or null when it is not decodable. */
export function decodeQuery(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** A path segment as the server decodes it (lib/validate.ts parseParams), or null. */
export function decodePath(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

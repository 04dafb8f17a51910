/**
 * A route registry and the OpenAPI 3.1 document generated from it. Each route module declares its
 * operation once (method, path, the valibot schemas that validate it, its responses); the router is
 * built from the same declarations and the contract is generated from them with
 * @valibot/to-json-schema (draft 2020-12, OpenAPI 3.1's schema dialect).
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { Reply } from './http/types.ts';
import type { ParamsSchema } from './validate.ts';

type AnySchema = v.GenericSchema;
export type Json = Record<string, unknown>;

export interface ResponseSpec {
  description: string;
  /** A component name (see ApiSpec.components) or an inline schema. */
  schema?: string | AnySchema;
  contentType?: string;
  /** Extra content types offered for the same response (e.g. CSV beside NDJSON). */
  alternatives?: Record<string, Json>;
  headers?: readonly string[];
}

export interface OperationSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** itty-router path relative to the base, e.g. '/calls/:id'. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** The query the router accepts (lib/http/operation.ts); none declared, none accepted. */
  query?: ParamsSchema;
  /** The path parameters the router parses (URL-decoded) before the handler runs. */
  params?: ParamsSchema;
  /** Request headers the operation reads (documented as `in: header`; the handler validates them). */
  headers?: ParamsSchema;
  /** The JSON body the router reads and validates through the service's BodyParsing. */
  body?: AnySchema;
  /** The body may be left out altogether (the contract's requestBody.required is then false). */
  bodyOptional?: boolean;
  responses: Record<number, ResponseSpec>;
  /** Name of a security requirement set, or none for public operations. */
  security?: Array<Record<string, string[]>>;
}

export interface ApiSpec {
  title: string;
  version: string;
  description: string;
  base: string;
  operations: OperationSpec[];
  components: Record<string, AnySchema>;
  securitySchemes?: Json;
  /** Response header definitions (components.headers), by name. */
  headers?: Record<string, Json>;
  /** The headers every response carries unless a ResponseSpec lists its own. */
  everyResponseHeaders?: readonly string[];
  /** Responses every operation may answer (errors common to all). */
  commonResponses?: Record<number, ResponseSpec>;
}

const convert = (schema: AnySchema): Json => {
  const { $schema: _drop, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'output',
    ignoreActions: ['check'],
  }) as Json;
  return rest;
};

/** '/calls/:id' → '/calls/{id}' */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

export function buildOpenApi(spec: ApiSpec): Json {
  const paths: Record<string, Json> = {};
  for (const op of spec.operations) {
    const parameters = [
      ...parameterList(op.params, 'path'),
      ...parameterList(op.query, 'query'),
      ...parameterList(op.headers, 'header'),
    ];
    const responses: Json = {};
    for (const [status, response] of Object.entries({ ...spec.commonResponses, ...op.responses })) {
      responses[status] = responseObject(response, spec);
    }
    const operation: Json = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? { requestBody: { required: !op.bodyOptional, content: { 'application/json': { schema: convert(op.body) } } } }
        : {}),
      responses,
      ...(op.security ? { security: op.security } : {}),
    };
    const key = openApiPath(op.path);
    paths[key] = { ...(paths[key] ?? {}), [op.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: { title: spec.title, version: spec.version, description: spec.description },
    servers: [{ url: spec.base }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(spec.components).map(([name, schema]) => [name, convert(schema)])),
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.securitySchemes ? { securitySchemes: spec.securitySchemes } : {}),
    },
  };
}

function parameterList(schema: ParamsSchema | undefined, where: 'path' | 'query' | 'header'): Json[] {
  if (!schema) return [];
  return Object.entries(schema.entries).map(([name, entry]) => {
    const json = convert(entry as AnySchema);
    const { description, ...rest } = json;
    const optional = (entry as { type: string }).type === 'optional';
    return {
      name,
      in: where,
      required: where === 'path' ? true : !optional,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function responseObject(response: ResponseSpec, spec: ApiSpec): Json {
  const headers = Object.fromEntries(
    (response.headers ?? spec.everyResponseHeaders ?? []).map((h) => [h, { $ref: `#/components/headers/${h}` }]),
  );
  const content: Json = {};
  if (response.schema !== undefined) {
    const schema =
      typeof response.schema === 'string'
        ? { $ref: `#/components/schemas/${response.schema}` }
        : convert(response.schema);
    content[response.contentType ?? 'application/json'] = { schema };
  }
  Object.assign(content, response.alternatives ?? {});
  return {
    description: response.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/**
 * The `GET /openapi.json` operation every service serves: the contract generated, once, from the
 * same operation list that builds the router. It takes no query (the router refuses any parameter).
 */
/** `finish` may rewrite the generated document (the impact contract folds repeated schemas into $refs). */
export function contractOperation(spec: () => ApiSpec, finish: (doc: Json) => Json = (doc) => doc) {
  let document: string | undefined;
  return {
    spec: {
      method: 'GET',
      path: '/openapi.json',
      operationId: 'getContract',
      summary: 'This contract (OpenAPI 3.1)',
      responses: { 200: { description: 'The OpenAPI 3.1 document', schema: v.record(v.string(), v.unknown()) } },
    } satisfies OperationSpec,
    handle(): Reply {
      document ??= JSON.stringify(finish(buildOpenApi(spec())));
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' },
        body: document,
      };
    },
  };
}

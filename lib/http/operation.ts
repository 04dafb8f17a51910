/**
 * An operation: its declaration (OperationSpec, from which the contract is generated) and its handler,
 * which receives the request's inputs already parsed with the schemas the operation declares. The
 * router runs the stages in this order, so a request wrong in several ways always gets the same answer:
 *
 *  1. `before`: checks that come before any input is read (funding's /export: 403 for a key without a
 *     subscription, whatever its parameters);
 *  2. the query, against `spec.query` (lib/validate.ts parseQuery; none declared: no parameter is
 *     accepted, so an unknown one is refused everywhere, SPEC "Errors");
 *  3. the path parameters, against `spec.params` (URL-decoded first);
 *  4. `beforeBody`: checks that come after the parameters and before the body (human: the caller, its
 *     scope, the Idempotency-Key);
 *  5. the body, when `spec.body` is declared: read and validated by the service's own BodyParsing (its
 *     media-type and JSON rules, its error shape), unless the operation reads it itself (`ownBody`).
 *
 * Declared headers are documentation only: the handler validates them (an Idempotency-Key has its own
 * error code, not a parameter's 400).
 */
import * as v from 'valibot';
import type { OperationSpec } from '../openapi.ts';
import { parseParams, parseQuery, type ParamsSchema } from '../validate.ts';
import type { ApiRequest, Reply } from './types.ts';

type BodySchema = v.GenericSchema;

/** What an operation without a query accepts: nothing (the router's default); no params: none. */
const NOTHING = v.object({});
type Nothing = typeof NOTHING;

/** The inputs a handler receives, typed from the schemas its spec declares. */
export interface Inputs<Q extends ParamsSchema, P extends ParamsSchema, B, O extends boolean> {
  query: v.InferOutput<Q>;
  params: v.InferOutput<P>;
  /** The validated body; undefined when the spec declares none, or it is optional and was not sent. */
  body: B extends BodySchema ? v.InferOutput<B> | (O extends true ? undefined : never) : undefined;
}

/** The inputs with their types erased, as the router passes them. */
interface ParsedInputs {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body: unknown;
}

/** How a service reads and validates a JSON body, in its own media-type rules and error shape. */
export interface BodyParsing {
  /** The parsed body; undefined only when `optional` and nothing was sent. */
  read(req: ApiRequest, optional: boolean): Promise<unknown>;
  validate<S extends BodySchema>(schema: S, body: unknown): v.InferOutput<S>;
}

/** An operation as the router holds it: the inputs' types erased (defineOperation checks them). */
export interface Operation {
  spec: OperationSpec;
  before?: (req: ApiRequest) => void;
  beforeBody?: (req: ApiRequest) => void;
  /** The handler reads the body itself (a protocol that refuses a malformed one in its own shape: MCP). */
  ownBody?: boolean;
  handle(req: ApiRequest, input: ParsedInputs): Reply | Promise<Reply>;
}

/**
 * Declares an operation whose handler receives typed inputs: `input.query` is the output type of
 * `spec.query`, `input.params` of `spec.params`, `input.body` of `spec.body` (integers as numbers).
 */
export function defineOperation<
  Q extends ParamsSchema = Nothing,
  P extends ParamsSchema = Nothing,
  B extends BodySchema | undefined = undefined,
  O extends boolean = false,
>(operation: {
  spec: OperationSpec & { query?: Q; params?: P; body?: B; bodyOptional?: O };
  before?: (req: ApiRequest) => void;
  beforeBody?: (req: ApiRequest) => void;
  ownBody?: boolean;
  handle: (req: ApiRequest, input: Inputs<Q, P, B, O>) => Reply | Promise<Reply>;
}): Operation {
  // The one place the inputs' types are erased: withInputs produces them from the same spec.
  return operation as unknown as Operation;
}

/**
 * The handler the router registers for an operation: stages 1 to 5 above, then `handle`. Built once per
 * operation; a request without a body to read stays synchronous. `body` is the service's BodyParsing.
 */
export function withInputs(op: Operation, body: BodyParsing | undefined): (req: ApiRequest) => Reply | Promise<Reply> {
  const schema = op.ownBody ? undefined : op.spec.body;
  if (schema && !body) throw new Error(`${op.spec.operationId} declares a body, and its service reads none`);
  const optional = op.spec.bodyOptional === true;
  return (req) => {
    op.before?.(req);
    const query = parseQuery(op.spec.query ?? NOTHING, req);
    const params = op.spec.params ? parseParams(op.spec.params, req) : {};
    op.beforeBody?.(req);
    if (!schema || !body) return op.handle(req, { query, params, body: undefined });
    return body
      .read(req, optional)
      .then((raw) =>
        op.handle(req, { query, params, body: raw === undefined ? undefined : body.validate(schema, raw) }),
      );
  };
}

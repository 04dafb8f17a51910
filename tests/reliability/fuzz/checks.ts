/**
 * The properties every response must have (issue 8), one function per response, returning what is
 * wrong (empty when nothing is):
 *  - never a 5xx (the server runs on an uncorrupted database; the one documented exception, impact's
 *    figure_check_failed 500 for a deliberately corrupted figure, is tested in
 *    tests/e2e/impact/faults.test.ts and cannot happen here);
 *  - an X-Request-Id on every response, ours kept when it was a plain token;
 *  - every 4xx in the service's documented error shape (error-shapes.ts) and, when the request still
 *    names the operation, documented for it and valid against the contract's schema for that status;
 *  - every 2xx valid against the operation's response schema in the contract (Ajv, via
 *    tests/helpers/contract.ts), NDJSON line by line, other media types as documented;
 *  - a request the contract rejects is not answered 2xx.
 */
import { responseValidator } from '../../helpers/contract.ts';
import { errorShapeProblem, expectedShape } from './error-shapes.ts';
import type { Operation } from './operations.ts';
import type { RawResponse } from './raw-http.ts';
import type { Built } from './requests.ts';
import type { Schema } from './schema-arbitrary.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export type Validators = Map<Schema, ReturnType<typeof responseValidator>>;

export function validatorFor(validators: Validators, doc: Schema) {
  let v = validators.get(doc);
  if (!v) validators.set(doc, (v = responseValidator(doc)));
  return v;
}

/** Whether a 200 from the MCP endpoint carries a refusal (a JSON-RPC error, or a tool result with isError). */
export function mcpRefusal(json: unknown): boolean {
  const messages = Array.isArray(json) ? json : [json];
  return messages.some(
    (m) =>
      typeof m === 'object' &&
      m !== null &&
      ('error' in m || (m as { result?: { isError?: boolean } }).result?.isError === true),
  );
}

export function responseProblems(op: Operation, built: Built, res: RawResponse, validators: Validators): string[] {
  const problems: string[] = [];
  const validate = validatorFor(validators, op.doc);
  // Node's parser refuses a header block over the limit before the server sees the request: a bare
  // 431, which tests/reliability/http-abuse.test.ts checks. Anything else must be the server's answer.
  if (built.overHeaderLimit && res.status === 431) return [];
  if (res.status >= 500) problems.push(`a ${res.status}`);

  const id = res.headers['x-request-id'];
  if (typeof id !== 'string' || !REQUEST_ID.test(id))
    problems.push(`X-Request-Id missing or malformed (${String(id)})`);
  else if (built.sentRequestId && id !== built.sentRequestId)
    problems.push(`X-Request-Id ${id} is not the one sent (${built.sentRequestId})`);

  // Judged as the operation the server routed the request to (`/runs/..` is the index).
  const routed = built.routedOp;
  const documented = routed !== null && routed.responses[String(res.status)] !== undefined;
  if (routed && !documented) problems.push(`status ${res.status} is not documented for ${routed.id}`);

  if (res.status >= 400 && res.status < 500) {
    const shape = expectedShape(built.raw.target);
    const problem = errorShapeProblem(shape, res.status, res.json, res.contentType);
    // A 4xx from the MCP transport itself (the SDK) is a JSON-RPC error, as the MCP specification has it
    // and the contract documents for /mcp: judged by the contract's schema alone.
    const jsonRpc =
      routed?.path === '/mcp' &&
      typeof res.json === 'object' &&
      res.json !== null &&
      (res.json as { jsonrpc?: unknown }).jsonrpc === '2.0';
    if (problem && !jsonRpc) problems.push(`4xx not in the ${shape} error shape: ${problem}`);
    if ((!problem || jsonRpc) && documented) {
      const schemaProblem = validate(routed.path, routed.method, res.status, res.json);
      if (schemaProblem) problems.push(`4xx body fails the contract: ${schemaProblem}`);
    }
  }

  if (res.status >= 200 && res.status < 300) {
    if (built.mustRefuse)
      problems.push(`answered ${res.status} to a request the contract rejects (${built.mustRefuse})`);
    if (routed) problems.push(...successProblems(routed, res, validate));
  }
  return problems;
}

const lineValidators = new WeakMap<Operation, ReturnType<typeof responseValidator>>();

/** A validator of one NDJSON line: the documented schema as if it were a JSON response. */
function lineValidator(op: Operation, schema: Schema) {
  let check = lineValidators.get(op);
  if (!check) {
    const lineDoc = {
      ...op.doc,
      paths: { '/line': { get: { responses: { '200': { content: { 'application/json': { schema } } } } } } },
    };
    lineValidators.set(op, (check = responseValidator(lineDoc)));
  }
  return check;
}

function successProblems(op: Operation, res: RawResponse, validate: ReturnType<typeof responseValidator>): string[] {
  const media = res.contentType.split(';')[0]!.trim().toLowerCase();
  const content = op.responses[String(res.status)]?.content as Record<string, { schema?: Schema }> | undefined;
  if (!content)
    return res.body.length && res.status !== 202 ? [`a ${res.status} with a body where none is documented`] : [];
  if (!(media in content))
    return [`media type '${media}' is not documented for ${res.status} (${Object.keys(content).join(', ')})`];
  // An event stream (MCP, 2025-era requests) carries the documented JSON response as its event's data.
  if (media === 'application/json' || (media === 'text/event-stream' && content['application/json'])) {
    if (res.json === undefined) return [`a ${media} 2xx whose JSON does not parse`];
    const problem = validate(op.path, op.method, res.status, res.json);
    return problem ? [`2xx body fails the contract: ${problem.slice(0, 600)}`] : [];
  }
  if (media === 'application/x-ndjson') {
    const check = lineValidator(op, content[media]!.schema);
    const lines = res.text.split('\n').filter(Boolean);
    for (const [i, line] of lines.entries()) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return [`NDJSON line ${i + 1} is not JSON`];
      }
      const problem = check('/line', 'GET', 200, value);
      if (problem) return [`NDJSON line ${i + 1} fails the contract: ${problem.slice(0, 400)}`];
    }
  }
  return [];
}

/**
 * The documented error bodies (SPEC "Errors, per document"), checked field by field and independently
 * of the contracts' own Error schemas (which the fuzzer checks as well):
 *  - impact:  {"error": {"status": <the HTTP status>, "code": string, "detail": string}}
 *  - human:   {"error": {"code": string, "message": string}}
 *  - funding: {"error": string, "message": string}
 *  - outside any service (routes/index.ts, lib/http/adapter.ts): {"error": string, "message": string}
 */
export type Service = 'impact' | 'human' | 'funding';
export type Shape = Service | 'outside';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
const keysAre = (o: Record<string, unknown>, keys: string[]) =>
  Object.keys(o).sort().join(',') === [...keys].sort().join(',');

/**
 * The path the server routes on: the target as a WHATWG URL resolves it (itty-router reads
 * `new URL(req.url).pathname`), so `.`, `..`, `%2e%2e` segments are resolved before routing.
 */
export function routedPath(target: string): string {
  try {
    return new URL(target, 'http://localhost').pathname;
  } catch {
    return target.split('?')[0]!;
  }
}

/** The shape a response to `target` must have: the service whose base the routed path starts under. */
export function expectedShape(target: string): Shape {
  const path = routedPath(target);
  for (const service of ['impact', 'human', 'funding'] as const) if (path.startsWith(`/${service}/v1/`)) return service;
  return 'outside';
}

/** Null when `body` is a well-formed error of `shape` for `status`, else what is wrong. */
export function errorShapeProblem(shape: Shape, status: number, body: unknown, contentType: string): string | null {
  if (!/^application\/json/i.test(contentType)) return `content-type is '${contentType}', not application/json`;
  if (!isObject(body)) return 'the body is not a JSON object';
  switch (shape) {
    case 'impact': {
      const e = body.error;
      if (!keysAre(body, ['error']) || !isObject(e)) return 'impact errors are {"error": {...}} and nothing else';
      if (!keysAre(e, ['status', 'code', 'detail']))
        return `impact error members are status, code, detail (got ${Object.keys(e).join(', ')})`;
      if (e.status !== status) return `error.status ${String(e.status)} differs from the HTTP status ${status}`;
      if (!nonEmpty(e.code) || !nonEmpty(e.detail)) return 'code and detail are non-empty strings';
      return null;
    }
    case 'human': {
      const e = body.error;
      if (!keysAre(body, ['error']) || !isObject(e)) return 'human errors are {"error": {...}} and nothing else';
      if (!keysAre(e, ['code', 'message']))
        return `human error members are code, message (got ${Object.keys(e).join(', ')})`;
      if (!nonEmpty(e.code) || !nonEmpty(e.message)) return 'code and message are non-empty strings';
      return null;
    }
    case 'funding':
    case 'outside': {
      if (!keysAre(body, ['error', 'message']))
        return `errors are {"error", "message"} (got ${Object.keys(body).join(', ')})`;
      if (!nonEmpty(body.error) || !nonEmpty(body.message)) return 'error and message are non-empty strings';
      return null;
    }
  }
}

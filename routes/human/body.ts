/**
 * JSON request bodies, read by the router for every operation that declares one (lib/http/operation.ts,
 * stage 5). The document says bodies are JSON (Content-Type: application/json): anything
 * else is 415 unsupported_media_type, naming what to send; text that is not JSON is 400
 * invalid_request with the parser's position. The adapter caps the size (413 above BODY_LIMIT_BYTES).
 * What the JSON must contain is checked by the operation's declared schema (lib/human/inputs.ts) with
 * the service's validator: the first problem is a 400 invalid_request naming the field.
 */
import type * as v from 'valibot';
import type { BodyParsing } from '../../lib/http/operation.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { invalidRequest } from '../../lib/human/errors.ts';
import { validateInput } from '../../lib/human/validate-input.ts';
import { humanHttpError } from './errors.ts';

export const humanBody: BodyParsing = {
  read: (req, optional) => readJson(req, { optional }),
  validate<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
    validateInput(schema, body);
    // The body as sent: the schemas have no transforms, so it is their output type, and an order's
    // idempotency fingerprint (db/human/orders.ts) is taken of the body as sent, every key included.
    return body as v.InferOutput<S>;
  },
};

/** The parsed body; undefined only when `optional` and no body was sent (POST /tasks/{ref}/cancel). */
async function readJson(req: ApiRequest, options: { optional?: boolean } = {}): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '');
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if (options.optional && type === '' && (length === undefined || length === '0') && !chunked) return undefined;
  const [media, ...params] = type.split(';').map((s) => s.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith('charset='))
    ?.slice(8)
    .replace(/"/g, '');
  if (media !== 'application/json' || (charset !== undefined && charset !== 'utf-8')) {
    throw humanHttpError(
      'unsupported_media_type',
      `Send the body as JSON with Content-Type: application/json${type ? ` (got '${type.slice(0, 60)}')` : ' (no Content-Type was sent)'}.`,
    );
  }
  const raw = await req.body();
  if (raw.length === 0) {
    if (options.optional) return undefined;
    throw invalidRequest('The body is empty: send a JSON object.');
  }
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw invalidRequest(`The body is not valid JSON: ${(err as Error).message}.`);
  }
}

/**
 * JSON request bodies of the funding API (its only writes: saved searches), read by the router for
 * each operation that declares one: Content-Type application/json (415 unsupported_media_type
 * otherwise), JSON text (400 bad_request with the parser's message), then the operation's schema (400
 * bad_request naming the field and what it takes, from lib/plain-words.ts through valibot's messages).
 */
import * as v from 'valibot';
import type { BodyParsing } from '../../lib/http/operation.ts';
import { fundingError } from './errors.ts';

export const fundingBody: BodyParsing = {
  async read(req) {
    const media = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (media !== 'application/json')
      throw fundingError('unsupported_media_type', 'Send the body as JSON, with Content-Type: application/json.');
    const text = (await req.body()).toString('utf8').replace(/^\uFEFF/, '');
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw fundingError('bad_request', `The body is not JSON: ${(err as Error).message}.`);
    }
  },
  validate<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
    const result = v.safeParse(schema, body, { abortEarly: true });
    if (result.success) return result.output;
    const issue = result.issues[0];
    const field = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw fundingError(
      'bad_request',
      field ? `Invalid body field '${field}': ${issue.message}.` : `Invalid body: ${issue.message}.`,
      {},
      field || undefined,
    );
  },
};

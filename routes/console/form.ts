/**
 * Reading a console form: only application/x-www-form-urlencoded, CSRF checked before anything else
 * is looked at, fields validated with valibot into a message a person can act on; and the delivery
 * form's larger multipart body (read here, at the I/O side; parsed by the pure lib/human/multipart.ts).
 */
import * as v from 'valibot';
import { csrfValid } from '../../lib/csrf.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { MAX_FILE_BYTES, MAX_FILES } from '../../lib/human/uploads.ts';
import type { ConsoleState } from './state.ts';

export async function readForm(req: ApiRequest, state: ConsoleState, secret: Buffer): Promise<URLSearchParams> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, 'unsupported_media_type', 'Forms are sent as application/x-www-form-urlencoded.');
  }
  const form = new URLSearchParams((await req.body()).toString('utf8'));
  if (!csrfValid(secret, state.visitor, state.sessionToken, form.get('csrf'))) {
    throw new HttpError(
      403,
      'csrf',
      'This form has expired or did not come from this site. Reload the page and try again.',
    );
  }
  return form;
}

/** Validates named fields (each given once) against a schema; throws a 400 with the first problem. */
export function fields<S extends v.ObjectSchema<v.ObjectEntries, undefined>>(
  form: URLSearchParams,
  schema: S,
): v.InferOutput<S> {
  const input: Record<string, string> = {};
  for (const name of Object.keys(schema.entries)) {
    const values = form.getAll(name);
    if (values.length > 1) throw new HttpError(400, 'bad_request', `The field ${name} was sent more than once.`);
    if (values.length === 1) input[name] = values[0]!;
  }
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (!result.success) throw new HttpError(400, 'bad_request', result.issues[0].message);
  return result.output;
}

export const email = v.pipe(
  v.string('Enter your e-mail address.'),
  v.trim(),
  v.nonEmpty('Enter your e-mail address.'),
  v.maxLength(254, 'An e-mail address has at most 254 characters.'),
  v.regex(/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/, 'That is not an e-mail address.'),
);

export const password = v.pipe(
  v.string('Enter your password.'),
  v.nonEmpty('Enter your password.'),
  v.maxLength(200, 'A password has at most 200 characters.'),
);

/**
 * Reads an upload's body up to `limit` bytes (the adapter's default, BODY_LIMIT_BYTES, is too small for
 * photos; only this route takes more), with a 413 that says what is allowed.
 */
export async function readLargeBody(req: ApiRequest, limit: number): Promise<Buffer> {
  try {
    return await req.body(limit);
  } catch (err) {
    if (err instanceof HttpError && err.status === 413) {
      throw new HttpError(
        413,
        'payload_too_large',
        `The upload is larger than ${Math.round(limit / 1_048_576)} MiB: at most ${MAX_FILES} files of ${MAX_FILE_BYTES / 1_048_576} MiB each.`,
      );
    }
    throw err;
  }
}

/** The funding document's error body: `{"error": "<stable code>", "message": "<human text>"}`. */
import type { HttpError } from '../../lib/http/errors.ts';
import { jsonReply, type Reply } from '../../lib/http/types.ts';

export function renderFundingError(err: HttpError): Reply {
  return jsonReply(err.status, { error: err.code, message: err.message }, err.headers);
}

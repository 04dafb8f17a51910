/**
 * The impact document's error body (SPEC "Errors, per document"):
 * `{"error": {"status": 400, "code": "bad_request", "detail": "…"}}`, where `detail` names the
 * parameter at fault and what it accepts. Also the two faults the impact service tells apart from a
 * plain 500: a figure that failed its checks (rule 4) and a database that does not answer (503).
 */
import { HttpError } from '../../lib/http/errors.ts';
import { jsonReply, type Reply } from '../../lib/http/types.ts';

export function renderImpactError(err: HttpError): Reply {
  return jsonReply(err.status, { error: { status: err.status, code: err.code, detail: err.message } }, { ...err.headers, 'cache-control': 'no-store' });
}

export const databaseUnavailable = () =>
  new HttpError(503, 'database_unavailable', 'The impact database is not available right now. Try again shortly.', { 'retry-after': '30' });

/**
 * The impact service at the HTTP edge: every code its API answers with and the status each carries,
 * in one table, and its error body (SPEC "Errors, per document"):
 * `{"error": {"status": 400, "code": "bad_request", "detail": "…"}}`, where `detail` names the
 * parameter at fault and what it accepts. Also the two faults the impact service tells apart from a
 * plain 500: a figure that failed its checks (rule 4) and a database that does not answer (503).
 */
import { HttpError } from '../../lib/http/errors.ts';
import { jsonReply, type Reply } from '../../lib/http/types.ts';
import type { ImpactErrorCode } from '../../lib/impact/errors.ts';

export const IMPACT_STATUS = {
  bad_request: 400,
  invalid_key: 401,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal_error: 500,
  figure_check_failed: 500,
  database_unavailable: 503,
} as const satisfies Record<ImpactErrorCode, number>;

/** An impact refusal or fault, its status from the table. */
export function impactError(
  code: ImpactErrorCode,
  detail: string,
  headers: Record<string, string> = {},
  param?: string,
): HttpError {
  return new HttpError(IMPACT_STATUS[code], code, detail, headers, param);
}

export function renderImpactError(err: HttpError): Reply {
  return jsonReply(
    err.status,
    { error: { status: err.status, code: err.code, detail: err.message } },
    { ...err.headers, 'cache-control': 'no-store' },
  );
}

export const databaseUnavailable = () =>
  impactError('database_unavailable', 'The impact database is not available right now. Try again shortly.', {
    'retry-after': '30',
  });

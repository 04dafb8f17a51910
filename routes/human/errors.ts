/**
 * The human document's error body (SPEC "Errors", human): {"error": {"code", "message"}}. The shared
 * stages raise generic codes (bad_request from lib/validate.ts); they are renamed to this service's.
 */
import type { HttpError } from '../../lib/http/errors.ts';
import { jsonReply, type Reply } from '../../lib/http/types.ts';

const RENAMED: Record<string, string> = { bad_request: 'invalid_request' };

export function renderHumanError(err: HttpError): Reply {
  return jsonReply(err.status, { error: { code: RENAMED[err.code] ?? err.code, message: err.message } }, { 'cache-control': 'no-store', ...err.headers });
}

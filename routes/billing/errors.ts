/** The billing endpoint's error body: the human service's shape, {"error": {"code", "message"}}. */
import { jsonReply, type Reply } from '../../lib/http/types.ts';

export const billingError = (status: number, code: string, message: string): Reply =>
  jsonReply(status, { error: { code, message } });

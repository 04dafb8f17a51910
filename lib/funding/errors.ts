/** The codes the funding API answers with (the contract's error enum; SPEC "Errors", funding). */
export const FUNDING_ERROR_CODES = [
  'bad_request',
  'invalid_key',
  'revoked_key',
  'key_required',
  'subscription_required',
  'not_found',
  'method_not_allowed',
  'limit_reached',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'quota_exceeded',
  'internal_error',
  'service_unavailable',
] as const;

export type FundingErrorCode = (typeof FUNDING_ERROR_CODES)[number];

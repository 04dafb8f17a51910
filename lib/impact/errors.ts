/** The codes the impact API answers with (the contract's error enum; SPEC "Errors, per document"). */
export const IMPACT_ERROR_CODES = [
  'bad_request',
  'invalid_key',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'internal_error',
  'figure_check_failed',
  'database_unavailable',
] as const;

export type ImpactErrorCode = (typeof IMPACT_ERROR_CODES)[number];

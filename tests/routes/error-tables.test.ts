/**
 * The funding and impact error tables at the edge: a status for exactly the codes each contract lists,
 * the statuses SPEC and the documents give (written out here independently), and the factories and
 * renderers answering them in each service's body shape.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FUNDING_ERROR_CODES } from '../../lib/funding/errors.ts';
import { IMPACT_ERROR_CODES } from '../../lib/impact/errors.ts';
import { FUNDING_STATUS, fundingError, renderFundingError } from '../../routes/funding/errors.ts';
import { IMPACT_STATUS, databaseUnavailable, impactError, renderImpactError } from '../../routes/impact/errors.ts';

test('funding: a status for every code of the contract, as the document gives it', () => {
  assert.deepEqual(Object.keys(FUNDING_STATUS).sort(), [...FUNDING_ERROR_CODES].sort());
  const expected = {
    bad_request: 400,
    invalid_key: 401,
    revoked_key: 401,
    // Issue 27: saved searches need a key, are bounded, and take JSON bodies.
    key_required: 401,
    subscription_required: 403,
    not_found: 404,
    method_not_allowed: 405,
    limit_reached: 409,
    payload_too_large: 413,
    unsupported_media_type: 415,
    rate_limited: 429,
    quota_exceeded: 429,
    internal_error: 500,
    service_unavailable: 503,
  };
  assert.deepEqual({ ...FUNDING_STATUS }, expected);
  const reply = renderFundingError(fundingError('subscription_required', 'Export is part of the paid plan.'));
  assert.equal(reply.status, 403);
  assert.deepEqual(JSON.parse(String(reply.body)), {
    error: 'subscription_required',
    message: 'Export is part of the paid plan.',
  });
});

test('impact: a status for every code of the contract, as SPEC gives it', () => {
  assert.deepEqual(Object.keys(IMPACT_STATUS).sort(), [...IMPACT_ERROR_CODES].sort());
  const expected = {
    bad_request: 400,
    invalid_key: 401,
    not_found: 404,
    method_not_allowed: 405,
    rate_limited: 429,
    internal_error: 500,
    figure_check_failed: 500,
    database_unavailable: 503,
  };
  assert.deepEqual({ ...IMPACT_STATUS }, expected);
  const reply = renderImpactError(impactError('figure_check_failed', 'A figure failed its checks.'));
  assert.equal(reply.status, 500);
  assert.deepEqual(JSON.parse(String(reply.body)), {
    error: { status: 500, code: 'figure_check_failed', detail: 'A figure failed its checks.' },
  });
  const down = databaseUnavailable();
  assert.equal(down.status, 503);
  assert.equal(down.headers['retry-after'], '30');
});

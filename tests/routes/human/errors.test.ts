/**
 * The human service's error table: each domain refusal its rules raise becomes, at the edge, the
 * status and headers SPEC gives its code ("Errors", human), with its message and parameter kept; what
 * is not a human refusal passes through untouched (and becomes a logged 500 if nothing else claims it).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainError } from '../../../lib/domain-error.ts';
import { HttpError } from '../../../lib/http/errors.ts';
import * as human from '../../../lib/human/errors.ts';
import { HUMAN_STATUS, humanEdgeError, renderHumanError } from '../../../routes/human/errors.ts';

// SPEC "Errors, per document", human, written out independently of the table.
const cases: Array<[DomainError, number, string, Record<string, string>]> = [
  [human.invalidRequest('Unknown field x.', 'x'), 400, 'invalid_request', {}],
  [human.notFound('No task tsk_x.'), 404, 'not_found', {}],
  [human.forbiddenScope('This key lacks tasks:write.'), 403, 'forbidden_scope', {}],
  [human.invalidState('Task is started.'), 409, 'invalid_state', {}],
  [human.priceAboveMax('The price is 1800 cents.'), 409, 'price_above_max', {}],
  [human.insufficientBalance('The balance does not cover it.'), 402, 'insufficient_balance', {}],
  [human.idempotencyKeyRequired('Send an Idempotency-Key.'), 400, 'idempotency_key_required', {}],
  [human.idempotencyKeyReused('Used for another order.'), 422, 'idempotency_key_reused', {}],
  [human.idempotencyKeyInFlight('Being processed.'), 409, 'idempotency_key_in_flight', { 'retry-after': '1' }],
  [human.locationNotServed('Not served in IT/rome.'), 422, 'location_not_served', {}],
  [human.slaNotServed('Not with express there.'), 422, 'sla_not_served', {}],
  [human.noOneAvailable('Nobody is on duty in FR/paris.'), 409, 'no_one_available', {}],
];

for (const [err, status, code, headers] of cases) {
  test(`${code} is ${status} at the edge`, () => {
    assert.ok(human.isHumanError(err));
    const mapped = humanEdgeError(err);
    assert.ok(mapped instanceof HttpError);
    assert.equal(mapped.status, status);
    assert.equal(mapped.code, code);
    assert.equal(mapped.message, err.message);
    assert.equal(mapped.param, err.param);
    assert.deepEqual(mapped.headers, headers);
    const reply = renderHumanError(mapped);
    assert.equal(reply.status, status);
    assert.deepEqual(JSON.parse(String(reply.body)), { error: { code, message: err.message } });
  });
}

test('every domain code has a case above, and the table has a status for every code of the contract', () => {
  assert.deepEqual(cases.map((c) => c[2]).sort(), [...human.HUMAN_DOMAIN_CODES].sort());
  assert.deepEqual(Object.keys(HUMAN_STATUS).sort(), [...human.HUMAN_ERROR_CODES].sort());
});

test("a refusal's details (an order's alternatives) are rendered beside its code and message", () => {
  const alternatives = [{ location: { country_iso: 'ES', city_slug: 'madrid' }, sla: 'standard', price_cents: 1200 }];
  const mapped = humanEdgeError(human.noOneAvailable('Nobody here.', 'location', { alternatives })) as HttpError;
  assert.deepEqual(JSON.parse(String(renderHumanError(mapped).body)), {
    error: { code: 'no_one_available', message: 'Nobody here.', alternatives },
  });
});

test('a missing scope is challenged as RFC 6750 says: insufficient_scope, naming the scope', () => {
  const mapped = humanEdgeError(human.forbiddenScope('This key lacks tasks:write.', 'tasks:write')) as HttpError;
  assert.equal(
    mapped.headers['www-authenticate'],
    'Bearer realm="human", error="insufficient_scope", scope="tasks:write"',
  );
});

test('the Idempotency-Key refusals name the header as the parameter at fault', () => {
  assert.equal(human.idempotencyKeyReused('x').param, 'Idempotency-Key');
  assert.equal(human.invalidRequest('x').param, undefined);
});

test('what is not a human refusal passes through untouched', () => {
  const other = new DomainError('quota_gone', 'another service');
  const edge = new HttpError(429, 'rate_limited', 'wait');
  const fault = new Error('boom');
  assert.equal(human.isHumanError(other), false);
  assert.equal(humanEdgeError(other), other);
  assert.equal(humanEdgeError(edge), edge);
  assert.equal(humanEdgeError(fault), fault);
});

test('a message never carries a key', () => {
  const key = 'ho_live_' + 'A1b2C3d4'.repeat(5) + 'xY';
  assert.doesNotMatch(human.invalidRequest(`bad ${key}`).message, /A1b2C3d4A1b2/);
});

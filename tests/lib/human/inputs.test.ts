/**
 * Input validation messages: every refusal names the field by its path and says what is accepted;
 * unknown fields are refused at any depth. Table-driven over the order body and a capability's spec.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHumanError } from '../../../lib/human/errors.ts';
import { HUMAN_STATUS } from '../../../routes/human/errors.ts';
import { CAPABILITIES } from '../../../lib/human/capabilities.ts';
import { DisputeBody, OrderBody } from '../../../lib/human/inputs.ts';
import { validateInput } from '../../../lib/human/validate-input.ts';

const order = {
  capability: 'human.verify',
  spec: { claim: 'c', subject: 's' },
  location: { country_iso: 'FR', city_slug: 'paris' },
  max_price_cents: 2000,
};

const refusals: Array<[string, unknown, RegExp, string | undefined]> = [
  ['not an object', [], /must be a JSON object/, undefined],
  ['null', null, /must be a JSON object/, undefined],
  ['missing capability', { ...order, capability: undefined }, /Missing required field 'capability'/, 'capability'],
  [
    'unknown top-level field',
    { ...order, priority: 'high' },
    /Unknown field 'priority'. Accepted: capability, spec, location, sla, max_price_cents, quote_id/,
    'priority',
  ],
  [
    'unknown nested field',
    { ...order, location: { ...order.location, zip: '75011' } },
    /Unknown field 'location.zip'. Accepted: country_iso, city_slug/,
    'location.zip',
  ],
  [
    'lower-case country',
    { ...order, location: { country_iso: 'fr', city_slug: 'paris' } },
    /Invalid field 'location.country_iso': give two upper-case letters/,
    'location.country_iso',
  ],
  [
    'bad city slug',
    { ...order, location: { country_iso: 'FR', city_slug: 'Paris!' } },
    /location.city_slug': give a city slug/,
    'location.city_slug',
  ],
  [
    'fractional price',
    { ...order, max_price_cents: 10.5 },
    /max_price_cents': give a whole number from 1 to 10,000,000 \(got the number 10.5\)/,
    'max_price_cents',
  ],
  [
    'price as a string',
    { ...order, max_price_cents: '2000' },
    /max_price_cents': give a whole number from 1 to 10,000,000 \(got the text "2000"\)/,
    'max_price_cents',
  ],
  ['zero price', { ...order, max_price_cents: 0 }, /from 1 to 10,000,000 \(got the number 0\)/, 'max_price_cents'],
  [
    'huge price',
    { ...order, max_price_cents: 1e12 },
    /from 1 to 10,000,000 \(got the number 1000000000000\)/,
    'max_price_cents',
  ],
  ['spec not an object', { ...order, spec: 'claim' }, /Invalid field 'spec'/, 'spec'],
];

for (const [name, input, message, param] of refusals) {
  test(`order body: ${name}`, () => {
    assert.throws(
      () => validateInput(OrderBody, input),
      (e: unknown) => {
        assert.ok(isHumanError(e));
        assert.equal(HUMAN_STATUS[e.code], 400);
        assert.equal(e.code, 'invalid_request');
        assert.match(e.message, message);
        assert.equal(e.param, param);
        return true;
      },
    );
  });
}

test('a capability spec is checked with the spec. prefix', () => {
  const spec = CAPABILITIES['human.verify']!.spec;
  assert.throws(() => validateInput(spec, { claim: 'x' }, 'spec.'), /Missing required field 'spec.subject'/);
  assert.throws(
    () => validateInput(spec, { claim: 'x', subject: 'y', colour: 'red' }, 'spec.'),
    /Unknown field 'spec.colour'. Accepted: claim, subject/,
  );
  assert.throws(
    () => validateInput(spec, { claim: '   ', subject: 'y' }, 'spec.'),
    /spec.claim': give a text of 1 to 500 characters/,
  );
  assert.deepEqual(validateInput(spec, { claim: '  padded  ', subject: 'y' }, 'spec.'), {
    claim: 'padded',
    subject: 'y',
  });
});

test('a valid order and a dispute pass', () => {
  assert.deepEqual(validateInput(OrderBody, order), order);
  assert.throws(
    () => validateInput(DisputeBody, { reason: 'wrong_answer', statement: 'too short' }),
    /statement': give a text of 20 to 2000 characters/,
  );
  assert.throws(
    () => validateInput(DisputeBody, { reason: 'meh', statement: 'x'.repeat(30) }),
    /reason': give one of: wrong_answer/,
  );
});

test('every capability answers its sandbox answers validly', () => {
  for (const def of Object.values(CAPABILITIES)) {
    for (const low of [false, true])
      assert.doesNotThrow(() => validateInput(def.result, def.sandboxAnswer(low), 'answer.'), def.id);
  }
});

test('the JSON list filters (for MCP) take what the query string takes', async () => {
  const { ListInput } = await import('../../../lib/human/inputs.ts');
  assert.deepEqual(validateInput(ListInput, { status: 'pending', limit: 5, created_after: '2026-11-22T10:00:00Z' }), {
    status: 'pending',
    limit: 5,
    created_after: '2026-11-22T10:00:00Z',
  });
  assert.throws(() => validateInput(ListInput, { limit: '5' }), /limit/);
  assert.throws(() => validateInput(ListInput, { sort: 'new' }), /Unknown field 'sort'/);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { centsText, parseAmount, readStripeConfig } from '../../../lib/billing/config.ts';

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };

test('without STRIPE_SECRET_KEY there is no payment processor', () => {
  assert.equal(readStripeConfig({}), null);
  assert.equal(readStripeConfig({ STRIPE_SECRET_KEY: '', STRIPE_API_BASE: 'http://127.0.0.1:12111' }), null);
});

test('the settings, with their defaults', () => {
  assert.deepEqual(readStripeConfig(KEYS), {
    secretKey: 'sk_test_abc123',
    webhookSecret: 'whsec_abc123',
    proPriceId: null,
    api: null,
    topUpMinCents: 500,
    topUpMaxCents: 50_000,
    toleranceSeconds: 300,
  });
  const c = readStripeConfig({
    ...KEYS,
    STRIPE_PRO_PRICE: 'price_1Abc',
    STRIPE_API_BASE: 'http://localhost:12111',
    STRIPE_TOPUP_MIN_CENTS: '1000',
    STRIPE_TOPUP_MAX_CENTS: '1000',
    STRIPE_WEBHOOK_TOLERANCE_S: '60',
  })!;
  assert.equal(c.proPriceId, 'price_1Abc');
  assert.deepEqual(c.api, { host: 'localhost', port: 12111, protocol: 'http' });
  assert.equal(c.topUpMinCents, 1000);
  assert.equal(c.toleranceSeconds, 60);
  assert.deepEqual(readStripeConfig({ ...KEYS, STRIPE_API_BASE: 'https://[::1]' })!.api, {
    host: '::1',
    port: 443,
    protocol: 'https',
  });
});

test('settings that would take money no event could credit are refused at start, naming the variable', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ STRIPE_SECRET_KEY: 'sk_test_abc' }, /STRIPE_WEBHOOK_SECRET must be set/],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, /without STRIPE_SECRET_KEY/],
    [{ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_abc' }, /STRIPE_SECRET_KEY must be a secret key/],
    [{ ...KEYS, STRIPE_WEBHOOK_SECRET: 'secret' }, /whsec_/],
    [{ ...KEYS, STRIPE_PRO_PRICE: 'prod_123' }, /STRIPE_PRO_PRICE must be a price id/],
    [{ ...KEYS, STRIPE_API_BASE: 'localhost:12111' }, /STRIPE_API_BASE must start with http/],
    [{ ...KEYS, STRIPE_API_BASE: 'http://localhost:12111/v1' }, /without a path/],
    [{ ...KEYS, STRIPE_TOPUP_MIN_CENTS: '10' }, /STRIPE_TOPUP_MIN_CENTS must be an integer from 50/],
    [{ ...KEYS, STRIPE_TOPUP_MIN_CENTS: '2000', STRIPE_TOPUP_MAX_CENTS: '1000' }, /at least STRIPE_TOPUP_MIN_CENTS/],
    [{ ...KEYS, STRIPE_WEBHOOK_TOLERANCE_S: '0' }, /STRIPE_WEBHOOK_TOLERANCE_S/],
  ];
  for (const [env, message] of cases) assert.throws(() => readStripeConfig(env), message, JSON.stringify(env));
});

test('amounts as people type them, in whole cents without floating point', () => {
  const table: Array<[string, number | null]> = [
    ['25', 2500],
    ['25.5', 2550],
    ['25.50', 2550],
    ['25,50', 2550],
    ['19.99', 1999],
    ['0.29', 29],
    ['€ 7', 700],
    ['7 €', 700],
    ['7 EUR', 700],
    [' 12.3 ', 1230],
    ['1.005', null],
    ['1e3', null],
    ['-5', null],
    ['', null],
    ['twenty', null],
    ['1,000.00', null],
    ['12345678', null],
  ];
  for (const [typed, cents] of table) assert.equal(parseAmount(typed), cents, typed);
  assert.equal(centsText(2550), '25.50');
  assert.equal(centsText(7), '0.07');
  assert.equal(centsText(100_000), '1000.00');
});

/**
 * Payments through Stripe (issue 36), from the environment (documented in .env.example and
 * docs/operations.md "Taking payments with Stripe"). Pure: takes the environment as an argument.
 *
 * Without STRIPE_SECRET_KEY there is no payment processor: balances and plans are granted by an
 * operator (`balance credit`, `subscription set`) as before, and the console says payments are not set
 * up. A secret key without its webhook secret is refused at start: Checkout would take money that no
 * signed event could ever credit.
 */
import { integer } from '../env-integer.ts';

export interface StripeConfig {
  /** sk_test_…, sk_live_… or a restricted rk_… key (customers, Checkout, subscriptions, portal: write). */
  secretKey: string;
  /** whsec_…: the signing secret of the webhook endpoint (the Dashboard's, or `stripe listen`'s). */
  webhookSecret: string;
  /** The recurring price of the funding pro plan (price_…); null: the plan is not sold through Stripe. */
  proPriceId: string | null;
  /** STRIPE_API_BASE: the API's address when not Stripe's (stripe-mock, a test stand-in). */
  api: { host: string; port: number; protocol: 'http' | 'https' } | null;
  /** The smallest and largest top-up a customer may choose, in cents. */
  topUpMinCents: number;
  topUpMaxCents: number;
  /** How old a signed event may be, in seconds (the library's tolerance; replays older are refused). */
  toleranceSeconds: number;
}

/** Stripe's own default tolerance (stripe-node Webhooks DEFAULT_TOLERANCE). */
export const DEFAULT_TOLERANCE_S = 300;

export function readStripeConfig(env: Record<string, string | undefined>): StripeConfig | null {
  const secretKey = (env.STRIPE_SECRET_KEY ?? '').trim();
  const webhookSecret = (env.STRIPE_WEBHOOK_SECRET ?? '').trim();
  if (!secretKey) {
    if (webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY: set both, or neither');
    return null;
  }
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(secretKey))
    throw new Error('STRIPE_SECRET_KEY must be a secret key (sk_test_…, sk_live_…) or a restricted key (rk_…)');
  if (!/^whsec_[A-Za-z0-9+/=_-]+$/.test(webhookSecret))
    throw new Error(
      'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY: the signing secret (whsec_…) of the webhook endpoint, without which no payment could be credited',
    );
  const proPriceId = (env.STRIPE_PRO_PRICE ?? '').trim() || null;
  if (proPriceId !== null && !/^price_[A-Za-z0-9]+$/.test(proPriceId))
    throw new Error('STRIPE_PRO_PRICE must be a price id (price_…) of a recurring price');
  const topUpMinCents = integer(env.STRIPE_TOPUP_MIN_CENTS, 500, 'STRIPE_TOPUP_MIN_CENTS', 50, 99_999_999);
  const topUpMaxCents = integer(env.STRIPE_TOPUP_MAX_CENTS, 50_000, 'STRIPE_TOPUP_MAX_CENTS', 50, 99_999_999);
  if (topUpMaxCents < topUpMinCents) throw new Error('STRIPE_TOPUP_MAX_CENTS must be at least STRIPE_TOPUP_MIN_CENTS');
  return {
    secretKey,
    webhookSecret,
    proPriceId,
    api: apiBase(env.STRIPE_API_BASE),
    topUpMinCents,
    topUpMaxCents,
    toleranceSeconds: integer(
      env.STRIPE_WEBHOOK_TOLERANCE_S,
      DEFAULT_TOLERANCE_S,
      'STRIPE_WEBHOOK_TOLERANCE_S',
      1,
      86_400,
    ),
  };
}

function apiBase(value: string | undefined): StripeConfig['api'] {
  if (value === undefined || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error('STRIPE_API_BASE must be a URL such as http://127.0.0.1:12111 (stripe-mock)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`STRIPE_API_BASE must start with http:// or https:// (got ${url.protocol})`);
  if (url.pathname !== '/' || url.search || url.username)
    throw new Error('STRIPE_API_BASE is an address only (scheme, host, port), without a path or a user');
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
    protocol,
  };
}

/** Cents as a person reads them in the site's currency: 2550 → "25.50". */
export const centsText = (cents: number) =>
  `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/**
 * An amount typed in a form ("25", "25.5", "25.50", "25,50", "€ 25") → whole cents, or null when it is
 * not an amount with at most two decimals. Never through floating point: 19.99 is 1999, not 1998.
 */
export function parseAmount(text: string): number | null {
  const clean = text
    .trim()
    .replace(/^€\s*/, '')
    .replace(/\s*€$/, '')
    .replace(/\s*(eur|EUR)$/, '');
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(clean);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

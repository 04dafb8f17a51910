/**
 * Signing webhook deliveries, as Standard Webhooks 1.0 specifies (https://www.standardwebhooks.com,
 * spec/standard-webhooks.md): an endpoint's secret is `whsec_` + base64 of 32 random bytes; each attempt
 * sends `webhook-id` (the event id, the same on every retry: the receiver's idempotency key),
 * `webhook-timestamp` (the attempt's Unix seconds: a receiver refuses old ones, so a captured delivery
 * cannot be replayed later) and `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
 * keyed with the secret's bytes; space-separated when a rotated secret is still honoured. Pure.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

const keyOf = (secret: string) => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(6) : secret, 'base64');

/** One `v1,<base64>` signature of a delivery. */
export function sign(secret: string, id: string, timestampS: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/** The three headers of one attempt, signed with every secret given (current first). */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestampS: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': secrets.map((s) => sign(s, id, timestampS, body)).join(' '),
  };
}

/** Receivers refuse a delivery whose timestamp is further than this from their clock (the spec's advice). */
export const TOLERANCE_S = 5 * 60;

/**
 * What a receiver does (docs/human.md shows the same steps; tests use it against the reference
 * library): true when one of the signatures is the secret's and the timestamp is recent.
 */
export function verify(
  secret: string,
  headers: { id: string | undefined; timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowS: number,
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowS - Number(timestamp)) > TOLERANCE_S) return false;
  const expected = Buffer.from(sign(secret, id, Number(timestamp), body));
  return signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * The fingerprint of a request body for idempotency: SHA-256 of its canonical JSON (object keys
 * sorted, no whitespace), so the same order sent with its fields in another order or spacing is the
 * same request, and any change of a value is a different one.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const fingerprint = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');

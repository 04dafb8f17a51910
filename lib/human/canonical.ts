/**
 * The fingerprint of a request body for idempotency: SHA-256 of its canonical JSON (object keys
 * sorted, no whitespace), so the same order sent with its fields in another order or spacing is the
 * same request, and any change of a value is a different one.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  // Every order is fingerprinted: one pass over the sorted keys, without the intermediate arrays of
  // entries().filter().sort().map(). The default sort compares UTF-16 code units, as `<` does.
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let out = '{';
  for (const k of keys) {
    const v = object[k];
    if (v === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return out + '}';
}

export const fingerprint = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');

/**
 * Looks for secrets in text. A key counts as leaked when any 16 characters in a row of its secret
 * part (the key without its `ia_`/`ho_test_`/`ho_live_`/`fnd_` prefix) appear: that covers the whole
 * key, the secret part, and any truncated or mangled echo long enough to narrow a guess (the display
 * prefix, prefix + 4 characters, is far below it). Passwords, cookie values and CSRF tokens count
 * when they appear whole.
 */
import { parseKey } from '../../../lib/keys.ts';

export type SecretKind = 'key' | 'password' | 'session cookie' | 'visitor cookie' | 'csrf token';

export interface Secret {
  kind: SecretKind;
  label: string;
  value: string;
}

export interface Finding {
  secret: Secret;
  where: string;
  excerpt: string;
}

export const KEY_WINDOW = 16;

/** The key without its prefix. */
export function secretPart(key: string): string {
  const parsed = parseKey(key);
  if (!parsed) throw new TypeError('not a well-formed key');
  return key.slice(parsed.prefix.length);
}

/** Every run of KEY_WINDOW characters of the key's secret part. */
export function keyWindows(key: string): string[] {
  const secret = secretPart(key);
  return Array.from({ length: secret.length - KEY_WINDOW + 1 }, (_, i) => secret.slice(i, i + KEY_WINDOW));
}

const excerpt = (text: string, at: number, length: number) =>
  text.slice(Math.max(0, at - 60), at + length + 60).replace(/\s+/g, ' ');

export class SecretScanner {
  private readonly windows = new Map<string, Secret>();
  private readonly whole: Secret[] = [];

  constructor(secrets: Secret[]) {
    for (const secret of secrets) {
      if (secret.kind === 'key') for (const w of keyWindows(secret.value)) this.windows.set(w, secret);
      else if (secret.value.length > 0) this.whole.push(secret);
    }
  }

  /** The secrets found in `text`, at most one finding per secret. */
  scan(where: string, text: string): Finding[] {
    const found = new Map<Secret, Finding>();
    // Key windows are base62, so only runs of 16+ base62 characters can hold one: looking at those
    // alone keeps the scan of large bodies cheap.
    for (const run of text.matchAll(/[0-9A-Za-z]{16,}/g)) {
      for (let i = 0; i + KEY_WINDOW <= run[0].length; i++) {
        const secret = this.windows.get(run[0].slice(i, i + KEY_WINDOW));
        if (secret && !found.has(secret))
          found.set(secret, { secret, where, excerpt: excerpt(text, run.index + i, KEY_WINDOW) });
      }
    }
    for (const secret of this.whole) {
      const at = text.indexOf(secret.value);
      if (at !== -1 && !found.has(secret))
        found.set(secret, { secret, where, excerpt: excerpt(text, at, secret.value.length) });
    }
    return [...found.values()];
  }
}

/**
 * Serialised responses of the impact API, kept in memory. A response is a function of the serving
 * state (which run each scenario serves, and the register's version: db/impact/queries/state.ts) and
 * the canonical request, so an entry is keyed by both and never goes stale: publishing a run or
 * reloading the register changes the state key, and old entries simply stop being asked for and age
 * out. Only successful responses are kept, and only after every figure in them passed its checks
 * (they are checked when the entry is made, which is when they are serialised).
 *
 * Bounded by bytes, roughly least recently used out first: /spend takes any amount and /compare any
 * pair, so the set of possible keys is not small.
 */
import { createHash } from 'node:crypto';

export interface CachedResponse {
  body: Buffer;
  etag: string;
  cacheControl: string;
}

export class ResponseCache {
  private readonly entries = new Map<string, { value: CachedResponse; used: boolean }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** A hit only marks the entry used (no reordering: hits are the hot path, evictions are rare). */
  get(key: string): CachedResponse | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    hit.used = true;
    return hit.value;
  }

  set(key: string, value: CachedResponse): void {
    const size = value.body.length + key.length;
    if (size > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.value.body.length + key.length;
    }
    this.entries.set(key, { value, used: false });
    this.bytes += size;
    // Second chance ("clock"): from the oldest, an entry used since it was last passed goes to the back
    // once; one that was not is dropped. Close to least-recently-used at the cost of a flag per hit.
    while (this.bytes > this.maxBytes) {
      const [k, e] = this.entries.entries().next().value as [string, { value: CachedResponse; used: boolean }];
      this.entries.delete(k);
      if (e.used || k === key) {
        e.used = false; // the entry just stored is never the one dropped for it
        this.entries.set(k, e);
      } else {
        this.bytes -= e.value.body.length + k.length;
      }
    }
  }

  /** Whether a key is held, without counting as a use. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A strong ETag: the run the figures come from (or w for withheld) and a digest of the bytes. */
export function etagOf(runId: number | null, body: Buffer): string {
  return `"${runId === null ? 'w' : `r${runId}`}-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
}

/** RFC 9110 If-None-Match: a list of entity tags or *, compared weakly. */
export function ifNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return value.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

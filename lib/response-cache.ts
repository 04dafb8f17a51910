/**
 * A bounded cache of rendered responses, the one the funding search and the impact API both keep.
 * Pure: the caller says what time it is. An entry is served until its `validUntil` instant (never at
 * or after it; Infinity: until it is pushed out). Bounded by entries and by bytes (the value's size
 * as `sizeOf` measures it, plus the key's length); the least recently used entries go first, and an
 * entry larger than the whole byte budget is not kept.
 */

export interface ResponseCacheOptions<V> {
  /** The bytes a value holds (a body's length). */
  sizeOf: (value: V) => number;
  maxEntries?: number;
  maxBytes?: number;
}

interface Entry<V> {
  value: V;
  validUntil: number;
  bytes: number;
}

export class ResponseCache<V> {
  private readonly entries = new Map<string, Entry<V>>(); // least recently used first
  private readonly sizeOf: (value: V) => number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(options: ResponseCacheOptions<V>) {
    this.sizeOf = options.sizeOf;
    this.maxEntries = options.maxEntries ?? Infinity;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  }

  /** The value kept for `key` if still valid at `now`; a hit makes it the most recently used. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (now >= entry.validUntil) {
      this.bytes -= entry.bytes; // expired: gone for good
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Whether `key` holds a value valid at `now`, without counting as a use. */
  has(key: string, now: number): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && now < entry.validUntil;
  }

  /** Keeps `value` until `validUntil`, pushing out the least recently used entries over the budgets. */
  set(key: string, value: V, validUntil = Infinity): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    const bytes = this.sizeOf(value) + key.length;
    if (bytes > this.maxBytes || this.maxEntries < 1) return;
    this.entries.set(key, { value, validUntil, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}

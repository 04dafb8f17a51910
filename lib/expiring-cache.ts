/**
 * A bounded cache of rendered responses, each valid until a given instant. Pure: the caller says what
 * time it is. Least recently used entries go first when the entry or byte budget is full.
 */

interface Entry {
  body: string;
  validUntil: number;
}

export class ExpiringCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 1000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  get(key: string, now: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (now >= entry.validUntil) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry.body;
  }

  set(key: string, body: string, validUntil: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    if (body.length > this.maxBytes) return;
    this.entries.set(key, { body, validUntil });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
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

// A small read-through cache for venue figures (limits, offers, balances): each key read at most once per ttl, in
// flight reads shared, failures not kept.
/** A value read at most once per `ttlMs` per key; a failed read is not kept. */
export class Kept<T> {
  private readonly entries = new Map<string, { value: Promise<T>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return hit.value;
    const value = read();
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  set(key: string, value: T): void {
    this.entries.set(key, { value: Promise.resolve(value), until: this.now() + this.ttlMs });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every key that starts with `prefix`. */
  forgetPrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

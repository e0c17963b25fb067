// Engine shards (ENGINE_SHARDS): users are split into N shards by a stable hash of the user id, and each shard is
// traded by the one engine instance that holds its lock (shard-locks.ts). The hash is FNV-1a (32 bits) over the id's
// UTF-8 bytes: the same on every instance, every restart and every Node version, unlike anything keyed on memory.

/** The shard of a user among `count` shards (0 when there is one). */
export function shardOf(userId: string, count: number): number {
  if (count <= 1) return 0;
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(userId, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/** Which shards this instance trades, and so which users. */
export class ShardSet {
  private readonly held = new Set<number>();

  constructor(readonly count: number) {}

  get size(): number {
    return this.held.size;
  }

  /** The shard numbers held, ascending. */
  list(): number[] {
    return [...this.held].sort((a, b) => a - b);
  }

  has(shard: number): boolean {
    return this.held.has(shard);
  }

  add(shards: Iterable<number>): void {
    for (const s of shards) this.held.add(s);
  }

  delete(shards: Iterable<number>): void {
    for (const s of shards) this.held.delete(s);
  }

  clear(): void {
    this.held.clear();
  }

  owns(userId: string): boolean {
    return this.held.has(shardOf(userId, this.count));
  }

  /** Whether the user belongs to one of the given shards. */
  within(userId: string, shards: ReadonlySet<number>): boolean {
    return shards.has(shardOf(userId, this.count));
  }
}

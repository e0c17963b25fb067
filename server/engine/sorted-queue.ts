// A queue ordered by a numeric key (deadlines, stop levels): insert in O(log n) search, pop the due prefix at once.
export class SortedQueue<T> {
  private readonly keys: number[] = [];
  private readonly values: T[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, value: T): void {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) <= key) lo = mid + 1;
      else hi = mid;
    }
    this.keys.splice(lo, 0, key);
    this.values.splice(lo, 0, value);
  }

  /** Removes and returns every value whose key is at most `limit`, in key order. */
  popUpTo(limit: number): T[] {
    let count = 0;
    while (count < this.keys.length && (this.keys[count] as number) <= limit) count += 1;
    if (count === 0) return [];
    this.keys.splice(0, count);
    return this.values.splice(0, count);
  }
}

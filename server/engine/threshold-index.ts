// Users waiting to trade one symbol, sorted by the |spread| at which each would open. A tick visits only the users
// whose threshold it reaches, so per-tick work does not grow with the number of users who are not triggered.
export interface ThresholdEntry {
  threshold: number;
  userId: string;
}

export class ThresholdIndex {
  private readonly entries: ThresholdEntry[] = [];
  private readonly thresholds = new Map<string, number>();

  get size(): number {
    return this.entries.length;
  }

  has(userId: string): boolean {
    return this.thresholds.has(userId);
  }

  /** Adds the user, or moves them when their threshold changed. */
  upsert(userId: string, threshold: number): void {
    const current = this.thresholds.get(userId);
    if (current === threshold) return;
    if (current !== undefined) this.remove(userId);
    this.entries.splice(this.lowerBound(threshold, userId), 0, { threshold, userId });
    this.thresholds.set(userId, threshold);
  }

  remove(userId: string): void {
    const threshold = this.thresholds.get(userId);
    if (threshold === undefined) return;
    const at = this.lowerBound(threshold, userId);
    if (this.entries[at]?.userId === userId) this.entries.splice(at, 1);
    this.thresholds.delete(userId);
  }

  /** Removes and returns every user whose threshold is at most `level`, lowest first. */
  takeUpTo(level: number): string[] {
    let count = 0;
    while (count < this.entries.length && (this.entries[count] as ThresholdEntry).threshold <= level) count += 1;
    if (count === 0) return [];
    const taken = this.entries.splice(0, count);
    for (const e of taken) this.thresholds.delete(e.userId);
    return taken.map((e) => e.userId);
  }

  /** Every user whose threshold is at most `level`, lowest first, without removing them. */
  peekUpTo(level: number): string[] {
    const out: string[] = [];
    for (const e of this.entries) {
      if (e.threshold > level) break;
      out.push(e.userId);
    }
    return out;
  }

  /** Lowest threshold waiting, or Infinity. */
  lowest(): number {
    return this.entries[0]?.threshold ?? Infinity;
  }

  /** Position of (threshold, userId) in the order, ties broken by user id so removal finds the exact entry. */
  private lowerBound(threshold: number, userId: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.entries[mid] as ThresholdEntry;
      if (e.threshold < threshold || (e.threshold === threshold && e.userId < userId)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

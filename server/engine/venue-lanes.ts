// Bounded concurrency of orders per venue and per venue account (issue 21: execute concurrently, within the venues'
// limits). Decisions of many users on one tick run at once, but no more than `perVenue` orders are on their way to a
// venue and no more than `perAccount` for one account (on live venues each user's account has its own rate limits;
// the venue-wide bound also keeps a simulated market's paper book from being flooded). A trade's opening round takes
// the slots of both its venues together, so both legs leave at the same moment, once, when the deadline is checked.
import type { VenueId } from '../../contract/domain';

export interface LaneLimits {
  perVenue: number;
  perAccount: number;
}

export const DEFAULT_LANE_LIMITS: LaneLimits = { perVenue: 64, perAccount: 4 };

interface Waiter {
  keys: Array<[string, number]>;
  go: () => void;
}

export class VenueLanes {
  private readonly used = new Map<string, number>();
  private waiting: Waiter[] = [];

  constructor(private readonly limits: LaneLimits = DEFAULT_LANE_LIMITS) {}

  /** Waits for a slot on each venue for this account; the answer gives them back (call it exactly once). */
  acquire(venues: readonly VenueId[], account: string): Promise<() => void> {
    const keys: Array<[string, number]> = [];
    for (const venue of new Set(venues)) {
      keys.push([venue, this.limits.perVenue], [`${venue}|${account}`, this.limits.perAccount]);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = { keys, go: () => resolve(this.releaser(keys)) };
      if (this.fits(keys)) this.take(waiter);
      else this.waiting.push(waiter);
    });
  }

  /** Orders waiting for a slot (diagnostics). */
  get queued(): number {
    return this.waiting.length;
  }

  private fits(keys: Array<[string, number]>): boolean {
    return keys.every(([key, limit]) => (this.used.get(key) ?? 0) < limit);
  }

  private take(waiter: Waiter): void {
    for (const [key] of waiter.keys) this.used.set(key, (this.used.get(key) ?? 0) + 1);
    waiter.go();
  }

  private releaser(keys: Array<[string, number]>): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [key] of keys) {
        const n = (this.used.get(key) ?? 1) - 1;
        if (n <= 0) this.used.delete(key);
        else this.used.set(key, n);
      }
      // First come, first served among those that fit now; one account at its limit holds up no one else.
      const still: Waiter[] = [];
      for (const waiter of this.waiting) {
        if (this.fits(waiter.keys)) this.take(waiter);
        else still.push(waiter);
      }
      this.waiting = still;
    };
  }
}

// Per-key rate limiting that never loses the newest value: a burst of price ticks for one symbol becomes at most one
// emit per period, the first at once (leading) and the last one when the period ends (trailing), so a phone sees the
// current price without being flooded. Keys are independent: a busy BTC stream never delays ETH.
import { asyncScheduler, groupBy, identity, mergeMap, throttleTime } from 'rxjs';
import type { MonoTypeOperatorFunction, SchedulerLike } from 'rxjs';

/** Milliseconds between emits per key for a rate in Hz; 0 (no coalescing) for a non-finite or non-positive rate. */
export function periodForHz(hz: number): number {
  return Number.isFinite(hz) && hz > 0 ? 1000 / hz : 0;
}

export function coalesceLatestPerKey<T, K>(
  keyOf: (value: T) => K,
  periodMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> {
  if (!(periodMs > 0)) return identity;
  // The set of keys is the set of symbols, small and fixed, so groups are kept for the life of the stream.
  return (source) =>
    source.pipe(
      groupBy(keyOf),
      mergeMap((group) => group.pipe(throttleTime(periodMs, scheduler, { leading: true, trailing: true }))),
    );
}

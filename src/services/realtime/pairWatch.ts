import {
  asyncScheduler,
  BehaviorSubject,
  debounceTime,
  distinctUntilChanged,
  map,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { SymbolId } from '../../../contract/domain';
import { inCatalogueOrder } from '../../../contract/pairs';

/** What a screen shows prices of: every pair (a list sorted by spread needs them all) or some. */
export type PairsShown = 'all' | readonly SymbolId[];

export interface PairWatch {
  /**
   * The pairs every mounted screen shows together, for `watch_pairs`: null is every pair, [] none (a screen without
   * prices). Emits on change only.
   */
  watched$: Observable<SymbolId[] | null>;
  /** A screen shows these pairs until the returned function is called (a React effect's clean-up). */
  show(pairs: PairsShown): () => void;
}

/** The union of what is shown: every pair as soon as one screen shows every pair. */
export function unionOfShown(shown: Iterable<PairsShown>): SymbolId[] | null {
  const pairs = new Set<SymbolId>();
  for (const s of shown) {
    if (s === 'all') return null;
    for (const p of s) pairs.add(p);
  }
  return inCatalogueOrder(pairs);
}

const keyOf = (pairs: SymbolId[] | null) => (pairs === null ? '*' : pairs.join(','));

// Prices arrive at PRICE_HZ per pair: with a dozen pairs, a phone on the trades list would hear about 48 messages a
// second it never draws. Each screen says what it shows; the socket link tells the server the union.
export function createPairWatch(scheduler: SchedulerLike = asyncScheduler): PairWatch {
  const shown = new BehaviorSubject<ReadonlyMap<symbol, PairsShown>>(new Map());
  return {
    watched$: shown.pipe(
      // A change of screen unmounts one and mounts the next in the same task: the server hears only the outcome.
      debounceTime(0, scheduler),
      map((m) => unionOfShown(m.values())),
      distinctUntilChanged((a, b) => keyOf(a) === keyOf(b)),
    ),
    show(pairs) {
      const id = Symbol('screen');
      shown.next(new Map(shown.value).set(id, pairs));
      return () => {
        const next = new Map(shown.value);
        next.delete(id);
        shown.next(next);
      };
    },
  };
}

import { Subject, type Observable } from 'rxjs';
import type { Trade } from '../../../contract/entities';
import type { UserCache } from '../../cache/db';
import { newestCopy } from '../../cache/newestCopy';

/**
 * The one way trades reach a user's IndexedDB copy. The recent-trades stream, the Trades pages and the history sync
 * all hand their trades here instead of writing themselves: writes run one at a time, and whatever arrives while one
 * runs is merged (by _id, the copy the server saved last wins; on equal times the last handed in) into the next, so the store is counted and pruned once a
 * batch rather than once a caller.
 */
export interface TradeWriter {
  /** Resolves once these trades are stored (storage failures are the cache's to swallow, as everywhere). */
  write(trades: readonly Trade[]): Promise<void>;
  /** Emits after each batch is stored, for readers of the whole copy (the P&L report) to read it again. */
  stored$: Observable<void>;
}

/** `store` puts a batch and prunes the oldest beyond the cache's limit (UserCache.putTrades). */
export function createTradeWriter(store: (trades: readonly Trade[]) => Promise<void>): TradeWriter {
  let queued = new Map<string, Trade>();
  let waiting: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  let running = false;
  const stored = new Subject<void>();

  async function drain() {
    running = true;
    while (queued.size > 0) {
      const batch = [...queued.values()];
      const settled = waiting;
      queued = new Map();
      waiting = [];
      try {
        await store(batch);
        for (const w of settled) w.resolve();
        stored.next();
      } catch (err) {
        for (const w of settled) w.reject(err);
      }
    }
    running = false;
  }

  return {
    stored$: stored.asObservable(),
    write(trades) {
      if (trades.length === 0) return Promise.resolve();
      for (const t of trades) queued.set(t._id, newestCopy(queued.get(t._id), t));
      const done = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      if (!running) void drain();
      return done;
    },
  };
}

const writers = new WeakMap<UserCache, TradeWriter>();

/** The writer of one user's cache: the same one whoever asks, so there is exactly one per store. */
export function tradeWriterFor(cache: UserCache): TradeWriter {
  let w = writers.get(cache);
  if (!w) writers.set(cache, (w = createTradeWriter((trades) => cache.putTrades(trades))));
  return w;
}

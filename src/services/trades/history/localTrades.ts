import type { Pagination, Trade } from '../../../../contract/entities';
import type { CacheDb } from '../../../cache/db';
import type { TradePageQuery } from '../tradePage';
import type { HistoryMeta } from './historyMeta';

/** How far back the local copy reaches, for the Trades screen to say so. */
export interface LocalCoverage {
  /** Trades held locally within the covered range (all filters off). */
  count: number;
  /** createdAt (ISO) of the oldest covered trade, null when none is held. */
  oldest: string | null;
  /** True when the local copy holds every trade the server had at the last sync. */
  complete: boolean;
}

export interface LocalTradePage {
  trades: Trade[];
  pagination: Pagination;
  coverage: LocalCoverage;
}

const HIGH = '\uffff';

/**
 * One page of the user's trades from IndexedDB, newest first, with the Trades screen's filters (status, pair) and page
 * size — the same answer shape as GET /trades, so the screen renders it unchanged. Only the contiguous range the
 * history sync vouches for is used when it has run, so no page silently skips trades that were never downloaded.
 */
export async function queryLocalTrades(
  db: CacheDb,
  q: TradePageQuery,
  meta: HistoryMeta | null,
): Promise<LocalTradePage> {
  const from = meta?.contiguousFrom ?? '';
  const tx = db.transaction('trades');
  const store = tx.store;

  // Pick the index that narrows most; a second filter is checked per row.
  const cursorFor = () => {
    if (q.status)
      return store.index('status_createdAt').openCursor(IDBKeyRange.bound([q.status, from], [q.status, HIGH]), 'prev');
    if (q.symbol)
      return store.index('symbol_createdAt').openCursor(IDBKeyRange.bound([q.symbol, from], [q.symbol, HIGH]), 'prev');
    return store.index('createdAt').openCursor(from ? IDBKeyRange.lowerBound(from) : null, 'prev');
  };

  const limit = Math.max(1, q.limit);
  const page = Math.max(1, q.page);
  const skip = (page - 1) * limit;
  const trades: Trade[] = [];
  let total = 0;
  for (let cursor = await cursorFor(); cursor; cursor = await cursor.continue()) {
    const t = cursor.value;
    if (q.symbol && t.symbol !== q.symbol) continue;
    if (total >= skip && trades.length < limit) trades.push(t);
    total++;
  }

  const coverageRange = from ? IDBKeyRange.lowerBound(from) : undefined;
  const [count, oldestCursor] = await Promise.all([
    store.index('createdAt').count(coverageRange),
    store.index('createdAt').openCursor(coverageRange ?? null, 'next'),
  ]);
  const oldest = oldestCursor?.value.createdAt ?? null;
  await tx.done;

  const pages = Math.max(1, Math.ceil(total / limit));
  return {
    trades,
    pagination: { current: page, pages, total },
    coverage: { count, oldest, complete: meta !== null && count >= meta.serverTotal },
  };
}

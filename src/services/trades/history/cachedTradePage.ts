import type { UserCache } from '../../../cache/db';
import type { TradePage, TradePageQuery } from '../tradePage';
import { readHistoryMeta } from './historyMeta';
import { queryLocalTrades, type LocalCoverage } from './localTrades';

/**
 * The cached answer for a Trades page: any filter, page size and page, computed from the local trade history (so
 * offline every control keeps working), falling back to a page stored verbatim when the history is still empty.
 * savedAt is when the history was last synced (or the page stored), for the offline banner.
 */
export async function cachedTradePage(
  cache: UserCache,
  query: TradePageQuery,
  pageKey: string,
): Promise<{ value: TradePage; savedAt: number } | undefined> {
  const db = await cache.db();
  if (db) {
    try {
      const meta = await readHistoryMeta(cache);
      const local = await queryLocalTrades(db, query, meta);
      if (local.coverage.count > 0) {
        return { value: { trades: local.trades, pagination: local.pagination }, savedAt: meta?.syncedAt ?? Date.now() };
      }
    } catch {
      // A broken or blocked store: fall through to the stored page, if any.
    }
  }
  const stored = await cache.readPage(pageKey);
  return stored
    ? { value: { trades: stored.trades, pagination: stored.pagination }, savedAt: stored.savedAt }
    : undefined;
}

/** How far back the local copy reaches (for the note on the Trades screen). */
export async function localCoverage(cache: UserCache): Promise<LocalCoverage | null> {
  const db = await cache.db();
  if (!db) return null;
  try {
    const meta = await readHistoryMeta(cache);
    return (await queryLocalTrades(db, { status: '', symbol: '', page: 1, limit: 1 }, meta)).coverage;
  } catch {
    return null;
  }
}

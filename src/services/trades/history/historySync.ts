import type { Pagination, Trade } from '../../../../contract/entities';
import type { UserCache } from '../../../cache/db';
import { tradeWriterFor } from '../tradeWriter';
import { readHistoryMeta, writeHistoryMeta, type HistoryMeta } from './historyMeta';

/** The user's most recent trades kept for offline reading: at least this many (the cache may keep more). */
export const HISTORY_KEEP = 1000;
/** Page size of the sync: the largest the API accepts. */
export const HISTORY_PAGE = 100;

export interface HistorySyncDeps {
  cache: UserCache;
  /** GET /trades?page&limit, newest first. */
  fetchPage: (page: number, limit: number) => Promise<{ trades: Trade[]; pagination: Pagination }>;
  keep?: number;
  now?: () => number;
}

export interface HistorySyncResult {
  pagesFetched: number;
  tradesFetched: number;
  meta: HistoryMeta | null;
}

/**
 * Brings the local copy of the user's trade history up to date, incrementally: pages of 100, newest first, until the
 * pages reach the part synced last time (and no trade the copy still holds as pending is left unrefreshed), or until
 * the copy holds `keep` trades, or the server has no more. Every fetched trade is stored, so status changes of
 * recent trades land too. Network failures propagate; what was stored before stays (put is idempotent by _id).
 */
export async function syncTradeHistory(deps: HistorySyncDeps): Promise<HistorySyncResult> {
  const keep = deps.keep ?? HISTORY_KEEP;
  const previous = await readHistoryMeta(deps.cache);
  const oldestPending = await oldestLocalPending(deps.cache);

  let page = 1;
  let pagesFetched = 0;
  let tradesFetched = 0;
  let newest: string | null = null;
  let oldestFetched: string | null = null;
  let serverTotal = 0;
  let reachedPrevious = false;

  for (;;) {
    const { trades, pagination } = await deps.fetchPage(page, HISTORY_PAGE);
    pagesFetched++;
    serverTotal = pagination.total;
    if (trades.length > 0) {
      await tradeWriterFor(deps.cache).write(trades);
      tradesFetched += trades.length;
      newest ??= trades[0]!.createdAt;
      oldestFetched = trades[trades.length - 1]!.createdAt;
    }
    const exhausted = trades.length < HISTORY_PAGE || page >= pagination.pages;
    if (previous && oldestFetched !== null && oldestFetched <= previous.newestSynced) reachedPrevious = true;
    // Trades this copy holds as pending may have closed meanwhile: fetch at least down to the oldest of them.
    const pendingRefreshed = oldestPending === null || (oldestFetched !== null && oldestFetched <= oldestPending);
    // Joined to the previous run, the copy is as deep as that run made it (it stopped at `keep` or at the end).
    const deepEnough = reachedPrevious || tradesFetched >= keep;
    if (exhausted || (deepEnough && pendingRefreshed)) break;
    page++;
  }

  const contiguousFrom = reachedPrevious && previous ? minIso(previous.contiguousFrom, oldestFetched) : oldestFetched;
  const meta: HistoryMeta | null =
    newest === null || contiguousFrom === null
      ? previous && { ...previous, serverTotal, syncedAt: (deps.now ?? Date.now)() }
      : { newestSynced: newest, contiguousFrom, serverTotal, syncedAt: (deps.now ?? Date.now)() };
  if (meta) await writeHistoryMeta(deps.cache, meta);
  return { pagesFetched, tradesFetched, meta };
}

function minIso(a: string, b: string | null): string {
  return b !== null && b < a ? b : a;
}

async function oldestLocalPending(cache: UserCache): Promise<string | null> {
  const db = await cache.db();
  if (!db) return null;
  try {
    const range = IDBKeyRange.bound(['pending', ''], ['pending', '\uffff']);
    const cursor = await db.transaction('trades').store.index('status_createdAt').openCursor(range, 'next');
    return cursor?.value.createdAt ?? null;
  } catch {
    return null;
  }
}

import type { Pagination, Trade } from '../../../../contract/entities';
import type { UserCache } from '../../../cache/db';
import { tradeWriterFor } from '../tradeWriter';
import { readHistoryMeta, writeHistoryMeta, type HistoryMeta } from './historyMeta';

/** The user's most recent trades kept for offline reading: at least this many (the cache may keep more). */
export const HISTORY_KEEP = 1000;
/** Page size of the sync: the largest the API accepts. */
export const HISTORY_PAGE = 100;

/** One answer of the change feed (GET /trades/changes). */
export interface TradeChanges {
  trades: Trade[];
  cursor: string | null;
  more: boolean;
  total: number;
}

export interface HistorySyncDeps {
  cache: UserCache;
  /** GET /trades?page&limit, newest first. */
  fetchPage: (page: number, limit: number) => Promise<{ trades: Trade[]; pagination: Pagination }>;
  /** GET /trades/changes?after&limit: changed trades, oldest change first; limit 0 gives only the feed's position. */
  fetchChanges: (after: string | null, limit: number) => Promise<TradeChanges>;
  keep?: number;
  now?: () => number;
}

export interface HistorySyncResult {
  /** Requests made (pages and change-feed answers). */
  pagesFetched: number;
  tradesFetched: number;
  meta: HistoryMeta | null;
}

/** How many changes one request asks for (the API's most). */
export const CHANGES_PAGE = 500;

/**
 * Brings the local copy of the user's trade history up to date. A copy that follows the change feed asks only for the
 * trades created or changed since its cursor (a returning user's cold start transfers what changed, nothing more).
 * Any other copy (a new device, or one filled before the feed existed) is filled by pages: first the feed's position
 * is taken, then pages of 100, newest first, until the pages reach the part synced last time (and no trade the copy
 * still holds as pending is left unrefreshed), or the copy holds `keep` trades, or the server has no more; from then
 * on it follows the feed from that position, so nothing changed during the fill is missed. Every fetched trade is
 * stored. Network failures propagate; what was stored before stays (put is idempotent by _id), and the meta (with the
 * cursor) is written only after the whole sync, so a broken sync is repeated, never skipped.
 */
export async function syncTradeHistory(deps: HistorySyncDeps): Promise<HistorySyncResult> {
  const previous = await readHistoryMeta(deps.cache);
  if (previous?.cursor != null) return followChanges(deps, previous, previous.cursor);
  const head = await deps.fetchChanges(null, 0);
  const filled = await fillByPages(deps, previous);
  const meta = filled.meta && { ...filled.meta, cursor: head.cursor };
  if (meta) await writeHistoryMeta(deps.cache, meta);
  return { ...filled, pagesFetched: filled.pagesFetched + 1, meta };
}

async function followChanges(deps: HistorySyncDeps, previous: HistoryMeta, from: string): Promise<HistorySyncResult> {
  let cursor = from;
  let requests = 0;
  let tradesFetched = 0;
  let newest = previous.newestSynced;
  let total = previous.serverTotal;
  for (;;) {
    const answer = await deps.fetchChanges(cursor, CHANGES_PAGE);
    requests++;
    if (answer.trades.length > 0) {
      await tradeWriterFor(deps.cache).write(answer.trades);
      tradesFetched += answer.trades.length;
      // Every trade created since the last sync is in the feed, so the contiguous run now reaches the newest of them.
      for (const t of answer.trades) if (t.createdAt > newest) newest = t.createdAt;
    }
    cursor = answer.cursor ?? cursor;
    total = answer.total;
    if (!answer.more) break;
  }
  const meta: HistoryMeta = {
    ...previous,
    newestSynced: newest,
    serverTotal: total,
    syncedAt: (deps.now ?? Date.now)(),
    cursor,
  };
  await writeHistoryMeta(deps.cache, meta);
  return { pagesFetched: requests, tradesFetched, meta };
}

async function fillByPages(deps: HistorySyncDeps, previous: HistoryMeta | null): Promise<HistorySyncResult> {
  const keep = deps.keep ?? HISTORY_KEEP;
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

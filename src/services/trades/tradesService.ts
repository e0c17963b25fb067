import { debounceTime, from, map, merge, startWith, switchMap, type Observable } from 'rxjs';
import { SNAPSHOT_RECENT_LIMIT, type TradeChangesResponse, type TradesResponse } from '../../../contract/api';
import type { Trade } from '../../../contract/entities';
import { SERVER_EVENTS } from '../../../contract/events';
import { reduceTrades, type TradesEvent } from '../reconcile';
import { eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';
import { cachedTradePage, localCoverage } from './history/cachedTradePage';
import { HISTORY_PAGE } from './history/historySync';
import { runHistorySync, type HistorySyncEvent } from './history/historySyncRunner';
import type { LocalCoverage } from './history/localTrades';
import { localReportSource, type ReportSource } from './history/localReport';
import { foldTradePage, pageKey, type TradePage, type TradePageQuery } from './tradePage';
import { tradeWriterFor } from './tradeWriter';

export interface TradesDeps extends DomainDeps {
  /** The browser's online state: the history sync runs only online. */
  online$: Observable<boolean>;
}

export interface TradesService {
  /** The most recent trades (dashboard), live. */
  recent$: Observable<Live<Trade[]>>;
  /** One Trades page as the server answers it, live; offline, computed from the local copy of the history. */
  page(query: TradePageQuery): Observable<Live<TradePage | null>>;
  /** How far back the signed-in user's local copy reaches, read when subscribed. */
  coverage$: Observable<LocalCoverage | null>;
  /** The trades P&L reports are computed from (the local copy of the history), read again as trades change. */
  reportSource$: Observable<ReportSource | null>;
  /** Subscribe once (composition root) to keep the local trade history in step while online. */
  historySync$: Observable<HistorySyncEvent>;
}

/** The dashboard's recent trades: one page of this size (the shared snapshot's), kept live. */
const RECENT_LIMIT = SNAPSHOT_RECENT_LIMIT;

/** The Trades screen's default page is the one the shared snapshot carries. */
const isSnapshotPage = (q: TradePageQuery) =>
  q.page === 1 && !q.status && !q.symbol && q.limit === SNAPSHOT_RECENT_LIMIT;

/** Resolves when the browser is next idle (at most 2 s on), or on the next task where it cannot say (jsdom, Safari). */
export function browserIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 0);
  });
}

export function createTradesService(deps: TradesDeps): TradesService {
  const { http } = deps;
  const failed = (err: unknown) => deps.onLoadError('Failed to load trades', err);
  const tradeEvents$: Observable<TradesEvent> = merge(
    eventsOf(deps.events$, SERVER_EVENTS.newTrade).pipe(map((trade): TradesEvent => ({ type: 'new', trade }))),
    eventsOf(deps.events$, SERVER_EVENTS.tradeUpdated).pipe(map((trade): TradesEvent => ({ type: 'updated', trade }))),
  );

  const recent$ = replay(
    perUser(deps, idle<Trade[]>([]), (cache) =>
      liveState<Trade[], TradesEvent>({
        initial: [],
        cached: async () => {
          const rec = await cache.readSnapshot<Trade[]>('recentTrades');
          return rec ? { value: rec.data, savedAt: rec.savedAt } : undefined;
        },
        snapshot: async () => (await deps.firstPaint.get(cache.userId)).recent.trades,
        events$: tradeEvents$,
        resync$: deps.reconnected$,
        fold: (state, e) => reduceTrades(state, e, RECENT_LIMIT),
        persist: (v) => {
          void cache.writeSnapshot('recentTrades', v);
          void tradeWriterFor(cache).write(v);
        },
        onSnapshotError: failed,
      }),
    ),
  );

  function page(query: TradePageQuery): Observable<Live<TradePage | null>> {
    const key = pageKey(query);
    return perUser(deps, idle<TradePage | null>(null), (cache) =>
      liveState<TradePage | null, TradesEvent>({
        initial: null,
        // Any filter and page from the local trade history (offline paging), else the page stored verbatim.
        cached: () => cachedTradePage(cache, query, key),
        snapshot: async () => {
          // The default page from the shared snapshot while there is one to join (a cold start on /trades): the
          // same answer, not a second call for it.
          const shared = isSnapshotPage(query) ? deps.firstPaint.join(cache.userId) : null;
          if (shared) return (await shared).recent;
          const r = await http.get<TradesResponse>('/trades', {
            status: query.status || undefined,
            symbol: query.symbol || undefined,
            page: query.page,
            limit: query.limit,
          });
          return { trades: r.trades, pagination: r.pagination };
        },
        events$: tradeEvents$,
        resync$: deps.reconnected$,
        fold: (p, e) => (p ? foldTradePage(p, e, query) : p),
        persist: (v) => {
          if (!v) return;
          void cache.writePage(key, v.trades, v.pagination);
          void tradeWriterFor(cache).write(v.trades);
        },
        onSnapshotError: failed,
      }),
    );
  }

  const coverage$ = perUser(deps, null, (cache) => from(localCoverage(cache)));

  // Read again whenever trades were stored (pages, live events, the history sync all store through the one writer);
  // a burst of batches is read once.
  const reportSource$ = perUser(deps, null, (cache) =>
    tradeWriterFor(cache).stored$.pipe(
      debounceTime(250),
      startWith(null),
      switchMap(() => from(localReportSource(cache).catch(() => null))),
    ),
  );

  const historySync$ = runHistorySync({
    session$: deps.session$,
    online$: deps.online$,
    reconnected$: deps.reconnected$,
    events$: deps.events$,
    cacheFor: deps.cacheFor,
    // The history's first sync is background work: it waits for the first paint's snapshot and then for the browser to
    // be idle, so its 100-trade pages do not compete with the first paint.
    firstSyncAfter: async (userId) => {
      await deps.firstPaint.get(userId).catch(() => undefined);
      await browserIdle();
    },
    fetchPage: async (p, limit) => {
      const r = await http.get<TradesResponse>('/trades', { page: p, limit: Math.min(limit, HISTORY_PAGE) });
      return { trades: r.trades, pagination: r.pagination };
    },
    fetchChanges: async (after, limit) => {
      const r = await http.get<TradeChangesResponse>('/trades/changes', { ...(after !== null && { after }), limit });
      return { trades: r.trades, cursor: r.cursor, more: r.more, total: r.total };
    },
  });

  return { recent$, page, coverage$, reportSource$, historySync$ };
}

export type { TradePage, TradePageQuery, LocalCoverage, ReportSource };

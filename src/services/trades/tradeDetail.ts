import { combineLatest, debounceTime, defer, filter, map, merge, startWith, switchMap, type Observable } from 'rxjs';
import type { TradeResponse } from '../../../contract/api';
import type { Trade } from '../../../contract/entities';
import { equityCurve, type EquityPoint } from '../../../contract/figures';
import { SERVER_EVENTS } from '../../../contract/events';
import type { UserCache } from '../../cache/db';
import { CACHED_TRADES_KEEP } from '../../cache/schema';
import { eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { liveState, type Live } from '../streams/liveState';

// One trade for its detail screen, and the equity curve over every trade the app holds: both read the local trade
// history first, so they work offline.

async function cachedTrade(cache: UserCache, id: string): Promise<{ value: Trade; savedAt: number } | undefined> {
  const d = await cache.db();
  const trade = d ? await d.get('trades', id).catch(() => undefined) : undefined;
  return trade ? { value: trade, savedAt: Date.parse(trade.updatedAt) } : undefined;
}

/** A trade by its id: the local copy at once (offline too), then GET /trades/:id, then its trade_updated events. */
export function tradeDetail(deps: DomainDeps, id: string): Observable<Live<Trade | null>> {
  return perUser(deps, idle<Trade | null>(null), (cache) =>
    liveState<Trade | null, Trade>({
      initial: null,
      cached: () => cachedTrade(cache, id),
      snapshot: async () => (await deps.http.get<TradeResponse>(`/trades/${encodeURIComponent(id)}`)).trade,
      events$: eventsOf(deps.events$, SERVER_EVENTS.tradeUpdated).pipe(filter((t) => t._id === id)),
      resync$: deps.reconnected$,
      fold: (_state, trade) => trade,
    }),
  );
}

/** Local history and the live recent trades as one list by id (the live copy wins). Pure. */
export function unionTrades(history: readonly Trade[], recent: readonly Trade[]): Trade[] {
  const byId = new Map<string, Trade>();
  for (const t of history) byId.set(t._id, t);
  for (const t of recent) byId.set(t._id, t);
  return [...byId.values()];
}

/**
 * The equity curve (contract/figures.ts equityCurve) over the trades the app holds: the local history (at least the
 * CACHED_TRADES_KEEP most recent trades), read again a moment after the live trades change, joined with them.
 */
export function equity$(deps: DomainDeps, recent$: Observable<Live<Trade[]>>): Observable<EquityPoint[]> {
  return replay(
    perUser(deps, [] as EquityPoint[], (cache) => {
      const history$ = merge(
        eventsOf(deps.events$, SERVER_EVENTS.newTrade),
        eventsOf(deps.events$, SERVER_EVENTS.tradeUpdated),
      ).pipe(
        // The trade writer stores live trades within a couple of seconds; read after it.
        debounceTime(2500),
        startWith(undefined),
        switchMap(() => defer(() => cache.recentTrades(CACHED_TRADES_KEEP))),
      );
      return combineLatest([history$, recent$]).pipe(
        map(([history, recent]) => equityCurve(unionTrades(history, recent.value))),
      );
    }),
  );
}

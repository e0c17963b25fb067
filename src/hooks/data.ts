import type { TradingHaltState } from '../../contract/guard';
import { useObservable, useObservableState, useSubscription } from 'observable-hooks';
import { useEffect, useMemo } from 'react';
import { map, merge, of, switchMap } from 'rxjs';
import type { SymbolId } from '../../contract/domain';
import type { Balances, MarketInfo, Prices, Stats, Trade } from '../../contract/entities';
import { DEFAULT_SYMBOLS } from '../../contract/pairs';
import type { OfflineStatus } from '../services/offline';
import type { ConnectionState } from '../services/realtime/realtimeService';
import type { Live } from '../services/streams/liveState';
import type { LocalCoverage, ReportSource, TradePage, TradePageQuery } from '../services/trades/tradesService';
import { useFrameLive, useLive } from './live';
import { useServices } from './services';
import { cockpitOf } from '../services/cockpit/cockpitServices';
import { EMPTY_HISTORY, type NotificationHistory } from '../services/notifications/historyList';

// What the screens read from the domain services: one hook a need, so components never hold a pipeline.

/**
 * A screen that shows prices asks the socket for them while it is mounted (services/realtime/pairWatch.ts): every
 * pair's, since the lists sort by spread and the balances value every coin; screens without prices ask for none.
 */
function useShowAllPrices(): void {
  const { pairWatch } = useServices();
  useEffect(() => pairWatch.show('all'), [pairWatch]);
}

export function usePrices(): Live<Prices> {
  useShowAllPrices();
  return useLive(useServices().prices.prices$, {});
}
/** Prices rendered in the animation frame that delivered them (the dashboard's live tiles). */
export function useFramePrices(): Live<Prices> {
  useShowAllPrices();
  return useFrameLive(useServices().prices.prices$, {});
}
export const useBalances = (): Live<Balances | null> => useLive(useServices().balances.balances$, null);
export const useStats = (): Live<Stats | null> => useLive(useServices().stats.stats$, null);
export const useRecentTrades = (): Live<Trade[]> => useLive(useServices().trades.recent$, []);
export const useMarket = (): Live<MarketInfo | null> => useLive(useServices().market.market$, null);
/** What the user was sent, newest first, with the unread count (the top bar's badge and the Notifications screen). */
export const useNotificationHistory = (): Live<NotificationHistory> =>
  useLive(useServices().notificationHistory.history$, EMPTY_HISTORY);
/** The pairs the server trades, in its order (the spec's two until its market answer is known). */
export function usePairs(): readonly SymbolId[] {
  return useMarket().value?.symbols ?? DEFAULT_SYMBOLS;
}
export const useTradingHalt = (): Live<TradingHaltState | null> => useLive(useServices().market.halt$, null);

const LOADING_PAGE: Live<TradePage | null> = {
  value: null,
  loading: true,
  source: 'initial',
  updatedAt: null,
  error: null,
};

/** One Trades page for these filters; a new query switches to its own page stream. */
export function useTradePage(query: TradePageQuery): Live<TradePage | null> {
  const { trades } = useServices();
  const page$ = useObservable(
    (inputs$) =>
      inputs$.pipe(
        map(([q]) => q),
        switchMap((q) => trades.page(q)),
      ),
    [query],
  );
  return useObservableState(page$, LOADING_PAGE);
}

const ONLINE: OfflineStatus = { offline: false, dataFrom: null };
export const useOfflineStatus = (): OfflineStatus => useObservableState(useServices().offline.status$, ONLINE);

/** How far back the local trade copy reaches; read only while `enabled` (undefined until read). */
export function useLocalCoverage(enabled: boolean): LocalCoverage | null | undefined {
  const { trades } = useServices();
  const coverage$ = useObservable(
    (inputs$) => inputs$.pipe(switchMap(([on]) => (on ? trades.coverage$ : of(undefined)))),
    [enabled],
  );
  return useObservableState(coverage$, undefined);
}

/** The trades P&L reports are computed from (the local copy of the history, online and offline); undefined until read. */
export const useReportSource = (): ReportSource | null | undefined =>
  useObservableState(useServices().trades.reportSource$, undefined);

export const useConnectionState = (): ConnectionState => useObservableState(useServices().realtime.state$, 'idle');

/**
 * Signed in: trades, balances, prices and both stats calls load together (spec section 4) whatever the screen, and
 * stay live and cached while the app is open.
 */
export function useWarmDomains(): void {
  const services = useServices();
  const { trades, balances, prices, stats } = services;
  const { outcomes } = cockpitOf(services);
  // The spread history is not warmed here: a day of it is two answers of about 70 KB each (compressed), paid on a
  // phone's connection for screens that draw no chart. A chart's own stream fills the cache (from where it ends) while
  // it is drawn, so what a chart has shown stays readable offline (src/services/spreads/spreadsService.ts).
  const warm$ = useMemo(
    () => merge(trades.recent$, balances.balances$, prices.prices$, stats.stats$, outcomes.outcomes$),
    [trades, balances, prices, stats, outcomes],
  );
  useSubscription(warm$);
}

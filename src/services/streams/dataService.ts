import {
  animationFrameScheduler,
  asapScheduler,
  auditTime,
  combineLatest,
  distinctUntilChanged,
  filter,
  map,
  merge,
  of,
  shareReplay,
  Subject,
  switchMap,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { BalancesResponse, PricesResponse, StatsResponse, TradesResponse } from '../../../contract/api';
import { DEFAULT_MIN_SPREAD } from '../../../contract/domain';
import type { ArbitrageOpportunity, Balances, Pagination, Prices, PublicUser, Stats, SymbolPrice, Trade } from '../../../contract/entities';
import type { UserCache } from '../../cache/db';
import type { Http } from '../http';
import type { ServerEvent } from '../realtime/socketLink';
import { reduceBalances, reduceOpportunities, reducePrices, reduceStats, reduceTrades, type TradesEvent } from '../reconcile';
import { liveState, type Live } from './liveState';
import { foldTradePage, pageKey, type TradePage, type TradePageQuery } from './tradePage';
import { cachedTradePage } from '../offline/offlineTradePage';

export interface DataDeps {
  http: Http;
  session$: Observable<{ userId: string; token: string } | null>;
  user$: Observable<PublicUser | null>;
  events$: Observable<ServerEvent>;
  reconnected$: Observable<void>;
  cacheFor: (userId: string) => UserCache;
  /** Load failures (spec section 8); the caller decides whether to show them (not on 401, not offline). */
  onLoadError: (message: string, error: unknown) => void;
  /** Price renders are coalesced to this scheduler's ticks: one per animation frame in the browser. */
  frameScheduler?: SchedulerLike;
}

export interface DataService {
  prices$: Observable<Live<Prices>>;
  balances$: Observable<Live<Balances | null>>;
  stats$: Observable<Live<Stats | null>>;
  trades$: Observable<Live<Trade[]>>;
  opportunities$: Observable<Live<ArbitrageOpportunity[]>>;
  tradePage(query: TradePageQuery): Observable<Live<TradePage | null>>;
  /** Fetch the balances (and portfolio stats) snapshot again, e.g. after a sync. */
  reloadBalances(): void;
}

const RECENT_LIMIT = 20;
const replay = <T>(o: Observable<T>) => o.pipe(shareReplay({ bufferSize: 1, refCount: true }));
/** At most one emission per tick of `frames` (an animation frame in the browser), carrying the latest value. */
export const perFrame = <T>(frames: SchedulerLike) => auditTime<T>(0, frames);

const defaultFrameScheduler = (): SchedulerLike => (typeof requestAnimationFrame === 'function' ? animationFrameScheduler : asapScheduler);

export function createDataService(deps: DataDeps): DataService {
  const { http } = deps;
  const frames = deps.frameScheduler ?? defaultFrameScheduler();
  const balancesReload$ = new Subject<void>();

  const eventsOf = <K extends ServerEvent['name']>(name: K) =>
    deps.events$.pipe(
      filter((e): e is Extract<ServerEvent, { name: K }> => e.name === name),
      map((e) => e.payload as Extract<ServerEvent, { name: K }>['payload']),
    );

  const perSession = <T>(idle: T, build: (cache: UserCache) => Observable<T>) =>
    replay(deps.session$.pipe(
      map((s) => s?.userId ?? null),
      distinctUntilChanged(),
      switchMap((userId) => (userId ? build(deps.cacheFor(userId)) : of(idle))),
    ));
  const idle = <T>(value: T): Live<T> => ({ value, loading: false, source: 'initial', updatedAt: null, error: null });
  const fromCache = <T>(cache: UserCache, kind: Parameters<UserCache['readSnapshot']>[0]) => async () => {
    const rec = await cache.readSnapshot<T>(kind);
    return rec ? { value: rec.data, savedAt: rec.savedAt } : undefined;
  };
  const failed = (message: string) => (err: unknown) => deps.onLoadError(message, err);

  const minSpread$ = deps.user$.pipe(
    map((u) => (u && Number.isFinite(u.minSpread) && u.minSpread > 0 ? u.minSpread : DEFAULT_MIN_SPREAD)),
    distinctUntilChanged(),
  );

  const rawPrices$ = perSession(idle<Prices>({}), (cache) =>
    liveState<Prices, SymbolPrice>({
      initial: {},
      cached: fromCache<Prices>(cache, 'prices'),
      snapshot: async () => (await http.get<PricesResponse>('/exchanges/prices')).prices,
      events$: eventsOf('priceUpdate'),
      resync$: deps.reconnected$,
      fold: (state, price) => ({ ...state, [price.symbol]: price }),
      persist: (v) => void cache.writeSnapshot('prices', v),
      persistDebounceMs: 1000,
      onSnapshotError: failed('Failed to load prices'),
    }),
  );
  // Many price ticks a second; React sees at most one merged map per animation frame.
  const prices$ = replay(
    combineLatest([rawPrices$, minSpread$]).pipe(
      perFrame(frames),
      map(([live, minSpread]) => ({ ...live, value: reducePrices({}, { type: 'snapshot', prices: live.value }, minSpread) })),
    ),
  );

  const balances$ = perSession(idle<Balances | null>(null), (cache) =>
    liveState<Balances | null, Partial<Balances>>({
      initial: null,
      cached: fromCache<Balances>(cache, 'balances'),
      snapshot: async () => (await http.get<BalancesResponse>('/balances')).balance,
      events$: eventsOf('balance_updated'),
      resync$: merge(deps.reconnected$, balancesReload$),
      fold: (state, delta) => reduceBalances(state, { type: 'delta', value: delta }),
      persist: (v) => void (v && cache.writeSnapshot('balances', v)),
      onSnapshotError: failed('Failed to load balances'),
    }),
  );

  const stats$ = perSession(idle<Stats | null>(null), (cache) =>
    liveState<Stats | null, Partial<Stats>>({
      initial: null,
      cached: fromCache<Stats>(cache, 'stats'),
      // Both stats calls together (spec section 4): trade summary and portfolio.
      snapshot: async () => {
        const [summary, portfolio] = await Promise.all([
          http.get<StatsResponse>('/trades/stats/summary'),
          http.get<StatsResponse>('/balances/stats/portfolio'),
        ]);
        return { ...portfolio.stats, ...summary.stats, totalValue: portfolio.stats.totalValue };
      },
      events$: eventsOf('stats_updated'),
      resync$: merge(deps.reconnected$, balancesReload$),
      fold: (state, delta) => reduceStats(state, { type: 'delta', value: delta }),
      persist: (v) => void (v && cache.writeSnapshot('stats', v)),
      onSnapshotError: failed('Failed to load statistics'),
    }),
  );

  const tradeEvents$: Observable<TradesEvent> = merge(
    eventsOf('new_trade').pipe(map((trade): TradesEvent => ({ type: 'new', trade }))),
    eventsOf('trade_updated').pipe(map((trade): TradesEvent => ({ type: 'updated', trade }))),
  );

  const trades$ = perSession(idle<Trade[]>([]), (cache) =>
    liveState<Trade[], TradesEvent>({
      initial: [],
      cached: async () => {
        const rec = await cache.readSnapshot<Trade[]>('recentTrades');
        return rec ? { value: rec.data, savedAt: rec.savedAt } : undefined;
      },
      snapshot: async () => (await http.get<TradesResponse>('/trades', { page: 1, limit: RECENT_LIMIT })).trades,
      events$: tradeEvents$,
      resync$: deps.reconnected$,
      fold: (state, e) => reduceTrades(state, e, RECENT_LIMIT),
      persist: (v) => {
        void cache.writeSnapshot('recentTrades', v);
        void cache.putTrades(v);
      },
      onSnapshotError: failed('Failed to load trades'),
    }),
  );

  const opportunities$ = perSession(idle<ArbitrageOpportunity[]>([]), (cache) =>
    liveState<ArbitrageOpportunity[], ArbitrageOpportunity>({
      initial: [],
      cached: fromCache<ArbitrageOpportunity[]>(cache, 'opportunities'),
      // Opportunities have no list call of their own; the prices answer may carry the current ones.
      snapshot: async () => (await http.get<PricesResponse>('/exchanges/prices')).opportunities ?? [],
      events$: eventsOf('arbitrage_opportunity'),
      resync$: deps.reconnected$,
      fold: (state, o) => reduceOpportunities(state, o),
      persist: (v) => void cache.writeSnapshot('opportunities', v),
    }),
  );

  function tradePage(query: TradePageQuery): Observable<Live<TradePage | null>> {
    const key = pageKey(query);
    return deps.session$.pipe(
      map((s) => s?.userId ?? null),
      distinctUntilChanged(),
      switchMap((userId) => {
        if (!userId) return of(idle<TradePage | null>(null));
        const cache = deps.cacheFor(userId);
        return liveState<TradePage | null, TradesEvent>({
          initial: null,
          // Any filter and page from the local trade history (offline paging), else the page stored verbatim.
          cached: () => cachedTradePage(cache, query, key),
          snapshot: async () => {
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
          fold: (page, e) => (page ? foldTradePage(page, e, query) : page),
          persist: (v) => {
            if (!v) return;
            void cache.writePage(key, v.trades, v.pagination);
            void cache.putTrades(v.trades);
          },
          onSnapshotError: failed('Failed to load trades'),
        });
      }),
    );
  }

  return { prices$, balances$, stats$, trades$, opportunities$, tradePage, reloadBalances: () => balancesReload$.next() };
}

export type { Live, TradePage, TradePageQuery, Pagination };

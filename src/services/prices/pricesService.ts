import { combineLatest, distinctUntilChanged, map, of, type Observable, type SchedulerLike } from 'rxjs';
import type { PricesResponse, SnapshotResponse } from '../../../contract/api';
import { DEFAULT_MIN_SPREAD } from '../../../contract/domain';
import { SERVER_EVENTS } from '../../../contract/events';
import type { Prices, PublicUser, SymbolPrice } from '../../../contract/entities';
import { reducePrices } from '../reconcile';
import { cachedSnapshot, eventsOf, idle, perUser, replay, type DomainDeps } from '../streams/domainDeps';
import { defaultFrameScheduler, perFrame } from '../streams/frames';
import { liveState, type Live } from '../streams/liveState';
import { sharedOrOwn } from '../snapshot/firstPaint';

export interface PricesDeps extends DomainDeps {
  /** The signed-in user: `arbitrage.profitable` is judged against their own minSpread. */
  user$: Observable<PublicUser | null>;
  /** Price renders are coalesced to this scheduler's ticks: one per animation frame in the browser. */
  frameScheduler?: SchedulerLike;
  /** False while the browser is offline or the realtime link is down: the prices on screen are then not live. */
  reachable$?: Observable<boolean>;
}

export interface PricesService {
  prices$: Observable<Live<Prices>>;
}

export function createPricesService(deps: PricesDeps): PricesService {
  const frames = deps.frameScheduler ?? defaultFrameScheduler();
  const minSpread$ = deps.user$.pipe(
    map((u) => (u && Number.isFinite(u.minSpread) && u.minSpread > 0 ? u.minSpread : DEFAULT_MIN_SPREAD)),
    distinctUntilChanged(),
  );

  const raw$ = replay(
    perUser(deps, idle<Prices>({}), (cache) =>
      liveState<Prices, SymbolPrice>({
        initial: {},
        cached: cachedSnapshot<Prices>(cache, 'prices'),
        snapshot: sharedOrOwn(
          deps.firstPaint,
          cache.userId,
          pricesOf,
          async () => (await deps.http.get<PricesResponse>('/exchanges/prices')).prices,
        ),
        events$: eventsOf(deps.events$, SERVER_EVENTS.priceUpdate),
        resync$: deps.reconnected$,
        fold: (state, price) => ({ ...state, [price.symbol]: price }),
        persist: (v) => void cache.writeSnapshot('prices', v),
        persistDebounceMs: 1000,
        onSnapshotError: (err) => deps.onLoadError('Failed to load prices', err),
      }),
    ),
  );

  // Many price ticks a second; React sees at most one merged map per animation frame.
  const prices$ = replay(
    combineLatest([raw$, minSpread$, deps.reachable$ ?? of(true)]).pipe(
      perFrame(frames),
      map(([live, minSpread, reachable]) => ({
        ...live,
        value: reducePrices(
          {},
          { type: 'snapshot', prices: notLiveAsStale(live.value, live.source === 'live' && reachable) },
          minSpread,
        ),
      })),
    ),
  );
  return { prices$ };
}

/** An instance without an engine has no prices (GET /exchanges/prices answers 503 there): a load failure as that is. */
export function pricesOf(snapshot: SnapshotResponse): Prices {
  if (!snapshot.prices) throw new Error('This server runs no trading engine: no prices');
  return snapshot.prices;
}

/**
 * Prices from the device's cache, or held while offline or while the live link is down, are last seen, not current:
 * marked stale, so no screen highlights them as profitable (contract/rules.ts isPriceProfitable).
 */
export function notLiveAsStale(prices: Prices, live: boolean): Prices {
  if (live) return prices;
  const out: Prices = {};
  for (const p of Object.values(prices)) if (p) out[p.symbol] = p.stale ? p : { ...p, stale: true };
  return out;
}
